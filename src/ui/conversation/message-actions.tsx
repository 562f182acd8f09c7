// What a user can do with a message: edit a user message and run it again, regenerate a reply, rate it, and move
// between the versions either made ("‹ 2/3 ›"). Buttons are icons with names, so a message's text stays the message
// alone.
import { createSignal, lazy, Show, type JSX } from "solid-js";
import type { VersionChoice } from "../../protocol/index.ts";
import { t } from "../i18n/index.ts";

// Loaded with the first reply shown, not with the first screen.
const MessageFeedbackButtons = lazy(() => import("./message-feedback.tsx"));

/** What the conversation lets a message do; absent while a run is under way, or in a thread that takes no message. */
export interface MessageActions {
  /** This message's versions (a user message's edits, a reply's regenerations), when it has more than one. */
  versions?: VersionChoice | undefined;
  onShowVersion?: ((runId: string) => void) | undefined;
  /** A user message: runs the edited text in its place. */
  onEdit?: ((text: string) => void) | undefined;
  /** A reply: runs its user message again. */
  onRegenerate?: (() => void) | undefined;
  /** An answer's last reply: its message id, rated with "Good reply" / "Bad reply" and an optional comment. */
  feedback?: string | undefined;
}

function Icon(props: { path: string }): JSX.Element {
  return (
    <svg viewBox="0 0 16 16" width="14" height="14" aria-hidden="true">
      <path d={props.path} fill="none" stroke="currentColor" stroke-width="1.5" stroke-linecap="round" />
    </svg>
  );
}

const ICONS = {
  previous: "M10 3 5 8l5 5",
  next: "M6 3l5 5-5 5",
  edit: "M3 13h3l7-7-3-3-7 7v3M9 4l3 3",
  regenerate: "M13 8a5 5 0 1 1-1.5-3.5M13 2v3h-3",
};

export function VersionSwitcher(props: { choice: VersionChoice; onShow: (runId: string) => void }): JSX.Element {
  return (
    <span class="versions">
      <button
        type="button"
        class="icon-button"
        aria-label={t("message.previousVersion")}
        title={t("message.previousVersion")}
        disabled={!props.choice.previous}
        onClick={() => props.choice.previous && props.onShow(props.choice.previous)}
      >
        <Icon path={ICONS.previous} />
      </button>
      <span class="version-count">{`${props.choice.index}/${props.choice.count}`}</span>
      <button
        type="button"
        class="icon-button"
        aria-label={t("message.nextVersion")}
        title={t("message.nextVersion")}
        disabled={!props.choice.next}
        onClick={() => props.choice.next && props.onShow(props.choice.next)}
      >
        <Icon path={ICONS.next} />
      </button>
    </span>
  );
}

/** The row under a message: its versions, then Edit or Regenerate, then whatever else the message offers. */
export function MessageActionBar(props: { actions: MessageActions; children?: JSX.Element }): JSX.Element {
  return (
    <div class="message-actions">
      <Show when={props.actions.versions}>
        {(choice) => <VersionSwitcher choice={choice()} onShow={(runId) => props.actions.onShowVersion?.(runId)} />}
      </Show>
      {props.children}
      <Show when={props.actions.feedback}>{(messageId) => <MessageFeedbackButtons messageId={messageId()} />}</Show>
      <Show when={props.actions.onRegenerate}>
        {(regenerate) => (
          <button
            type="button"
            class="icon-button"
            aria-label={t("message.regenerate")}
            title={t("message.regenerate")}
            onClick={() => regenerate()()}
          >
            <Icon path={ICONS.regenerate} />
          </button>
        )}
      </Show>
    </div>
  );
}

/** A user message's text, or the box that edits it ("Edit" → textbox "Edit message", Send / Cancel). */
export function EditableUserText(props: { text: string; actions?: MessageActions | undefined }): JSX.Element {
  const [editing, setEditing] = createSignal(false);
  let box!: HTMLTextAreaElement;
  const submit = () => {
    const text = box.value;
    if (text.trim().length === 0) return;
    setEditing(false);
    props.actions?.onEdit?.(text);
  };
  return (
    <Show
      when={editing()}
      fallback={
        <>
          <p class="user-text">{props.text}</p>
          <Show when={props.actions}>
            {(actions) => (
              <MessageActionBar actions={actions()}>
                <Show when={actions().onEdit}>
                  <button
                    type="button"
                    class="icon-button"
                    aria-label={t("message.edit")}
                    title={t("message.edit")}
                    onClick={() => setEditing(true)}
                  >
                    <Icon path={ICONS.edit} />
                  </button>
                </Show>
              </MessageActionBar>
            )}
          </Show>
        </>
      }
    >
      <form
        class="edit-message"
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <textarea
          ref={(element) => {
            box = element;
            queueMicrotask(() => element.focus());
          }}
          aria-label={t("message.editBox")}
          rows={Math.min(8, props.text.split("\n").length + 1)}
          value={props.text}
          onKeyDown={(event) => {
            if (event.key === "Escape") setEditing(false);
            else if (event.key === "Enter" && !event.shiftKey && !event.isComposing) {
              event.preventDefault();
              submit();
            }
          }}
        />
        <div class="edit-buttons">
          <button type="button" onClick={() => setEditing(false)}>
            {t("common.cancel")}
          </button>
          <button type="submit" class="primary">
            {t("message.send")}
          </button>
        </div>
      </form>
    </Show>
  );
}
