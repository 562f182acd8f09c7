// A run's context: everything a run reads before it starts, read once (the thread and where on it the run starts, the
// settings with the model, web tools and keys, memory, skills, subagent limits, the MCP servers' tools), and the lead
// agent's options built from it. The executor, the agent and the recorder take what they need from here.
import type { BaseMessage } from "@langchain/core/messages";
import type { BaseCheckpointSaver } from "@langchain/langgraph-checkpoint";
import {
  createWebTools,
  outboundTargets,
  resolveRunOptions,
  summarizationOptionsFor,
  withNetworkedShell,
  type LeadAgentOptions,
  type McpRunTools,
  type ModelErrorOptions,
  type RunOptions,
} from "../../agent/index.ts";
import type { McpProgress } from "../../mcp/index.ts";
import type { ChatModelFactory } from "../../models/index.ts";
import type { ChangeNotice, ModelTarget, RunRequest, ThreadSummary } from "../../protocol/index.ts";
import { contentText } from "../../protocol/index.ts";
import { secretRedactor } from "../../shared/redact.ts";
import { isUserFacing } from "../../shared/user-error.ts";
import type { Sandbox } from "../../sandbox/sandbox.ts";
import type { CheckpointStorage, ThreadStorage, RunRecordStorage } from "../../storage/index.ts";
import type { ApprovalService } from "../approval-service.ts";
import { contextWindowOf } from "../context-service.ts";
import type { BranchRecord, BranchService, RunPlan } from "../branch-service.ts";
import { redactingErrors } from "../error-redaction.ts";
import type { MemoryService } from "../memory-service.ts";
import type { SettingsService } from "../settings-service.ts";
import type { SkillActivation, SkillsService } from "../skills-service.ts";
import {
  agentChangeApproval,
  agentRunOptions,
  readRunAgent,
  runAgentSkills,
  withAgentModelSettings,
  type RunAgentSource,
} from "../agents-run.ts";
import type { CheckpointReads } from "../checkpoint-view-cache.ts";
import type { RunRecorder } from "./run-recorder.ts";

/** What a run's context is read from: the Gateway's services and storage, as RunService holds them. */
export interface RunContextSources {
  threads: ThreadStorage & RunRecordStorage;
  checkpointer: CheckpointStorage;
  /** The thread's decoded checkpoints, shared with the conversation's read (absent: the run decodes its own). */
  views?: CheckpointReads;
  settings: Pick<SettingsService, "forRun" | "getSubagents" | "getSummariesAndTitles">;
  memory: Pick<MemoryService, "promptSection" | "learnFrom">;
  /** Where tool calls that send data out wait for the user (threads with another person's content, or all). */
  approvals: Pick<ApprovalService, "forRun">;
  skills: Pick<SkillsService, "list" | "activation">;
  branches: Pick<BranchService, "plan">;
  createModel: ChatModelFactory;
  /** Retry policy for model errors; tests shorten the waits. */
  retry?: ModelErrorOptions;
  /** The fetch the web tools send with (the server's guarded one); default the global fetch. */
  fetch?: typeof fetch;
  sandbox: (threadId: string) => Promise<Sandbox>;
  /** The enabled MCP servers' tools for a run (undefined: none); a call's progress goes to `onProgress`. */
  mcpTools?: (onProgress: (toolCallId: string, progress: McpProgress) => void) => Promise<McpRunTools | undefined>;
  notify: (notice: ChangeNotice) => void;
  /** The custom agents (a thread's agent, setup_agent); without it every run is the lead agent's. */
  agents?: RunAgentSource;
}

/** The lead agent's options as a run's context has them: all but the model and where its titles go. */
export type RunAgentOptions = Omit<LeadAgentOptions, "model" | "onTitle">;

