// The python worker's messages, plain data both ways (host: worker-python-runner.ts; worker: workers/python.worker.ts
// and the Node test worker), and the worker side that answers them with a PythonCore, one run at a time.
import type { PythonCore } from "./python-core.ts";
import type { PythonRunRequest, PythonRunResult } from "./python-runner.ts";

/** Host → worker. */
export interface PythonWorkerRequest {
  type: "run";
  id: number;
  request: PythonRunRequest;
}

/** Worker → host: `started` once the program's own time begins, `output` as it prints, `result` last. */
export type PythonWorkerResponse =
  | { type: "started"; id: number }
  | { type: "output"; id: number; stream: "stdout" | "stderr"; bytes: Uint8Array }
  /** `fatal`: the interpreter died with the run (os._exit, a crash); the host should replace the worker. */
  | { type: "result"; id: number; result: PythonRunResult; fatal: boolean };

/**
 * Worker → host, once, before anything else: a memory snapshot of the worker's fresh interpreter (Pyodide's
 * `makeMemorySnapshot`, taken after loading and setting up and before any program ran), which later interpreters start
 * from instead of initialising Python again. Only the browser's python worker sends it, and only when it was started
 * without one; the host must ignore it after any other message, since by then a program may have run.
 */
export interface PythonSnapshotMessage {
  type: "snapshot";
  bytes: Uint8Array;
}

/** Posts a message to the host, transferring the listed buffers. */
export type PostToHost = (message: PythonWorkerResponse, transfer: ArrayBuffer[]) => void;

/**
 * The worker side: returns the handler for host messages. Output is forwarded as the program writes it (stdout in
 * blocks, stderr by line) so that a host which stops the program still has what it printed; the result carries the
 * complete output.
 */
export function servePythonRequests(core: PythonCore, post: PostToHost): (message: PythonWorkerRequest) => void {
  let queue: Promise<void> = Promise.resolve();
  return (message) => {
    queue = queue.then(() => serve(core, post, message));
  };
}

async function serve(core: PythonCore, post: PostToHost, { id, request }: PythonWorkerRequest): Promise<void> {
  const { result, fatal } = await core.run(request, {
    onStarted: () => post({ type: "started", id }, []),
    onOutput: (stream, bytes) => post({ type: "output", id, stream, bytes }, []),
  });
  // Only buffers a file owns whole are moved; a view into Wasm memory must be copied, never detached.
  const transfer = Object.values(result.written)
    .filter((bytes) => bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength)
    .map((bytes) => bytes.buffer as ArrayBuffer);
  post({ type: "result", id, result, fatal }, transfer);
}
