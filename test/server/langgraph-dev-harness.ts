// `langgraphjs dev` serving Fawn's graph (langgraph.json → server/graph.ts) with the mock model, started on a free port
// in a temp folder that links to the repository (so its `.langgraph_api/` never lands in the checkout), as
// langgraph-dev.test.ts starts it. `stop()` ends the CLI and its server (their process group) and removes the folder.
// `modelUrl` points the graph at a mock already running (the e2e tests' one) instead of starting its own.
import { spawn, type ChildProcess } from "node:child_process";
import { copyFileSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { startMockLlm } from "../mock-llm/server.ts";

const REPO = resolve(import.meta.dirname, "../..");
const LINKED = ["server", "src", "skills", "node_modules", "package.json", "tsconfig.json", "tsconfig.base.json"];
const START_TIMEOUT_MS = 90_000;

export interface LangGraphDev {
  url: string;
  stop(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once("error", fail);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => done(port));
    });
  });
}

export async function startLangGraphDev(options: { modelUrl?: string } = {}): Promise<LangGraphDev> {
  const mock = options.modelUrl ? { url: options.modelUrl, close: async () => {} } : await startMockLlm({ port: 0 });
  const folder = mkdtempSync(join(tmpdir(), "fawn-langgraph-dev-"));
  for (const name of LINKED) symlinkSync(join(REPO, name), join(folder, name));
  copyFileSync(join(REPO, "langgraph.json"), join(folder, "langgraph.json"));
  writeFileSync(join(folder, ".gitignore"), ".langgraph_api/\n");
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  let log = "";
  const dev: ChildProcess = spawn(
    "npx",
    [
      "--no-install",
      "langgraphjs",
      "dev",
      "--port",
      String(port),
      "--host",
      "127.0.0.1",
      "--no-browser",
      "--no-reload",
    ],
    {
      cwd: folder,
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
      env: {
        ...process.env,
        LANGGRAPH_CLI_NO_ANALYTICS: "1",
        LANGSMITH_TRACING: "false",
        BROWSER: "none",
        FAWN_MODEL_BASE_URL: mock.url,
        FAWN_MODEL_API_KEY: "sk-test",
        FAWN_MODEL: "mock-model",
      },
    },
  );
  const keep = (chunk: Buffer) => (log = (log + chunk.toString()).slice(-20_000));
  dev.stdout?.on("data", keep);
  dev.stderr?.on("data", keep);

  const stop = async () => {
    if (dev.pid && dev.exitCode === null) {
      const exited = new Promise((done) => dev.once("exit", done));
      process.kill(-dev.pid, "SIGTERM");
      const timer = setTimeout(() => dev.pid && process.kill(-dev.pid, "SIGKILL"), 5_000);
      await exited;
      clearTimeout(timer);
    }
    await mock.close();
    rmSync(folder, { recursive: true, force: true });
  };

  try {
    const deadline = Date.now() + START_TIMEOUT_MS;
    for (;;) {
      if (dev.exitCode !== null) throw new Error(`langgraphjs dev exited early:\n${log.slice(-3_000)}`);
      const ok = await fetch(`${url}/ok`).then(
        (response) => response.ok,
        () => false,
      );
      if (ok) break;
      if (Date.now() > deadline) throw new Error(`langgraphjs dev did not answer /ok:\n${log.slice(-3_000)}`);
      await new Promise((wake) => setTimeout(wake, 250));
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, stop };
}
