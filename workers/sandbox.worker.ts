// Sandbox worker entry point: the browser sandboxes of every thread, started by the agent worker
// (src/sandbox/browser/isolated-browser-sandbox.ts), which terminates and restarts it to stop a runaway command.
import * as Comlink from "comlink";
import { SandboxService } from "../src/sandbox/browser/sandbox-service.ts";
import { whenReady } from "../src/shared/when-ready.ts";
import { openFawnDb, ThreadFiles } from "../src/storage/index.ts";

/** The same database as the agent worker's (workers/agent.worker.ts). */
const DB_NAME = "fawn";

const service = openFawnDb(DB_NAME).then((db) => new SandboxService({ files: new ThreadFiles(db) }));
Comlink.expose(whenReady(service));
