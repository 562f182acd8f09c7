// Sandbox worker entry point: the browser sandboxes of every thread, started by the agent worker
// (src/sandbox/browser/isolated-browser-sandbox.ts), which terminates and restarts it to stop a runaway command.
// python3 runs in a worker of its own (workers/python.worker.ts), started from here on first use.
import * as Comlink from "comlink";
import { createPythonCommands } from "../src/sandbox/browser/python-command.ts";
import { SandboxService } from "../src/sandbox/browser/sandbox-service.ts";
import { WorkerPythonRunner } from "../src/sandbox/python/worker-python-runner.ts";
import { whenReady } from "../src/shared/when-ready.ts";
import { openFawnDb, ThreadFiles } from "../src/storage/index.ts";

/** The same database as the agent worker's (workers/agent.worker.ts). */
const DB_NAME = "fawn";

const python = new WorkerPythonRunner();
const service = openFawnDb(DB_NAME).then(
  (db) => new SandboxService({ files: new ThreadFiles(db), commands: createPythonCommands(python) }),
);
Comlink.expose(whenReady(service));
