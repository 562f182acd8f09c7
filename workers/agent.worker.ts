// Agent worker entry point: opens storage and exposes the Gateway to the page through comlink.
import * as Comlink from "comlink";
import { Gateway } from "../src/gateway/index.ts";
import { whenReady } from "../src/shared/when-ready.ts";

const DB_NAME = "fawn";

Comlink.expose(whenReady(Gateway.open(DB_NAME)));
