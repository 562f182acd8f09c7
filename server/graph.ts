// Fawn's lead agent as a LangGraph graph for LangGraph's own JS server: `npx langgraphjs dev` reads langgraph.json,
// which names `graph` here as `lead_agent`. The model is the one `npm run server` would give every user: FAWN_MODEL_*
// or fawn-server.json's default (server/config.ts); each thread gets the server's sandbox (server/sandbox/) over files
// kept in this process's memory, as LangGraph's dev server keeps its checkpoints. It is the comparison point for
// `npm run server` (test/server/langgraph-dev.test.ts), not a way to run Fawn for a team.
import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { randomUUID } from "node:crypto";
import { register } from "node:module";
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import type { Sandbox } from "../src/sandbox/sandbox.ts";

// Vite's import.meta.glob (the shipped skills) read from disk on Node, as main.ts does; src/ is imported after it.
register("./vite-globs.ts", import.meta.url);
const { createLeadAgent } = await import("../src/agent/index.ts");
const { createChatModel, targetForRun } = await import("../src/models/index.ts");
const { MemoryThreadFileStore } = await import("../src/sandbox/thread-file-store.ts");
const { openServerSandbox } = await import("./sandbox/index.ts");
const { loadConfig } = await import("./config.ts");

let configured: Promise<{ model: BaseChatModel; apiKey: string }> | undefined;

/** The configured default model, made once (a changed configuration needs a restart, as for the server). */
function defaultModel(): Promise<{ model: BaseChatModel; apiKey: string }> {
  configured ??= (async () => {
    const { models } = loadConfig();
    const target = models && targetForRun(models, undefined, undefined);
    if (!target) {
      throw new Error("No model is configured: set FAWN_MODEL_BASE_URL and FAWN_MODEL, or models in fawn-server.json.");
    }
    return { model: await createChatModel(target), apiKey: target.apiKey };
  })();
  configured.catch(() => (configured = undefined));
  return configured;
}

const files = new MemoryThreadFileStore();
const sandboxes = new Map<string, Promise<Sandbox>>();

/** The thread's sandbox, opened at its first tool call and kept while the dev server runs. */
function sandboxOf(threadId: string): Promise<Sandbox> {
  let sandbox = sandboxes.get(threadId);
  if (!sandbox) {
    sandbox = Promise.resolve(openServerSandbox(threadId, files, async () => ({})));
    sandboxes.set(threadId, sandbox);
    sandbox.catch(() => sandboxes.delete(threadId));
  }
  return sandbox;
}

/** The graph factory LangGraph's server calls per run (and per assistant read), with the run's config. */
export async function graph(config: LangGraphRunnableConfig) {
  const threadId = String(config.configurable?.thread_id ?? randomUUID());
  const { model, apiKey } = await defaultModel();
  return createLeadAgent({
    model,
    sandbox: () => sandboxOf(threadId),
    ...(apiKey && { secrets: [apiKey] }),
  });
}
