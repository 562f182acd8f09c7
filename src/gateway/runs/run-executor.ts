// One agent run: streams LangGraph's events, keeps the thread's state in the checkpointer, and always ends with `end`.
import { AIMessage, AIMessageChunk, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import type { BaseCheckpointSaver } from "@langchain/langgraph-checkpoint";
import {
  createLeadAgent,
  createWebTools,
  fallbackTitle,
  fromWireMessage,
  outboundTargets,
  resolveRunOptions,
  toWireChunk,
  toWireMessage,
  type McpRunTools,
  type ModelErrorOptions,
  type OutboundApproval,
  type SummarizationOptions,
  withNetworkedShell,
} from "../agent/index.ts";
import { createOpenAiModel, describeModelError, type ChatModelFactory } from "../models/index.ts";
import type {
  AiWireMessage,
  SkillInfo,
  SubagentSettings,
  HumanWireMessage,
  ModelTarget,
  ThreadSummary,
  RunEndStatus,
  RunError,
  RunEvent,
  RunRequest,
  TodoItem,
  WebToolSettings,
  WireMessage,
} from "../protocol/index.ts";
import { contentText, isTodoItem, READ_ONLY_THREAD } from "../protocol/index.ts";
import { newId } from "../shared/ids.ts";
import { secretRedactor } from "../shared/redact.ts";
import { redactingErrors } from "./error-redaction.ts";
import type { Sandbox } from "../sandbox/sandbox.ts";
import { IndexedDbCheckpointSaver, type HistoryNote, type ThreadRepository } from "../storage/index.ts";
import { isQuotaError, STORAGE_FULL_MESSAGE } from "../storage/storage-errors.ts";

export interface RunDependencies {
  threads: ThreadRepository;
  /** The thread as the caller read it before the run (undefined: there is no such thread). */
  thread: ThreadSummary | undefined;
  checkpointer: BaseCheckpointSaver;
  /** The endpoint and model the run talks to; undefined until a default model is set (the message is only saved). */
  target: ModelTarget | undefined;
  createModel: ChatModelFactory;
  /** Retry policy for model errors; tests shorten the waits. */
  retry?: ModelErrorOptions;
  /** Summarization triggers; `false` turns it off. */
  summarization?: SummarizationOptions | false;
  /** The web tools' providers and keys; without them the agent has no web tools. */
  webTools?: WebToolSettings;
  /** Fawn's CORS relay, for web services that refuse browsers. */
  proxyUrl?: string;
  /** The relay's token (Settings → Web). */
  proxyToken?: string;
  /** Called after each write to the thread's history, so other tabs can refresh. */
  onThreadChanged?: (threadId: string) => void;
  /** The thread's sandbox, for the agent's bash and file tools. */
  sandbox?: (threadId: string) => Promise<Sandbox>;
  /** The memory as the prompt carries it ("" for none). */
  memory?: string;
  /** The skills, enabled and disabled (the prompt lists the enabled ones). */
  skills?: SkillInfo[];
  /** Limits and types for Ultra's subagents. */
  subagents?: SubagentSettings;
  /** The enabled MCP servers' tools, for every mode. */
  mcp?: McpRunTools;
  /** Resolves `/skill-name …` at the start of the user's message. */
  activateSkill?: (text: string) => Promise<SkillActivation>;
  /** Ids of the thread's messages from another person's thread: the model reads them as a quoted transcript. */
  foreign?: ReadonlySet<string>;
  /** Present when tool calls that send data out wait for the user: the approval for the run's outbound tools. */
  approve?: (describe: OutboundApproval["describe"]) => OutboundApproval;
  /** Told the thread's messages after a run that completed, for memory to learn from. */
  onRunSaved?: (threadId: string, messages: BaseMessage[]) => void;
  /**
   * Every stored secret (all endpoints' and web providers' keys): replaced by `[redacted key]` in error text before
   * it is stored or emitted. The run's own keys are redacted without it too.
   */
  secrets?: readonly string[];
  /**
   * Where the run starts (absent: the thread's latest checkpoint): `checkpoint` is the one to go on from (a version
   * shown, or the fork point of an edit or regeneration); `resume` goes on from it without a new message.
   */
  start?: { checkpoint?: string; resume?: boolean };
  /** The id of the user message the run adds (default: a new one). */
  userMessageId?: string;
}

type Emit = (event: RunEvent) => void;

/** Why a resumption from an imported thread's step is refused. */
export const IMPORTED_STEP =
  "This step came with an imported thread: its tool calls were made elsewhere and are not run here. Send a message " +
  "to go on.";

/** Whether the checkpoint a resumption starts from (default: the latest) came in an imported thread. */
async function importedStep(
  checkpointer: BaseCheckpointSaver,
  threadId: string,
  checkpointId: string | undefined,
): Promise<boolean> {
  if (!(checkpointer instanceof IndexedDbCheckpointSaver)) return false;
  const id = checkpointId ?? (await checkpointer.latestCheckpointId(threadId));
  return id !== undefined && (await checkpointer.isImported(threadId, id));
}

/** What `/skill-name` at the start of a message resolved to (see gateway/skills-service.ts). */
export type SkillActivation =
  | { kind: "none" }
  | { kind: "activate"; text: string; skill: Pick<SkillInfo, "name" | "allowedTools"> }
  | { kind: "disabled"; skill: Pick<SkillInfo, "name"> };

/** Text and reasoning streamed so far per message id, to keep a partial answer when the user presses Stop. */
type Partial = Map<string, { content: string; reasoning: string }>;

function isMessage(value: unknown): value is BaseMessage {
  return typeof value === "object" && value !== null && "content" in value && "type" in value;
}

/** Structured-clone-safe copy of a stream payload: LangChain messages become wire messages. */
function toWireValue(value: unknown): unknown {
  if (isMessage(value)) return toWireMessage(value);
  if (Array.isArray(value)) return value.map(toWireValue);
  if (typeof value === "object" && value !== null) {
    const plain: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) if (typeof item !== "function") plain[key] = toWireValue(item);
    return plain;
  }
  return value;
}

