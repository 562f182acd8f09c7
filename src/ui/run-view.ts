// Folds a run's stream events into what the conversation shows while the run is live.
import {
  isTaskEvent,
  isTodoItem,
  type AiWireMessage,
  type RunError,
  type RunEvent,
  type TodoItem,
  type UploadedFileRef,
  type WireMessage,
} from "../protocol/index.ts";
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
  /** Messages the agent completed in this run, from the latest `values`. */
  produced: WireMessage[];
  /** Messages still streaming, by id, in arrival order. */
  drafts: AiWireMessage[];
  error?: RunError;
  ended: boolean;
  /** The thread's presented files as of the latest `values`, when they carry any. */
  artifacts?: string[];
  /** The agent's plan as of the latest `values`, when the run keeps one (plan mode). */
  todos?: TodoItem[];
  /** What the `task` events said of each subtask so far, by `task` call id (saved results win over it). */
  subtasks: Subtasks;
}

export function startRunView(runId: string, threadId: string, userText: string, historyLength: number): RunView {
  return { runId, threadId, userText, historyLength, produced: [], drafts: [], ended: false, subtasks: new Map() };
}

/** The next view after `event`; pure, so it is easy to test and cheap to diff. */
export function applyRunEvent(view: RunView, event: RunEvent): RunView {
  switch (event.event) {
    case "values": {
      // +1: the user's own message, which the values include.
      const produced = event.data.messages.slice(view.historyLength + 1);
      const done = new Set(produced.map((message) => message.id));
      const { artifacts, todos } = event.data;
      return {
        ...view,
        produced,
        drafts: view.drafts.filter((draft) => !done.has(draft.id)),
        ...(Array.isArray(artifacts) && { artifacts: artifacts.filter((path) => typeof path === "string") }),
        ...(Array.isArray(todos) && { todos: todos.filter(isTodoItem) }),
      };
    }
    case "messages": {
      const [chunk] = event.data;
      if (view.produced.some((message) => message.id === chunk.id)) return view;
      const index = view.drafts.findIndex((draft) => draft.id === chunk.id);
      const previous: AiWireMessage = index >= 0 ? view.drafts[index]! : { type: "ai", id: chunk.id, content: "" };
      const next: AiWireMessage = {
        ...previous,
        content: `${typeof previous.content === "string" ? previous.content : ""}${chunk.content}`,
      };
      const reasoning = (previous.reasoning ?? "") + (chunk.reasoning ?? "");
      if (reasoning) next.reasoning = reasoning;
      const drafts = index >= 0 ? view.drafts.with(index, next) : [...view.drafts, next];
      return { ...view, drafts };
    }
    case "error":
      return { ...view, error: event.data };
    case "end":
      return { ...view, ended: true };
    case "custom": {
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
  return [...view.produced, ...view.drafts];
}