export interface RunContext {
  /** The request as planned: a regeneration sends its message again, a resumption has no input. */
  request: RunRequest;
  threadId: string;
  /** The thread as read before the run (undefined: there is no such thread). */
  thread: ThreadSummary | undefined;
  /**
   * Where the run starts (absent: the thread's latest checkpoint): `checkpoint` is the one to go on from (a version
   * shown, or the fork point of an edit or regeneration); `resume` goes on from it without a new message.
   */
  start?: RunPlan["start"];
  /** The id of the user message the run adds (default: a new one). */
  userMessageId?: string;
  /** The branch fields of the run's record. */
  branch: BranchRecord;
  /** The endpoint and model the run talks to; undefined until a default model is set (the message is only saved). */
  target: ModelTarget | undefined;
  /** What the chosen mode does with that model. */
  mode: RunOptions;
  /** `/skill-name` at the start of the user's message, resolved. */
  activation: SkillActivation;
  /**
   * Every stored secret and the run's own keys: replaced by `[redacted key]` in error text before it is stored or
   * emitted.
   */
  secrets: readonly string[];
  redact: (text: string) => string;
  threads: ThreadStorage & RunRecordStorage;
  /** The checkpointer as the run uses it: a failed step's error is stored without a key. */
  checkpointer: BaseCheckpointSaver;
  /** The thread's decoded checkpoints (RunContextSources.views). */
  views?: CheckpointReads;
  /** The lead agent's options, read and built once. */
  agent: RunAgentOptions;
  /** A resumption from a step that came in an imported thread (its pending tool calls another model made). */
  importedStart: boolean;
  createModel: ChatModelFactory;
  /** Tells every tab that the thread changed. */
  threadChanged(): void;
  /** Told the thread's messages after a run that completed: memory learns from them where it may. */
  saved(messages: BaseMessage[]): void;
  /** What the thread keeps as its custom agent once the run starts: a name, null to forget it; absent: unchanged. */
  threadAgent?: string | null;
}

/** Whether the checkpoint a resumption starts from (default: the latest) came in an imported thread. */
async function importedStep(
  checkpointer: Pick<CheckpointStorage, "latestCheckpointId" | "isImported">,
  threadId: string,
  start: NonNullable<RunPlan["start"]>,
): Promise<boolean> {
  const id = start.checkpoint ?? (await checkpointer.latestCheckpointId(threadId));
  return id !== undefined && (await checkpointer.isImported(threadId, id));
}

/** A run's context, or the sentence its plan was refused with (the message is not the thread's, nothing to continue). */
export type RunStart = { context: RunContext } | { refused: string };

/**
 * Reads what run `request` needs, once, and builds the agent's options from it. Events the context's parts send
 * before or during the run (an MCP call's progress, an approval asked for) go to `recorder`, which also learns the
 * stored keys as soon as they are read.
 */
