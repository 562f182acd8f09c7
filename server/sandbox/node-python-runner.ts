// python3 on Node: the browser's runner logic (WorkerPythonRunner: queue, time limit, terminate, restart) over a child
// process running python-process.ts. The child is walled off as far as Node allows: its permission model lets it read
// only its own bundle and Pyodide's files and write only its own package cache, its environment is empty, and it may
// start no process or thread; so `import js` in a program reaches no secret, no host file and no shell. The network,
// which Node's permission model leaves open, the child closes itself (python-lockdown.ts) to all but Pyodide's package
// CDN. Node documents its permission model as a seat belt, not a boundary against malicious code: for users the
// operator does not trust, threads belong in containers (sandbox-provider.ts).
import { fork } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { WorkerPythonRunner, type SpawnPythonWorker } from "../../src/sandbox/python/worker-python-runner.ts";
import type { PythonRunRequest } from "../../src/sandbox/python/python-runner.ts";
import type { PythonWorkerRequest, PythonWorkerResponse } from "../../src/sandbox/python/python-worker-protocol.ts";

const PYODIDE_ENTRY = fileURLToPath(import.meta.resolve("pyodide"));

/** Node 22.13+ names the permission model `--permission`; Node 20 only knows the experimental flag. */
const PERMISSION_FLAG = process.allowedNodeEnvironmentFlags.has("--permission")
  ? "--permission"
  : "--experimental-permission";

let bundled: Promise<string> | undefined;

/**
 * python-process.ts and the sandbox code it takes from src/, bundled once per process into a temp folder, so the child
 * runs plain JavaScript with no loader (a TypeScript loader would need to read far beyond Pyodide's folder).
 */
function childScript(): Promise<string> {
  bundled ??= (async () => {
    const folder = mkdtempSync(join(tmpdir(), "fawn-python-"));
    process.once("exit", () => rmSync(folder, { recursive: true, force: true }));
    const outfile = join(folder, "python-process.mjs");
    await build({
      entryPoints: [fileURLToPath(new URL("./python-process.ts", import.meta.url))],
      outfile,
      bundle: true,
      platform: "node",
      format: "esm",
      target: "node20",
      logLevel: "silent",
      // Pyodide stays in node_modules, where it finds its .wasm and standard library beside it.
      plugins: [
        {
          name: "pyodide-in-place",
          setup: (builder) =>
            builder.onResolve({ filter: /^pyodide$/ }, () => ({ path: PYODIDE_ENTRY, external: true })),
        },
      ],
    });
    return outfile;
  })();
  return bundled;
}

/** Starts python-process in a walled-off child (see the module comment). */
export const spawnPythonProcess: SpawnPythonWorker = (events) => {
  let ended = false;
  let child: ReturnType<typeof fork> | undefined;
  const queued: PythonWorkerRequest[] = [];
  let running = 0;
  const post = (message: PythonWorkerRequest) => {
    if (running++ === 0) child?.channel?.ref();
    child?.send(message);
  };
  const release = () => {
    if (--running === 0) child?.channel?.unref();
  };
  void childScript().then(
    (script) => {
      if (ended) return;
      // Pyodide's package downloads are cached per child: a cache shared by every user's interpreters, writable by
      // each, would let one user's program plant a package another's imports.
      const packages = mkdtempSync(join(dirname(script), "packages-"));
      child = fork(script, [packages], {
        execArgv: [
          PERMISSION_FLAG,
          `--allow-fs-read=${script}`,
          `--allow-fs-read=${dirname(PYODIDE_ENTRY)}/*`,
          `--allow-fs-read=${packages}/*`,
          `--allow-fs-write=${packages}/*`,
          "--no-warnings",
        ],
        env: {},
        cwd: dirname(script),
        serialization: "advanced",
        stdio: ["ignore", "ignore", "pipe", "ipc"],
      });
      // An idle interpreter never keeps the server (or a test) alive; a program under way does. The child exits when
      // its channel closes, so it never outlives this process, even one killed with SIGKILL.
      child.unref();
      child.channel?.unref();
      let stderr = "";
      child.stderr?.on("data", (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-2_000)));
      child.on("message", (message: PythonWorkerResponse) => {
        if (message.type === "result") release();
        events.message(message);
      });
      child.on("error", (error) => events.crash(error.message));
      child.on("exit", (code, signal) => {
        rmSync(packages, { recursive: true, force: true });
        if (!ended) events.crash(`python3 exited with ${signal ?? `code ${code}`}${stderr && `: ${lastLine(stderr)}`}`);
      });
      for (const message of queued.splice(0)) post(message);
    },
    (error: unknown) =>
      events.crash(`python3 could not be prepared: ${error instanceof Error ? error.message : error}`),
  );
  return {
    send: (message) => (child ? post(message) : queued.push(message)),
    terminate: () => {
      ended = true;
      child?.kill("SIGKILL");
    },
  };
};

function lastLine(text: string): string {
  return text.trim().split("\n").at(-1) ?? "";
}

/** The browser's runner logic with a walled-off Node child process in place of the module worker. */
export class NodePythonRunner extends WorkerPythonRunner {
  constructor(options: { startupTimeoutMs?: number } = {}) {
    super({ ...options, spawn: spawnPythonProcess });
  }
}

/** Milliseconds to the first `print(1)` on a new runner (cold: Pyodide loads) and to a second one (warm). */
export async function measurePythonStartup(
  runner = new NodePythonRunner(),
): Promise<{ coldMs: number; warmMs: number }> {
  const request: PythonRunRequest = {
    argv: ["-c", "print(1)"],
    cwd: "/mnt/user-data/workspace",
    files: {},
    timeoutMs: 60_000,
  };
  const time = async () => {
    const started = performance.now();
    const result = await runner.run(request);
    if (result.stdout !== "1\n") throw new Error(`print(1) printed ${JSON.stringify(result.stdout + result.stderr)}`);
    return performance.now() - started;
  };
  try {
    return { coldMs: await time(), warmMs: await time() };
  } finally {
    runner.dispose();
  }
}