/** The messages of the thread's latest checkpoint, or undefined when it has none (a thread from before them). */
export async function checkpointMessages(
  checkpointer: BaseCheckpointSaver,
  threadId: string,
  checkpointId?: string,
): Promise<WireMessage[] | undefined> {
  return (await checkpointView(checkpointer, threadId, checkpointId))?.messages;
}

/**
 * The messages and presented files of the thread's checkpoint `checkpointId` (default: the latest), read once;
 * undefined when there is none.
 */
export async function checkpointView(
  checkpointer: BaseCheckpointSaver,
  threadId: string,
  checkpointId?: string,
): Promise<{ messages: WireMessage[]; artifacts: string[]; todos: TodoItem[] } | undefined> {
  const tuple = await checkpointer.getTuple({
    configurable: { thread_id: threadId, checkpoint_ns: "", ...(checkpointId && { checkpoint_id: checkpointId }) },
  });
  return tuple && stateView(tuple.checkpoint.channel_values);
}

/** The messages, presented files and plan a checkpoint's channel values hold. */
export function stateView(values: Record<string, unknown>): {
  messages: WireMessage[];
  artifacts: string[];
  todos: TodoItem[];
} {
  const { messages, artifacts, todos } = values;
  return {
    messages: Array.isArray(messages) ? messages.filter(isMessage).map(toWireMessage) : [],
    artifacts: Array.isArray(artifacts) ? artifacts.filter((path): path is string => typeof path === "string") : [],
    todos: Array.isArray(todos) ? todos.filter(isTodoItem).map(({ content, status }) => ({ content, status })) : [],
  };
}

/** Streamed replies the completed state does not hold yet, as messages (tool calls dropped: no result follows). */
function partialReplies(partial: Partial, saved: readonly WireMessage[]): AiWireMessage[] {
  const savedIds = new Set(saved.map((message) => message.id));
  const replies: AiWireMessage[] = [];
  for (const [id, { content, reasoning }] of partial) {
    if (savedIds.has(id) || (content.length === 0 && reasoning.length === 0)) continue;
    replies.push({ type: "ai", id, content, ...(reasoning ? { reasoning } : {}) });
  }
  return replies;
}

/**
 * Runs the lead agent on the thread with the request's new message. The thread's messages live in the
 * checkpointer: the user's message is saved as the run starts, each step as it completes, and what was streamed
 * before a Stop when the run is cancelled. Errors and stop marks are kept as notes beside the messages.
 */