export async function readRunContext(
  sources: RunContextSources,
  request: RunRequest,
  recorder: Pick<RunRecorder, "event" | "redacting">,
): Promise<RunStart> {
  const threadId = request.thread_id;
  // The custom agent it talks to, first: its model is what settings resolve, its memory what the prompt carries.
  const runAgent = await readRunAgent(sources.agents, request, await sources.threads.get(threadId));
  if ("refused" in runAgent) return { refused: runAgent.refused };
  const ownMemory = runAgent.record?.memory === "own" ? runAgent.record.name : undefined;
  // A running MCP call's progress shows on its step in the conversation.
  const onProgress = (toolCallId: string, progress: McpProgress) =>
    recorder.event({ event: "custom", data: { type: "tool_progress", tool_call_id: toolCallId, ...progress } });
  const [settings, thread, memory, skills, subagents, mcp, summariesAndTitles] = await Promise.all([
    sources.settings.forRun(runAgent.context),
    sources.threads.get(threadId),
    ownMemory ? sources.agents!.memoryPromptSection(ownMemory) : sources.memory.promptSection(),
    sources.skills.list(),
    sources.settings.getSubagents(),
    sources.mcpTools?.(onProgress),
    sources.settings.getSummariesAndTitles(),
  ]);
  recorder.redacting(settings.secrets);
  let plan: RunPlan = { request, record: {} };
  if (thread && !thread.read_only) {
    try {
      plan = await sources.branches.plan(request, thread);
    } catch (error) {
      if (isUserFacing(error)) return { refused: error.message };
      throw error;
    }
  }
  const { webTools: webSettings } = settings;
  const target = withAgentModelSettings(settings.target, runAgent.record);
  const mode = resolveRunOptions(target, plan.request.context?.mode);
  const text = plan.request.input.messages.map((message) => contentText(message.content)).join("\n");
  const activation = await sources.skills.activation(text);

  // A provider or a tool may echo the key it was sent: error text never carries a stored key.
  const secrets = [...settings.secrets, target?.apiKey, webSettings.search.apiKey, webSettings.fetch.apiKey].filter(
    (secret): secret is string => typeof secret === "string" && secret !== "",
  );
  const redact = secretRedactor(secrets);
  const checkpointer = redactingErrors(sources.checkpointer, redact);

  // Another person's messages: memory stays out of the thread (and learns nothing) unless the user turned it on
  // there, and tools that send data out ask first, as they do everywhere when Settings → Web says so.
  const foreign = thread?.foreign ? new Set(thread.foreign.message_ids) : undefined;
  const memoryHere = !thread?.foreign || thread.foreign.memory === true;
  const ask = thread?.foreign !== undefined || webSettings.askBeforeSending === true;
  const webTools = createWebTools(webSettings, {
    proxyUrl: settings.proxyUrl || undefined,
    ...(settings.proxyToken && { proxyToken: settings.proxyToken }),
    ...(sources.fetch && { fetchImpl: sources.fetch }),
  });
  const outbound = outboundTargets([...webTools, ...(mcp?.tools ?? [])]);
  const sandbox = () => sources.sandbox(threadId);
  // A WebContainer's shell reaches the network (node, npm): its commands wait too. The bash call opens the thread's
  // sandbox anyway; asking which kind it is first costs nothing more.
  const approval = ask
    ? sources.approvals.forRun(
        threadId,
        withNetworkedShell(outbound, async () => (await sandbox()).kind === "webcontainer"),
        recorder.event,
        thread?.foreign !== undefined ? "foreign" : "settings",
      )
    : undefined;
  const agent: RunAgentOptions = {
    checkpointer,
    planMode: mode.planMode,
    webTools,
    ...(foreign && { foreign }),
    ...(approval && { approval }),
    ...(mode.subagents && { subagents }),
    vision: mode.vision,
    ...(memoryHere && memory && { memory }),
    skills: runAgentSkills(runAgent.record, skills),
    ...agentRunOptions(
      sources.agents,
      runAgent.record,
      agentChangeApproval(sources.approvals, threadId, recorder.event),
    ),
    ...(mcp && { mcp }),
    ...(activation.kind === "activate" && { skillActivation: activation.text }),
    // A skill that lists its tools (`allowed-tools`) gets only those for the message that activates it.
    ...(activation.kind === "activate" &&
      activation.skill.allowedTools && { allowTools: activation.skill.allowedTools }),
    // A model that cannot call tools (its provider's model list, or Settings) is sent none: it would refuse them.
    ...(!mode.tools && { allowTools: [] }),
    ...(sources.retry && { retry: sources.retry }),
    secrets,
    sandbox,
    // Settings → Models → "Summaries and titles", as they are when the run starts.
    summarization: summarizationOptionsFor(summariesAndTitles.summarization, contextWindowOf(target)),
    titles: summariesAndTitles.titles,
  };
  return {
    context: {
      request: plan.request,
      threadId,
      thread,
      ...(plan.start && { start: plan.start }),
      ...(plan.record.user_message_id && { userMessageId: plan.record.user_message_id }),
      branch: plan.record,
      target,
      mode,
      activation,
      secrets,
      redact,
      threads: sources.threads,
      checkpointer,
      ...(sources.views && { views: sources.views }),
      agent,
      importedStart: plan.start?.resume === true && (await importedStep(sources.checkpointer, threadId, plan.start)),
      createModel: sources.createModel,
      ...(runAgent.threadAgent !== undefined && { threadAgent: runAgent.threadAgent }),
      threadChanged: () => sources.notify({ type: "thread-changed", thread_id: threadId }),
      saved: (messages) => {
        if (!memoryHere) return;
        if (ownMemory) sources.agents?.learnFrom(ownMemory, threadId, messages, foreign);
        else sources.memory.learnFrom(threadId, messages, foreign);
      },
    },
  };
}
