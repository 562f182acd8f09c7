// Node worker thread entry for NodePythonRunner: registers tsx so the TypeScript worker (and src/) load, then starts it.
import { register } from "tsx/esm/api";

register();
await import("./python-worker.node.ts");