export async function executeRun(
  deps: RunDependencies,
  request: RunRequest,
  emit: Emit,
  signal: AbortSignal,
): Promise<void> {
  const { threads, target } = deps;
  const threadId = request.thread_id;
  emit({ event: "metadata", data: { run_id: request.run_id, thread_id: threadId } });

  // A provider or a tool may echo the key it was sent: error text never carries a stored key.
  const secrets = [
    ...(deps.secrets ?? []),
    target?.apiKey,
    deps.webTools?.search.apiKey,
    deps.webTools?.fetch.apiKey,
  ].filter((secret): secret is string => typeof secret === "string" && secret !== "");
  const redact = secretRedactor(secrets);
  const checkpointer = redactingErrors(deps.checkpointer, redact);
  const finish = (status: RunEndStatus, error?: RunError): void => {
    if (error) emit({ event: "error", data: error });
    emit({ event: "end", data: { status } });
  };

  const { thread } = deps;
  const resume = deps.start?.resume === true;
  const text = request.input.messages.map((message) => contentText(message.content)).join("\n");
  if (!thread) return finish("error", { error: "bad_request", message: `There is no thread with id ${threadId}.` });
  if (thread.read_only) return finish("error", { error: "bad_request", message: READ_ONLY_THREAD });
  // Defence in depth (the plan already refuses): a resumption never goes on from a step that came in an imported
  // thread, whose pending tool calls another model made.
  if (resume && (await importedStep(deps.checkpointer, threadId, deps.start?.checkpoint))) {
    return finish("error", { error: "bad_request", message: IMPORTED_STEP });
  }
  if (!resume && text.trim().length === 0) {
    return finish("error", { error: "bad_request", message: "The message is empty." });
  }

  const startId = deps.start?.checkpoint;
  const stored = await threads.entries(threadId);
  const saved = await checkpointMessages(checkpointer, threadId, startId);
  // A thread from before checkpoints brings its stored messages into its first checkpoint.
  const seed = saved === undefined ? stored.flatMap((entry) => (entry.kind === "message" ? [entry.message] : [])) : [];
  const history = saved ?? seed;
  const userMessages: HumanWireMessage[] = resume
    ? []
    : request.input.messages.map((message, index) => ({
        type: "human",
        id: (index === 0 && deps.userMessageId) || newId(),
        content: message.content,
        ...(message.files && message.files.length > 0 && { files: message.files }),
      }));
  const input = [...seed, ...userMessages].map(fromWireMessage);
  const isFirstExchange = !resume && !history.some((message) => message.type === "human");
  const provisionalTitle = isFirstExchange ? fallbackTitle(text) : undefined;
  // A new message is activity: the thread moves up the list as the run starts, not only when it ends.
  // The run's checkpoints will be the thread's newest: the thread shows the latest again (a branch the user moved to
  // is where this run starts).
  await threads.update(threadId, {
    status: "busy",
    head: undefined,
    updated_at: Date.now(),
    ...(provisionalTitle !== undefined && { title: provisionalTitle }),
  });
  deps.onThreadChanged?.(threadId);

  const config = { configurable: { thread_id: threadId } };
  // Starting from a given checkpoint forks there: LangGraph writes the run's checkpoints as its children.
  const startConfig = { configurable: { thread_id: threadId, ...(startId && { checkpoint_id: startId }) } };
  const options = resolveRunOptions(target, request.context?.mode);
  const activation = (await deps.activateSkill?.(text)) ?? { kind: "none" as const };
  // The titles the title middleware chose after the first exchange; the last is applied once the run has saved.
  const titles: string[] = [];
  const { sandbox } = deps;
  const webTools =
    deps.webTools &&
    createWebTools(deps.webTools, {
      proxyUrl: deps.proxyUrl,
      ...(deps.proxyToken && { proxyToken: deps.proxyToken }),
    });
  const outbound = outboundTargets([...(webTools ?? []), ...(deps.mcp?.tools ?? [])]);
  // A WebContainer's shell reaches the network (node, npm): its commands wait too. The bash call opens the thread's
  // sandbox anyway; asking which kind it is first costs nothing more.
  const approval = deps.approve?.(
    sandbox ? withNetworkedShell(outbound, async () => (await sandbox(threadId)).kind === "webcontainer") : outbound,
  );
  const agent = createLeadAgent({
    // Without a configured endpoint the agent never calls its model; it is built only to save the user's message.
    model: target
      ? await deps.createModel(target, {
          model: options.model,
          ...(options.reasoningEffort && { reasoningEffort: options.reasoningEffort }),
        })
      : await createOpenAiModel({ name: "", baseUrl: "http://unset.invalid", apiKey: "", model: "unset", models: [] }),
    checkpointer,
    planMode: options.planMode,
    ...(webTools && { webTools }),
    ...(deps.foreign && { foreign: deps.foreign }),
    ...(approval && { approval }),
    ...(options.subagents && deps.subagents && { subagents: deps.subagents }),
    vision: options.vision,
    ...(deps.memory && { memory: deps.memory }),
    ...(deps.skills && { skills: deps.skills }),
    ...(deps.mcp && { mcp: deps.mcp }),
    ...(activation.kind === "activate" && { skillActivation: activation.text }),
    // A skill that lists its tools (`allowed-tools`) gets only those for the message that activates it.
    ...(activation.kind === "activate" &&
      activation.skill.allowedTools && { allowTools: activation.skill.allowedTools }),
    // A model that cannot call tools (its provider's model list, or Settings) is sent none: it would refuse them.
    ...(!options.tools && { allowTools: [] }),
    ...(target?.modelTitles && { onTitle: (title: string) => titles.push(title) }),
    ...(deps.retry && { retry: deps.retry }),
    secrets,
    ...(deps.summarization !== undefined && { summarization: deps.summarization }),
    ...(sandbox && { sandbox: () => sandbox(threadId) }),
  });

  const notes: HistoryNote[] = [];
  const noteError = async (error: RunError): Promise<void> => {
    const count = (await checkpointMessages(checkpointer, threadId))?.length ?? 0;
    notes.push({ kind: "run-error", id: newId(), error, at: Date.now(), after: count });
  };

  const partial: Partial = new Map();
  let produced: WireMessage[] = [];
  let finalMessages: BaseMessage[] | undefined;
  let status: RunEndStatus = "success";
  let runError: RunError | undefined;
  try {
    if (!target) {
      if (!resume) await agent.updateState(startConfig, { messages: input }, "model_request");
      status = "error";
      runError = {
        error: "not_configured",
        message: "No model is set up yet. Open Settings → Models and enter a Base URL and a Model.",
      };
    } else if (activation.kind === "disabled") {
      await agent.updateState(startConfig, { messages: input }, "model_request");
      status = "error";
      runError = {
        error: "bad_request",
        message:
          `The skill '${activation.skill.name}' is turned off. Turn it on in Settings → Skills, ` +
          `or send the message without /${activation.skill.name}.`,
      };
    } else {
      const stream = await agent.stream(
        // Resuming gives no input: the graph goes on with the nodes its last saved step left to run.
        resume ? null : { messages: input },
        {
          ...startConfig,
          streamMode: ["values", "messages", "updates", "custom"],
          signal,
          recursionLimit: 100,
          // Each step is saved before the next starts: a page closed mid-run loses at most the step in flight.
          durability: "sync",
        },
      );
      for await (const [mode, payload] of stream as AsyncIterable<[string, unknown]>) {
        if (mode === "messages") {
          const [chunk, metadata] = payload as [BaseMessage, Record<string, unknown>];
          const meta = toWireValue(metadata) as Record<string, unknown>;
          // A tool's result comes through whole as soon as its call ends, before the other calls of its step: sent
          // as what it is (as LangGraph's messages-tuple does), so its step shows done while the others still run.
          if (ToolMessage.isInstance(chunk)) {
            const result = toWireMessage(chunk);
            if (result.type === "tool") emit({ event: "messages", data: [result, meta] });
            continue;
          }
          if (!AIMessageChunk.isInstance(chunk) && !AIMessage.isInstance(chunk)) continue;
          const wire = toWireChunk(chunk, `run-${request.run_id}`);
          const sofar = partial.get(wire.id) ?? { content: "", reasoning: "" };
          partial.set(wire.id, {
            content: sofar.content + wire.content,
            reasoning: sofar.reasoning + (wire.reasoning ?? ""),
          });
          emit({ event: "messages", data: [wire, meta] });
        } else if (mode === "values") {
          finalMessages = (payload as { messages: BaseMessage[] }).messages;
          const values = toWireValue(payload) as { messages: WireMessage[] };
          produced = values.messages.slice(history.length + userMessages.length);
          emit({ event: "values", data: values });
        } else if (mode === "updates") {
          emit({ event: "updates", data: toWireValue(payload) as Record<string, unknown> });
        } else if (mode === "custom") {
          emit({ event: "custom", data: toWireValue(payload) });
        }
      }
    }
  } catch (error) {
    if (signal.aborted) status = "interrupted";
    else {
      status = "error";
      runError = isQuotaError(error)
        ? { error: "storage_full", message: STORAGE_FULL_MESSAGE }
        : describeModelError(error, target?.baseUrl ?? "", {
            proxied: target?.useProxy === true,
            ...(target?.name && { endpoint: target.name }),
          });
    }
  }
  // Before the note is stored and the event emitted (the gateway records the run's error from that event).
  if (runError) runError = { ...runError, message: redact(runError.message) };

  if (status === "interrupted") {
    const replies = partialReplies(partial, produced);
    // A tool call the Stop left without a result is answered by the dangling-tool-call middleware next time.
    if (replies.length > 0) {
      await agent.updateState(config, { messages: replies.map(fromWireMessage) }, "model_request");
      for (const reply of replies) notes.push({ kind: "stopped", id: newId(), message_id: reply.id });
    }
  }
  if (runError) await noteError(runError);
  // Without a title model the first message already names the thread.
  const title = provisionalTitle !== undefined ? titles.at(-1) : undefined;
  await threads.append(threadId, notes, (thread) => ({
    status: status === "error" ? "error" : "idle",
    // The user may have renamed the thread while it ran: their name wins.
    ...(title && thread.title === provisionalTitle ? { title } : {}),
  }));
  deps.onThreadChanged?.(threadId);
  // The last `values` is the saved state (durability "sync"): memory learns from it without reading it back.
  if (status === "success" && finalMessages) deps.onRunSaved?.(threadId, finalMessages.filter(isMessage));
  finish(status, runError);
}
