// Agent worker entry point: opens storage and exposes the Gateway to the page through comlink. Thread sandboxes run
// in a worker of their own (workers/sandbox.worker.ts), so a runaway command can be killed without killing the agent.
import * as Comlink from "comlink";
import { Gateway } from "../src/gateway/index.ts";
import { IsolatedSandboxes } from "../src/sandbox/browser/isolated-browser-sandbox.ts";
import { whenReady } from "../src/shared/when-ready.ts";

const DB_NAME = "fawn";

const sandboxes = new IsolatedSandboxes(
  () => new Worker(new URL("./sandbox.worker.ts", import.meta.url), { type: "module", name: "fawn-sandbox" }),
);

Comlink.expose(whenReady(Gateway.open(DB_NAME, { openSandbox: (threadId) => sandboxes.open(threadId) })));
