// One agent run, from its context: checks the request, saves the user's message, builds the lead agent, streams it
// (run-stream.ts), keeps what a Stop cut off and the run's errors beside the messages, and always ends with `end`.
import { createLeadAgent, fallbackTitle, fromWireMessage } from "../../agent/index.ts";
import { createOpenAiModel, describeModelError } from "../../models/index.ts";
import type { BaseMessage } from "@langchain/core/messages";
import type {
  HumanWireMessage,
  RunEndStatus,
  RunError,
  RunInputMessage,
  UploadedFileRef,
} from "../../protocol/index.ts";
import { contentText, READ_ONLY_THREAD } from "../../protocol/index.ts";
import { newId } from "../../shared/ids.ts";
import type { HistoryNote } from "../../storage/index.ts";
import { checkpointMessages, isMessage } from "../checkpoint-views.ts";
import type { RunContext } from "./run-context.ts";
import { RunStream, type Emit } from "./run-stream.ts";
import { storageRunError } from "./storage-run-error.ts";

/**
 * The abort reason of a run its server replica lost (its lease expired: another replica ended it). It ends as a
 * server error Continue can resume from, not as the user's Stop, and keeps no partial reply.
 */
export const RUN_LOST = "lost";
export const RUN_LOST_MESSAGE =
  "The server lost this run before it finished; Continue goes on from its last saved step.";

/** Why a resumption from an imported thread's step is refused. */
export const IMPORTED_STEP =
  "This step came with an imported thread: its tool calls were made elsewhere and are not run here. Send a message " +
  "to go on.";

/**
 * The user's message as it is stored: the client's marks (`hide_from_ui`, `human_input_response`) kept, and each
 * file's `path` beside Fawn's `virtual_path` (DeerFlow's clients read `path`).
 */
function withExtras(message: BaseMessage, sent: RunInputMessage | undefined): BaseMessage {
  const kwargs = message.additional_kwargs;
  const files = Array.isArray(kwargs.files)
    ? (kwargs.files as UploadedFileRef[]).map((file) => ({ ...file, path: file.virtual_path }))
    : undefined;
  const extras = sent?.additional_kwargs;
  message.additional_kwargs = {
    ...kwargs,
    ...(files && { files }),
    ...(extras?.hide_from_ui !== undefined && { hide_from_ui: extras.hide_from_ui }),
    ...(extras?.human_input_response !== undefined && { human_input_response: extras.human_input_response }),
  };
  return message;
}

/**
 * Runs the lead agent on the thread with the request's new message. The thread's messages live in the
 * checkpointer: the user's message is saved as the run starts, each step as it completes, and what was streamed
 * before a Stop when the run is cancelled. Errors and stop marks are kept as notes beside the messages.
 */
