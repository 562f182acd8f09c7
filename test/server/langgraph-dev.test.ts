// LangGraph's own JS server (`langgraphjs dev`, reading langgraph.json) serving Fawn's lead agent graph
// (server/graph.ts), driven with the SDK's Client: the shared SDK suite (sdk-suite.ts), so Fawn's server and
// LangGraph's agree, and a reply whose tool call writes a file in the thread's sandbox. The dev server runs in a temp
// folder that links to the repository, so its `.langgraph_api/` never lands in the checkout.
import { spawn, type ChildProcess } from "node:child_process";
import { copyFileSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { Client } from "@langchain/langgraph-sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMockLlm, type MockLlm } from "../mock-llm/server.ts";
import { sdkSuite } from "./sdk-suite.ts";

const REPO = resolve(import.meta.dirname, "../..");
/** What `langgraphjs dev` needs of the repository: the graph's code, its dependencies and TypeScript settings. */
const LINKED = ["server", "src", "skills", "node_modules", "package.json", "tsconfig.json", "tsconfig.base.json"];
const START_TIMEOUT_MS = 90_000;

let mock: MockLlm;
let dev: ChildProcess | undefined;
let folder: string;
let apiUrl = "";
let log = "";

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

async function waitForOk(url: string): Promise<void> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (dev?.exitCode !== null) throw new Error(`langgraphjs dev exited early:\n${log.slice(-3_000)}`);
    const ok = await fetch(`${url}/ok`).then(
      (response) => response.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((wake) => setTimeout(wake, 250));
  }
  throw new Error(`langgraphjs dev did not answer /ok in ${START_TIMEOUT_MS / 1000} s:\n${log.slice(-3_000)}`);
}

beforeAll(async () => {
  mock = await startMockLlm({ port: 0 });
  folder = mkdtempSync(join(tmpdir(), "fawn-langgraph-dev-"));
  for (const name of LINKED) symlinkSync(join(REPO, name), join(folder, name));
  copyFileSync(join(REPO, "langgraph.json"), join(folder, "langgraph.json"));
  // Present, so the CLI does not add it to a .gitignore of its own.
  writeFileSync(join(folder, ".gitignore"), ".langgraph_api/\n");
  const port = await freePort();
  apiUrl = `http://127.0.0.1:${port}`;
  dev = spawn(
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
      // Its own process group, so afterAll ends the CLI and the server it starts together.
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
  await waitForOk(apiUrl);
}, START_TIMEOUT_MS + 10_000);

afterAll(async () => {
  if (dev?.pid && dev.exitCode === null) {
    const exited = new Promise((done) => dev!.once("exit", done));
    process.kill(-dev.pid, "SIGTERM");
    const timer = setTimeout(() => dev?.pid && process.kill(-dev.pid, "SIGKILL"), 5_000);
    await exited;
    clearTimeout(timer);
  }
  await mock?.close();
  if (folder) rmSync(folder, { recursive: true, force: true });
});

const client = () => new Client({ apiUrl, callerOptions: { maxRetries: 0 } });

sdkSuite({
  name: "langgraphjs dev serving Fawn's graph",
  client,
  parts: ["core", "assistants", "threads", "state", "runs"],
});

describe("Fawn's graph on langgraphjs dev", () => {
  it("streams a reply whose tool call writes a file in the thread's sandbox; the next run reads it back", async () => {
    const thread = await client().threads.create();
    const write = JSON.stringify({
      description: "Write a note",
      path: "/mnt/user-data/outputs/note.md",
      content: "# Hello from Fawn\n",
    });
    const events: string[] = [];
    for await (const part of client().runs.stream(thread.thread_id, "lead_agent", {
      input: { messages: [{ type: "human", content: `call tool write_file ${write}` }] },
      streamMode: ["values", "messages-tuple", "updates"],
    })) {
      events.push(part.event);
    }
    expect(events).toEqual(expect.arrayContaining(["metadata", "values", "messages", "updates"]));
    expect(events).not.toContain("error");

    const read = JSON.stringify({ description: "Read the note", command: "cat /mnt/user-data/outputs/note.md" });
    const values = (await client().runs.wait(thread.thread_id, "lead_agent", {
      input: { messages: [{ type: "human", content: `call tool bash ${read}` }] },
    })) as { messages: { type: string; content: unknown }[] };
    const tool = values.messages.filter((message) => message.type === "tool").at(-1);
    expect(tool?.content).toBe("# Hello from Fawn");
    // The model was offered the sandbox's tools, and the API key never went into a message.
    const last = mock.requests.at(-1)?.body as { tools?: { function: { name: string } }[] };
    expect(last.tools?.map((tool) => tool.function.name)).toEqual(expect.arrayContaining(["bash", "write_file"]));
    expect(JSON.stringify(mock.requests.map((request) => request.body))).not.toContain("sk-test");
  });
});
