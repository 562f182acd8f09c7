// The agent choice store: the user's custom agents (Settings → Agents) and which one the next message goes to — the
// open thread's (`ThreadSummary.agent`), or for a new thread the last one chosen (remembered in localStorage). The
// composer's "Agent" combobox shows and changes it; runs.ts sends it as `RunRequest.context.agent`. Components take
// it with useAgentChoice() (stores.tsx).
import { createSignal } from "solid-js";
import type { AgentRecord, RunRequest, ThreadDetail } from "../../protocol/index.ts";
import type { GatewayClient } from "../gateway-client.ts";

const AGENT_KEY = "fawn.agent";

function storedAgent(): string | undefined {
  try {
    return localStorage.getItem(AGENT_KEY) ?? undefined;
  } catch {
    return undefined;
  }
}

function storeAgent(name: string | undefined): void {
  try {
    if (name) localStorage.setItem(AGENT_KEY, name);
    else localStorage.removeItem(AGENT_KEY);
  } catch {
    // Private windows may refuse storage; the choice then lasts for this page.
  }
}

export function createAgentChoice(deps: {
  client: Pick<GatewayClient, "agents">;
  /** The open thread, as saved (runs.ts's `openThread.current`). */
  thread: () => ThreadDetail | undefined;
}) {
  const [agents, setAgents] = createSignal<readonly AgentRecord[]>([]);
  /** Whether the list was read: until then (or where the workspace has no agents) a run names no agent at all. */
  const [loaded, setLoaded] = createSignal(false);
  const [last, setLast] = createSignal<string | undefined>(storedAgent());
  /** A choice made in a thread that its next message has not carried to the saved thread yet. */
  const [pending, setPending] = createSignal<{ threadId: string; agent: string | undefined }>();
  /** `name` when it is one of the user's agents; an agent deleted meanwhile is the lead agent again. */
  const known = (name: string | undefined) =>
    name !== undefined && agents().some((agent) => agent.name === name) ? name : undefined;

  /** The agent the next message goes to (undefined: the lead agent, Fawn). */
  const chosen = (): string | undefined => {
    const thread = deps.thread();
    if (!thread) return known(last());
    const choice = pending();
    return known(choice?.threadId === thread.thread_id ? choice.agent : thread.agent);
  };

  return {
    /** The user's agents, sorted by name. */
    agents,
    chosen,
    /** Reads the agents again (at load, after Settings → Agents changed them, when another tab did). */
    async reload(): Promise<void> {
      try {
        setAgents(await deps.client.agents.list());
        setLoaded(true);
      } catch {
        // A workspace whose server keeps no agents: the composer offers none, and runs name none.
        setAgents([]);
        setLoaded(false);
      }
    },
    /** Chooses the agent (undefined: Fawn) for the open thread's next message, and for the next new thread. */
    choose(name: string | undefined): void {
      setLast(name);
      storeAgent(name);
      const thread = deps.thread();
      if (thread) setPending({ threadId: thread.thread_id, agent: name });
    },
    /** The choice as a run's context carries it: a name, null for Fawn; nothing while the agents are unknown. */
    runAgent(): Pick<NonNullable<RunRequest["context"]>, "agent"> {
      return loaded() ? { agent: chosen() ?? null } : {};
    },
    /** A message went to `threadId` with `context.agent`: the thread shows that agent until its saved detail does. */
    sent(threadId: string, context: Pick<NonNullable<RunRequest["context"]>, "agent">): void {
      if ("agent" in context) setPending({ threadId, agent: context.agent ?? undefined });
    },
  };
}

export type AgentChoiceStore = ReturnType<typeof createAgentChoice>;
