// "Good reply" / "Bad reply" on a reply (DeerFlow's thumbs up and down): toggle buttons (aria-pressed) that save the
// rating at once, then offer an optional comment ("Comment", Send / Skip); pressing the chosen one again takes the
// rating back. Loaded with the first reply shown (lazy), not with the first screen.
import { createEffect, createSignal, on, Show, type JSX } from "solid-js";
import { FEEDBACK_COMMENT_MAX, type FeedbackRating, type MessageFeedback } from "../../protocol/index.ts";
import { t } from "../i18n/index.ts";
import "./message-feedback.css";

/**
 * What the conversation lets a reply's feedback do; `rate` and `clear` return once the Gateway has kept it (or
 * refused). The comment being written is the conversation's (`draft`, undefined when none is asked for): a rating
 * reads the thread again, which draws its messages anew.
 */
export interface FeedbackControl {
  current: MessageFeedback | undefined;
  rate: (rating: FeedbackRating, comment?: string) => Promise<void>;
  clear: () => Promise<void>;
  draft: string | undefined;
  setDraft: (text: string | undefined) => void;
}

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

export default function MessageFeedbackButtons(props: { control: FeedbackControl }): JSX.Element {
  const [chosen, setChosen] = createSignal<FeedbackRating | undefined>(props.control.current?.rating);
  const asking = () => props.control.draft !== undefined;
  const setAsking = (open: boolean) =>
    props.control.setDraft(open ? (props.control.current?.comment ?? "") : undefined);
  const [saving, setSaving] = createSignal(false);
  // A reload of the thread (this tab's change or another tab's) brings the kept rating.
  createEffect(
    on(
      () => props.control.current?.rating,
      (rating) => setChosen(rating),
      { defer: true },
    ),
  );

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
      void save(() => props.control.clear(), undefined);
      return;
    }
    setAsking(true);
    void save(() => props.control.rate(rating), rating);
  };

  const send = () => {
    const rating = chosen();
    const comment = props.control.draft?.trim() ?? "";
    setAsking(false);
    if (rating !== undefined && comment.length > 0) void save(() => props.control.rate(rating, comment), rating);
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
              element.value = props.control.draft ?? "";
              queueMicrotask(() => element.focus());
            }}
            onInput={(event) => props.control.setDraft(event.currentTarget.value)}
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
