// The sandbox contract again for BrowserSandbox, this time with python3 (Pyodide in a Node worker thread).
import "fake-indexeddb/auto";
import { afterAll } from "vitest";
import { BrowserSandbox } from "../../src/sandbox/browser/browser-sandbox.ts";
import { createPythonCommands } from "../../src/sandbox/browser/python-command.ts";
import { describeSandboxContract } from "../../src/sandbox/sandbox-contract.ts";
import { openFawnDb, ThreadFiles } from "../../src/storage/index.ts";
import { IndexedDbThreadFileStore } from "../../src/sandbox/indexed-db-thread-file-store.ts";
import { NodePythonRunner } from "../support/node-python-runner.ts";

const python = new NodePythonRunner();
afterAll(() => python.dispose());
const files = openFawnDb("browser-sandbox-python").then((db) => new IndexedDbThreadFileStore(new ThreadFiles(db)));

describeSandboxContract("BrowserSandbox with python3", {
  open: async (threadId) =>
    BrowserSandbox.open({ threadId, files: await files, commands: createPythonCommands(python) }),
  capabilities: { python: true },
});
