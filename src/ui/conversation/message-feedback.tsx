// "Good reply" / "Bad reply" on a reply (DeerFlow's thumbs up and down): toggle buttons (aria-pressed) that save the
// rating at once, then offer an optional comment ("Comment", Send / Skip); pressing the chosen one again takes the
// rating back. Loaded with the first reply shown (lazy), not with the first screen; it rates the open thread's reply
// through the Gateway's feedback domain, and a refusal is the thread's notice.
import { createEffect, createSignal, on, Show, type JSX } from "solid-js";
import { FEEDBACK_COMMENT_MAX, type FeedbackRating } from "../../protocol/index.ts";
import { errorMessage } from "../gateway-client.ts";
import { t } from "../i18n/index.ts";
import { useGateway, useNotices, useOpenThread } from "../state/stores.tsx";
import "./message-feedback.css";

/** The comment being written, and on which reply: kept here, as a rating reads the thread again and redraws it. */
const [draft, setDraft] = createSignal<{ messageId: string; text: string } | undefined>();

const THUMB_UP = "M5 7H3v6h2M5 7l2.5-4.5c1 0 1.8.8 1.6 1.8L8.7 6.5h3.8a1 1 0 0 1 1 1.2l-1 4.4a1 1 0 0 1-1 .9H5z";
const THUMB_DOWN = "M5 9H3V3h2M5 9l2.5 4.5c1 0 1.8-.8 1.6-1.8L8.7 9.5h3.8a1 1 0 0 0 1-1.2l-1-4.4a1 1 0 0 0-1-.9H5z";

function Thumb(props: { path: string; filled: boolean }): JSX.Element {
  return (
    <svg viewBox="0 0 16 16" width="14" height="14" aria-hidden="true">
      <path
        d={props.path}
        fill={props.filled ? "currentColor" : "none"}
        stroke="currentColor"
        stroke-width="1.5"
        stroke-linejoin="round"
      />
    </svg>
  );
}

export default function MessageFeedbackButtons(props: { messageId: string }): JSX.Element {
  const client = useGateway();
  const notices = useNotices();
  const openThread = useOpenThread();
  const current = () => openThread.thread()?.feedback?.[props.messageId];
  const [chosen, setChosen] = createSignal<FeedbackRating | undefined>(current()?.rating);
  const [saving, setSaving] = createSignal(false);
  // A reload of the thread (this tab's change or another tab's) brings the kept rating.
  createEffect(
    on(
      () => current()?.rating,
      (rating) => setChosen(rating),
      { defer: true },
    ),
  );
  const comment = () => {
    const open = draft();
    return open?.messageId === props.messageId ? open.text : undefined;
  };
  const asking = () => comment() !== undefined;
  const setAsking = (open: boolean) =>
    setDraft(open ? { messageId: props.messageId, text: current()?.comment ?? "" } : undefined);

  /** Keeps the change through the Gateway; a refusal is said as the thread's notice, and undone here. */
  const kept = async (work: (threadId: string) => Promise<unknown>) => {
    const threadId = openThread.thread()?.thread_id ?? "";
    try {
      await work(threadId);
    } catch (error) {
      notices.setNotice(t("feedback.failed", { error: errorMessage(error) }), { threadId });
      throw error;
    }
  };
  const rate = (rating: FeedbackRating, text?: string) =>
    kept((threadId) =>
      client.feedback.set(threadId, props.messageId, { rating, ...(text !== undefined && { comment: text }) }),
    );
  const clear = () => kept((threadId) => client.feedback.clear(threadId, props.messageId));

  const save = async (work: () => Promise<void>, shown: FeedbackRating | undefined) => {
    const before = chosen();
    setChosen(shown);
    setSaving(true);
    try {
      await work();
    } catch {
      setChosen(before);
      setAsking(false);
    } finally {
      setSaving(false);
    }
  };

  const press = (rating: FeedbackRating) => {
    if (chosen() === rating) {
      setAsking(false);
      void save(() => clear(), undefined);
      return;
    }
    setAsking(true);
    void save(() => rate(rating), rating);
  };

  const send = () => {
    const rating = chosen();
    const text = comment()?.trim() ?? "";
    setAsking(false);
    if (rating !== undefined && text.length > 0) void save(() => rate(rating, text), rating);
  };

  const thumb = (rating: FeedbackRating, label: string, path: string) => (
    <button
      type="button"
      class="icon-button feedback-button"
      classList={{ chosen: chosen() === rating }}
      aria-label={label}
      title={label}
      aria-pressed={chosen() === rating ? "true" : "false"}
      disabled={saving()}
      onClick={() => press(rating)}
    >
      <Thumb path={path} filled={chosen() === rating} />
    </button>
  );

  return (
    <>
      {thumb(1, t("feedback.good"), THUMB_UP)}
      {thumb(-1, t("feedback.bad"), THUMB_DOWN)}
      <Show when={asking()}>
        <form
          class="feedback-comment"
          aria-label={t("feedback.commentForm")}
          onSubmit={(event) => {
            event.preventDefault();
            send();
          }}
        >
          <textarea
            ref={(element) => {
              element.value = comment() ?? "";
              queueMicrotask(() => element.focus());
            }}
            onInput={(event) => setDraft({ messageId: props.messageId, text: event.currentTarget.value })}
            aria-label={t("feedback.comment")}
            placeholder={t("feedback.commentHint")}
            rows={2}
            maxLength={FEEDBACK_COMMENT_MAX}
            onKeyDown={(event) => {
              if (event.key === "Escape") setAsking(false);
              else if (event.key === "Enter" && !event.shiftKey && !event.isComposing) {
                event.preventDefault();
                send();
              }
            }}
          />
          <div class="edit-buttons">
            <button type="button" onClick={() => setAsking(false)}>
              {t("feedback.skip")}
            </button>
            <button type="submit" class="primary">
              {t("message.send")}
            </button>
          </div>
        </form>
      </Show>
    </>
  );
}
