// The runs domain's contract (`gateway.runs`): a run asked for, its events streamed back, and its cancel.
import type { MessageContent, UploadedFileRef } from "./messages.ts";
import type { AgentMode } from "./model-endpoints.ts";
import type { RunEvent } from "./run-events.ts";

export interface RunRequest {
  /** Chosen by the caller so it can cancel before the first event arrives. */
  run_id: string;
  thread_id: string;
  input: { messages: RunInputMessage[] };
  /** How to run: the mode and the model (one of Settings → Models); defaults to Flash and the default model. */
  /** `endpoint`: the id of the endpoint `model` belongs to; without it, `model` is looked up as modelChoiceFor does. */
  /** `agent`: a custom agent's name (the thread remembers it); null: back to the lead agent; absent: the thread's. */
  context?: { mode?: AgentMode; model?: string; endpoint?: string; agent?: string | null };
  /**
   * What the run does to the history (absent: adds the message at the end). `edit`: the thread forks before the
   * user message `message_id` and runs `input` instead of it; `regenerate`: forks there and runs the same message
   * again (`input` is ignored); `resume`: continues a run that was cut off from its last saved step (no input).
   * With `checkpoint` instead of `message_id` (LangGraph's run `checkpoint`): `edit` forks at that checkpoint and
   * runs `input` from there (an edit of the user message that followed it when the thread shows one, else a send);
   * `regenerate` answers that checkpoint's last user message again (or resumes, when it is a cut-off run's end).
   */
  branch?:
    | { kind: "edit" | "regenerate"; message_id: string }
    | { kind: "edit" | "regenerate"; checkpoint: string }
    | { kind: "resume" };
}

/** A user message a run sends. */
export interface RunInputMessage {
  type: "human";
  content: MessageContent;
  files?: UploadedFileRef[];
  /** The client's id for the message (LangGraph keeps it): kept, unless the thread already has a message with it. */
  id?: string;
  /** Kept in the stored message's `additional_kwargs` for the clients that read them (DeerFlow). */
  additional_kwargs?: HumanMessageExtras;
}

/**
 * What a client may mark a user message with: `hide_from_ui` (DeerFlow hides the answer to a clarification it
 * sent on the user's behalf) and `human_input_response` (that answer, as JSON).
 */
export interface HumanMessageExtras {
  hide_from_ui?: boolean;
  human_input_response?: unknown;
}

export type RunEventListener = (event: RunEvent) => void;

/**
 * Receives a run's events a batch at a time, in order. A listener that returns a promise is sent its next batch only
 * once it settles (the page, once it has drawn the last batch); events wait, joined, meanwhile.
 */
export type RunEventBatchListener = (events: RunEvent[]) => void | Promise<void>;

export interface RunsApi {
  /** Streams the run's events to `onEvent`, `end` always last; resolves after `end`. */
  stream(request: RunRequest, onEvent: RunEventListener): Promise<void>;
  /**
   * `stream` for a listener across a thread boundary: events come in batches, at most one a frame (16 ms) and
   * none while the listener's promise for the last one is pending, with consecutive pieces of a reply joined;
   * `error` and `end` come at once. Resolves after `end` was sent.
   */
  streamBatched(request: RunRequest, onEvents: RunEventBatchListener): Promise<void>;
  cancel(runId: string): Promise<void>;
  /**
   * Follows the thread's run in progress elsewhere (another device or tab of a server workspace), its events batched
   * as `streamBatched` sends them, from the state it has reached. Resolves `false` at once when no run is in progress
   * there (always, in this browser's workspace), `true` once its `end` was sent.
   */
  join(threadId: string, onEvents: RunEventBatchListener): Promise<boolean>;
}