export async function executeRun(context: RunContext, emit: Emit, signal: AbortSignal): Promise<void> {
  const { request, threadId, thread, threads, target, checkpointer, views, redact } = context;
  /** The messages of the thread's checkpoint `id` (default: its latest), read once for every reader where shared. */
  const messagesAt = async (id?: string) =>
    views ? (await views.read(threadId, id))?.view.messages : checkpointMessages(checkpointer, threadId, id);
  emit({ event: "metadata", data: { run_id: request.run_id, thread_id: threadId } });
  const finish = (status: RunEndStatus, error?: RunError): void => {
    if (error) emit({ event: "error", data: error });
    emit({ event: "end", data: { status } });
  };

  const resume = context.start?.resume === true;
  const text = request.input.messages.map((message) => contentText(message.content)).join("\n");
  if (!thread) return finish("error", { error: "bad_request", message: `There is no thread with id ${threadId}.` });
  if (thread.read_only) return finish("error", { error: "bad_request", message: READ_ONLY_THREAD });
  // Defence in depth (the plan already refuses): a resumption never goes on from a step that came in an imported
  // thread, whose pending tool calls another model made.
  if (context.importedStart) {
    return finish("error", { error: "bad_request", message: IMPORTED_STEP });
  }
  if (!resume && text.trim().length === 0) {
    return finish("error", { error: "bad_request", message: "The message is empty." });
  }

  const startId = context.start?.checkpoint;
  const stored = await threads.entries(threadId);
  const saved = await messagesAt(startId);
  // A thread from before checkpoints brings its stored messages into its first checkpoint.
  const seed = saved === undefined ? stored.flatMap((entry) => (entry.kind === "message" ? [entry.message] : [])) : [];
  const history = saved ?? seed;
  const userMessages: HumanWireMessage[] = resume
    ? []
    : request.input.messages.map((message, index) => ({
        type: "human",
        id: (index === 0 && context.userMessageId) || message.id || newId(),
        content: message.content,
        ...(message.files && message.files.length > 0 && { files: message.files }),
      }));
  const input = [
    ...seed.map(fromWireMessage),
    ...userMessages.map((message, index) => withExtras(fromWireMessage(message), request.input.messages[index])),
  ];
  const isFirstExchange = !resume && !history.some((message) => message.type === "human");
  // Titles off (Settings → Models → "Summaries and titles"): the thread keeps the name it has.
  const titleSettings = context.agent.titles;
  const provisionalTitle =
    isFirstExchange && titleSettings?.enabled !== false ? fallbackTitle(text, titleSettings?.maxChars) : undefined;
  // A new message is activity: the thread moves up the list as the run starts, not only when it ends.
  // The run's checkpoints will be the thread's newest: the thread shows the latest again (a branch the user moved to
  // is where this run starts).
  await threads.update(threadId, {
    status: "busy",
    head: undefined,
    updated_at: Date.now(),
    ...(provisionalTitle !== undefined && { title: provisionalTitle }),
    // The thread remembers the agent it talks to (the composer shows it again when the thread is reopened).
    ...(context.threadAgent !== undefined && { agent: context.threadAgent ?? undefined }),
  });
  context.threadChanged();

  const config = { configurable: { thread_id: threadId } };
  // Starting from a given checkpoint forks there: LangGraph writes the run's checkpoints as its children.
  const startConfig = { configurable: { thread_id: threadId, ...(startId && { checkpoint_id: startId }) } };
  // The titles the title middleware chose after the first exchange; the last is applied once the run has saved.
  const titles: string[] = [];
  const agent = createLeadAgent({
    ...context.agent,
    // Without a configured endpoint the agent never calls its model; it is built only to save the user's message.
    model: target
      ? await context.createModel(target, {
          model: context.mode.model,
          ...(context.mode.reasoningEffort && { reasoningEffort: context.mode.reasoningEffort }),
          // A model on this device may take minutes before its first word: the run says what it is doing.
          onProgress: (progress) => emit({ event: "custom", data: { type: "model_progress", ...progress } }),
        })
      : await createOpenAiModel({ name: "", baseUrl: "http://unset.invalid", apiKey: "", model: "unset", models: [] }),
    ...(target?.modelTitles && { onTitle: (title: string) => titles.push(title) }),
  });

  const notes: HistoryNote[] = [];
  const noteError = async (error: RunError): Promise<void> => {
    const count = (await messagesAt())?.length ?? 0;
    notes.push({ kind: "run-error", id: newId(), error, at: Date.now(), after: count });
  };

  const stream = new RunStream(request.run_id, history.length + userMessages.length, emit);
  const { activation } = context;
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
      // Resuming gives no input: the graph goes on with the nodes its last saved step left to run.
      await stream.run(agent, resume ? null : { messages: input }, { ...startConfig, signal });
    }
  } catch (error) {
    if (signal.aborted && signal.reason === RUN_LOST) {
      status = "error";
      runError = { error: "server_error", message: RUN_LOST_MESSAGE };
    } else if (signal.aborted) status = "interrupted";
    else {
      status = "error";
      runError =
        storageRunError(error) ??
        describeModelError(error, target?.baseUrl ?? "", {
          proxied: target?.useProxy === true,
          ...(target?.name && { endpoint: target.name }),
        });
    }
  }
  // Before the note is stored and the event emitted (the recorder keeps the run's error from that event).
  if (runError) runError = { ...runError, message: redact(runError.message) };

  if (status === "interrupted") {
    const replies = stream.partialReplies();
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
  context.threadChanged();
  // The last `values` is the saved state (durability "sync"): memory learns from it without reading it back.
  if (status === "success" && stream.finalMessages) context.saved(stream.finalMessages.filter(isMessage));
  finish(status, runError);
}
