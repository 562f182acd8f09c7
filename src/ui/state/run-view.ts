// Folds a run's stream events into what the conversation shows while the run is live.
import {
  isApprovalRequestedEvent,
  isApprovalResolvedEvent,
  type ApprovalRequestedEvent,
  isModelProgressEvent,
  isModelRetryEvent,
  isToolProgressEvent,
  type ToolProgressEvent,
  isTaskEvent,
  isTodoItem,
  type AiWireMessage,
  type ModelProgressEvent,
  type ModelRetryEvent,
  type RunError,
  type RunEvent,
  type TodoItem,
  type ToolWireMessage,
  type UploadedFileRef,
  type WireMessage,
  type WireToolCall,
  type WireToolCallChunk,
} from "../../protocol/index.ts";
import { readPartialObject } from "./partial-json.ts";
import { applyTaskEvent, type Subtasks } from "./subtasks.ts";

export interface RunView {
  runId: string;
  threadId: string;
  /** The text the user sent, shown at once. */
  userText: string;
  /** The files sent with it. */
  files?: UploadedFileRef[];
  /** How many messages the thread had before this run (values carry the whole history). */
  historyLength: number;
  /** A resumption ("Continue"): it adds no user message, and none shows. */
  resumed?: boolean;
  /** Messages the agent completed in this run, from the latest `values`. */
  produced: WireMessage[];
  /** Messages still streaming, by id, in arrival order. */
  drafts: AiWireMessage[];
  /** Tool results that came as their calls ended, before the step's `values` (which then carry them). */
  results?: ToolWireMessage[];
  error?: RunError;
  ended: boolean;
  /** The thread's presented files as of the latest `values`, when they carry any. */
  artifacts?: string[];
  /** The agent's plan as of the latest `values`, when the run keeps one (plan mode). */
  todos?: TodoItem[];
  /** What the `task` events said of each subtask so far, by `task` call id (saved results win over it). */
  subtasks: Subtasks;
  /** The tool calls of the messages still streaming, as their pieces came, by message id. */
  callDrafts?: Record<string, CallDraft[]>;
  /** The latest progress of each running MCP tool call, by its call id. */
  toolProgress?: Readonly<Record<string, ToolProgressEvent>>;
  /** A model call failed and is about to be tried again; gone once the model answers or the run ends. */
  retry?: ModelRetryEvent;
  /** A model on this device waits, loads or reads the prompt; gone once the model answers or the run ends. */
  modelProgress?: ModelProgressEvent;
  /** Tool calls that send data out, waiting for the user's answer (group "Approval"), in the order they asked. */
  approvals?: readonly ApprovalRequestedEvent[];
}

/** A tool call while the model streams it: its arguments' JSON text so far. */
export interface CallDraft {
  index: number;
  id?: string;
  name?: string;
  args: string;
}

/** The drafts after `chunks`: a piece with a new index starts a call, the others add to theirs. */
function addCallChunks(drafts: readonly CallDraft[], chunks: readonly WireToolCallChunk[]): CallDraft[] {
  const next = [...drafts];
  for (const chunk of chunks) {
    const index = chunk.index ?? Math.max(0, next.length - 1);
    const at = next.findIndex((draft) => draft.index === index);
    const previous = at >= 0 ? next[at]! : { index, args: "" };
    const updated: CallDraft = {
      ...previous,
      ...(chunk.id && { id: chunk.id }),
      ...(chunk.name && { name: chunk.name }),
      args: previous.args + (chunk.args ?? ""),
    };
    if (at >= 0) next[at] = updated;
    else next.push(updated);
  }
  return next;
}

/** The calls so far, their arguments read as far as they have come. */
function draftCalls(messageId: string, drafts: readonly CallDraft[]): WireToolCall[] {
  return drafts.map((draft) => ({
    id: draft.id ?? `${messageId}-call-${draft.index}`,
    name: draft.name ?? "",
    args: readPartialObject(draft.args),
  }));
}

export function startRunView(runId: string, threadId: string, userText: string, historyLength: number): RunView {
  return { runId, threadId, userText, historyLength, produced: [], drafts: [], ended: false, subtasks: new Map() };
}

/** The ids of the tool calls that have their result among `messages`. */
function answeredCalls(messages: readonly WireMessage[]): Set<string> {
  return new Set(messages.flatMap((message) => (message.type === "tool" ? [message.tool_call_id] : [])));
}

/** The view without what it said of a model call still to answer (a retry coming, a model reading the prompt). */
function withoutRetry(view: RunView): RunView {
  if (!view.retry && !view.modelProgress) return view;
  const { retry: _retry, modelProgress: _progress, ...rest } = view;
  return rest;
}

function withoutApprovals(view: RunView): RunView {
  if (!view.approvals) return view;
  const { approvals: _approvals, ...rest } = view;
  return rest;
}

