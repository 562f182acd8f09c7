// A saved entry of the conversation (a message, or the error a run ended with) and the note of a model call being
// tried again; with the tool calls and results the conversation's messages hold, which tool steps read.
import { Show, type JSX } from "solid-js";
import type {
  ModelProgressEvent,
  ModelRetryEvent,
  RunError,
  ThreadEntry,
  UsageMetadata,
  WireMessage,
} from "../../protocol/index.ts";
import { formatNumber, t } from "../i18n/index.ts";
import type { Subtasks } from "../state/subtasks.ts";
import type { MessageActions } from "./message-actions.tsx";
import { MessageView } from "./message-view.tsx";
import { toolResultsOf, type ToolResults } from "./tool-step-content.ts";

/**
 * The conversation's tool results by call id, the ids of the calls its assistant messages make, and (in a replay)
 * the calls whose results a later step shows.
 */
export interface ConversationTools {
  results: ToolResults;
  calls: ReadonlySet<string>;
  awaited: ReadonlySet<string>;
}

export function conversationTools(
  messages: readonly WireMessage[],
  moreCalls: readonly string[],
  awaited: ReadonlySet<string>,
): ConversationTools {
  const calls = new Set<string>(moreCalls);
  for (const message of messages)
    if (message.type === "ai") for (const call of message.tool_calls ?? []) calls.add(call.id);
  return { results: toolResultsOf(messages), calls, awaited };
}

/** `modelSetUp`: a model is set up now, so "No model is set up yet" gives way to a note that says so. */
export function RunErrorView(props: { error: RunError; onOpenSettings: () => void; modelSetUp?: boolean }) {
  const fixable = () =>
    ["not_configured", "authentication", "not_found", "unreachable", "proxy_refused"].includes(props.error.error);
  return (
    <Show
      when={!(props.error.error === "not_configured" && props.modelSetUp)}
      fallback={
        <p class="run-error-resolved" role="status">
          {t("conversation.modelNowSetUp")}
        </p>
      }
    >
      <div class="run-error" role="alert">
        <p>{props.error.message}</p>
        <Show when={fixable()}>
          <button type="button" class="link-button" onClick={() => props.onOpenSettings()}>
            {t("common.openSettings")}
          </button>
        </Show>
      </div>
    </Show>
  );
}

const RETRY_REASONS = ["unreachable", "rate_limited", "server_error"] as const;

/** Why the reply is late: the model call failed and is tried again shortly (the run's `model_retry` events). */
export function RetryNotice(props: { retry: ModelRetryEvent }) {
  const reason = () => {
    const known = RETRY_REASONS.find((code) => code === props.retry.reason);
    return t(known ? `conversation.retry.${known}` : "conversation.retry.failed");
  };
  return (
    <p class="run-retry" role="status">
      {t("conversation.retrying", {
        reason: reason(),
        seconds: String(Math.max(1, Math.round(props.retry.delay_ms / 1000))),
        attempt: String(props.retry.attempt),
        retries: String(props.retry.retries),
      })}
    </p>
  );
}

/** What a model on this device does before its reply's first word, which can take minutes on a CPU. */
export function ModelProgressNotice(props: { progress: ModelProgressEvent }) {
  const reading = () => {
    const { stage, processed, total } = props.progress;
    return stage === "reading" && processed !== undefined && total !== undefined && total > 0
      ? { processed: Math.min(processed, total), total }
      : undefined;
  };
  const text = () => {
    const read = reading();
    if (!read) {
      return t(props.progress.stage === "waiting" ? "conversation.device.waiting" : "conversation.device.loading");
    }
    return t("conversation.device.reading", {
      processed: formatNumber(read.processed),
      total: formatNumber(read.total),
      percent: String(Math.floor((read.processed / read.total) * 100)),
    });
  };
  return (
    <div class="run-progress">
      <p role="status">{text()}</p>
      <Show when={reading()}>
        {(read) => (
          <progress max={read().total} value={read().processed} aria-label={t("conversation.device.readingBar")} />
        )}
      </Show>
    </div>
  );
}

export function EntryView(props: {
  entry: ThreadEntry;
  onOpenSettings: () => void;
  answer?: string | undefined;
  onAnswer?: ((text: string) => void) | undefined;
  subtasks: Subtasks;
  tools: ConversationTools;
  actions?: MessageActions | undefined;
  usage?: UsageMetadata | undefined;
  modelSetUp?: boolean;
}): JSX.Element {
  const entry = props.entry;
  return entry.kind === "message" ? (
    <MessageView
      message={entry.message}
      stopped={entry.stopped}
      answer={props.answer}
      onAnswer={props.onAnswer}
      subtasks={props.subtasks}
      tools={props.tools}
      actions={props.actions}
      usage={props.usage}
    />
  ) : (
    <RunErrorView error={entry.error} onOpenSettings={props.onOpenSettings} modelSetUp={props.modelSetUp} />
  );
}
