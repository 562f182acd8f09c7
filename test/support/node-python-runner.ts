// python3 for Node tests and benchmarks: the server's runner (server/sandbox/node-python-runner.ts), Pyodide in a
// walled-off child process behind the browser's runner logic.
export { measurePythonStartup, NodePythonRunner } from "../../server/sandbox/index.ts";
