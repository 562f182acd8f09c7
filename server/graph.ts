// Fawn's lead agent as a LangGraph graph for LangGraph's own JS server: `npx langgraphjs dev` reads langgraph.json,
// which names `graph` here as `lead_agent`. The model comes from FAWN_MODEL_BASE_URL, FAWN_MODEL_API_KEY and FAWN_MODEL
// (an OpenAI-compatible endpoint, or FAWN_MODEL_PROVIDER anthropic / gemini); each thread gets the server's sandbox
// (server/sandbox/) over files kept in this process's memory, as LangGraph's dev server keeps its checkpoints. It is
// the comparison point for `npm run server` (test/server/langgraph-dev.test.ts), not a way to run Fawn for a team.
import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { randomUUID } from "node:crypto";
import { register } from "node:module";
import type { ModelProvider } from "../src/protocol/index.ts";
import type { Sandbox } from "../src/sandbox/sandbox.ts";

// Vite's import.meta.glob (the shipped skills) read from disk on Node, as main.ts does; src/ is imported after it.
register("./vite-globs.ts", import.meta.url);
const { createLeadAgent } = await import("../src/agent/index.ts");
const { createChatModel } = await import("../src/models/index.ts");
const { MemoryThreadFileStore } = await import("../src/sandbox/thread-file-store.ts");
const { openServerSandbox } = await import("./sandbox/index.ts");

const PROVIDERS: readonly ModelProvider[] = ["openai-compatible", "anthropic", "gemini"];

/** The model FAWN_MODEL_* names, as the server's environment-only configuration reads it. */
function modelFromEnv(env: NodeJS.ProcessEnv = process.env) {
  const baseUrl = env.FAWN_MODEL_BASE_URL;
  const model = env.FAWN_MODEL;
  if (!baseUrl || !model) throw new Error("Set FAWN_MODEL_BASE_URL and FAWN_MODEL (and FAWN_MODEL_API_KEY) first.");
  const provider = env.FAWN_MODEL_PROVIDER as ModelProvider | undefined;
  if (provider && !PROVIDERS.includes(provider)) {
    throw new Error(`FAWN_MODEL_PROVIDER must be one of ${PROVIDERS.join(", ")}.`);
  }
  const apiKey = env.FAWN_MODEL_API_KEY ?? "";
  return {
    apiKey,
    model: createChatModel({ name: "env", baseUrl, apiKey, model, models: [], ...(provider && { provider }) }),
  };
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
  const { model, apiKey } = modelFromEnv();
  return createLeadAgent({
    model: await model,
    sandbox: () => sandboxOf(threadId),
    ...(apiKey && { secrets: [apiKey] }),
  });
}