/** The next view after `event`; pure, so it is easy to test and cheap to diff. */
export function applyRunEvent(view: RunView, event: RunEvent): RunView {
  switch (event.event) {
    case "values": {
      // +1: the user's own message, which the values include (a resumption sends none).
      const produced = event.data.messages.slice(view.historyLength + (view.resumed ? 0 : 1));
      const done = new Set(produced.map((message) => message.id));
      const { artifacts, todos } = event.data;
      const callDrafts =
        view.callDrafts &&
        Object.fromEntries(Object.entries(view.callDrafts).filter(([messageId]) => !done.has(messageId)));
      const answered = answeredCalls(produced);
      const results = view.results?.filter((result) => !answered.has(result.tool_call_id));
      const { results: _results, ...rest } = withoutRetry(view);
      return {
        ...rest,
        produced,
        drafts: view.drafts.filter((draft) => !done.has(draft.id)),
        ...(results?.length && { results }),
        ...(callDrafts && { callDrafts }),
        ...(Array.isArray(artifacts) && { artifacts: artifacts.filter((path) => typeof path === "string") }),
        ...(Array.isArray(todos) && { todos: todos.filter(isTodoItem) }),
      };
    }
    case "messages": {
      const [chunk] = event.data;
      if (chunk.type === "tool") {
        const known = (message: WireMessage) => message.type === "tool" && message.tool_call_id === chunk.tool_call_id;
        if (view.produced.some(known) || view.results?.some(known)) return view;
        return { ...view, results: [...(view.results ?? []), chunk] };
      }
      if (view.produced.some((message) => message.id === chunk.id)) return view;
      const index = view.drafts.findIndex((draft) => draft.id === chunk.id);
      const previous: AiWireMessage = index >= 0 ? view.drafts[index]! : { type: "ai", id: chunk.id, content: "" };
      const next: AiWireMessage = {
        ...previous,
        content: `${typeof previous.content === "string" ? previous.content : ""}${chunk.content}`,
      };
      const reasoning = (previous.reasoning ?? "") + (chunk.reasoning ?? "");
      if (reasoning) next.reasoning = reasoning;
      let callDrafts = view.callDrafts;
      if (chunk.tool_call_chunks?.length) {
        const calls = addCallChunks(callDrafts?.[chunk.id] ?? [], chunk.tool_call_chunks);
        callDrafts = { ...callDrafts, [chunk.id]: calls };
        next.tool_calls = draftCalls(chunk.id, calls);
      }
      const drafts = index >= 0 ? view.drafts.with(index, next) : [...view.drafts, next];
      return { ...withoutRetry(view), drafts, ...(callDrafts && { callDrafts }) };
    }
    case "error": {
      // The reply being written when the run failed was not saved: it goes with the run, not shown as if whole.
      const { callDrafts: _callDrafts, ...rest } = withoutRetry(view);
      return { ...rest, drafts: [], error: event.data };
    }
    case "end": {
      // A run that ended answers nothing more: its waits were cancelled with it.
      const { approvals: _approvals, ...rest } = withoutRetry(view);
      return { ...rest, ended: true };
    }
    case "custom": {
      if (isModelRetryEvent(event.data)) {
        // The failed call's half reply goes: the retry streams the reply anew, under another message id.
        const { callDrafts: _callDrafts, modelProgress: _progress, ...rest } = view;
        return { ...rest, drafts: [], retry: event.data };
      }
      if (isModelProgressEvent(event.data)) {
        return { ...view, modelProgress: event.data };
      }
      if (isApprovalRequestedEvent(event.data)) {
        return { ...view, approvals: [...(view.approvals ?? []), event.data] };
      }
      if (isApprovalResolvedEvent(event.data)) {
        const id = event.data.approval_id;
        const approvals = view.approvals?.filter((approval) => approval.approval_id !== id);
        return approvals?.length ? { ...view, approvals } : withoutApprovals(view);
      }
      if (isToolProgressEvent(event.data)) {
        return { ...view, toolProgress: { ...view.toolProgress, [event.data.tool_call_id]: event.data } };
      }
      if (!isTaskEvent(event.data)) return view;
      const subtasks = applyTaskEvent(view.subtasks, event.data);
      return subtasks === view.subtasks ? view : { ...view, subtasks };
    }
    case "metadata":
    case "updates":
      return view;
  }
}

/** The view after `events`, in order: a batch of events costs the UI one update instead of one per event. */
export function applyRunEvents(view: RunView, events: readonly RunEvent[]): RunView {
  return events.reduce(applyRunEvent, view);
}

/** Everything the agent has said so far in this run, completed messages first. */
export function liveMessages(view: RunView): WireMessage[] {
  return [...view.produced, ...(view.results ?? []), ...view.drafts];
}

/** A file the agent is writing (`write_file` called, no result yet), with its content as far as it has come. */
export interface FileBeingWritten {
  path: string;
  content: string;
  append: boolean;
}

/** The files this run is writing right now, by path (the latest call for a path wins). */
export function filesBeingWritten(view: RunView | undefined): FileBeingWritten[] {
  if (!view || view.ended) return [];
  const messages = liveMessages(view);
  const answered = answeredCalls(messages);
  const writing = new Map<string, FileBeingWritten>();
  for (const message of messages) {
    if (message.type !== "ai") continue;
    for (const call of message.tool_calls ?? []) {
      const { path, content, append } = call.args;
      // Once `content` has begun, the path before it is whole (models send the arguments in the schema's order).
      if (
        call.name !== "write_file" ||
        answered.has(call.id) ||
        typeof path !== "string" ||
        !("content" in call.args)
      ) {
        continue;
      }
      if (!path.startsWith("/mnt/user-data/")) continue;
      writing.set(path, { path, content: typeof content === "string" ? content : "", append: append === true });
    }
  }
  return [...writing.values()];
}
