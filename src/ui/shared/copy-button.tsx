// A copy button that puts a text on the clipboard and says so beside it: "Copied" for a moment, or why it could not.
import { createSignal, onCleanup, Show } from "solid-js";
import { t } from "../i18n/index.ts";

/** How long "Copied" stays beside the button. */
const CONFIRMATION_MS = 2000;

/**
 * Writes `text` to the clipboard. Rejects when the browser refuses (no permission, not a secure context, the page
 * not focused), so the caller can say so: a copy must never fail without a word.
 */
export async function writeClipboard(text: string): Promise<void> {
  if (!globalThis.navigator?.clipboard) throw new Error("clipboard unavailable");
  await navigator.clipboard.writeText(text);
}

/**
 * A copy icon named `label` ("Copy", "Copy code"): on click copies what `text()` gives at that moment, then shows "Copied" in a polite status
 * next to it, or an alert when the browser refused. `text` is read at click time, so a growing source is copied
 * whole.
 */
export function CopyButton(props: { text: () => string; label: string; class?: string }) {
  const [outcome, setOutcome] = createSignal<"copied" | "failed" | undefined>();
  let timer: ReturnType<typeof setTimeout> | undefined;
  onCleanup(() => clearTimeout(timer));
  const copy = async () => {
    clearTimeout(timer);
    try {
      await writeClipboard(props.text());
      setOutcome("copied");
      timer = setTimeout(() => setOutcome(undefined), CONFIRMATION_MS);
    } catch {
      setOutcome("failed");
    }
  };
  return (
    <span class={props.class ? `copy ${props.class}` : "copy"}>
      {/* An icon named by `label`: the button adds no text to the message or code it sits in. */}
      <button
        type="button"
        class="ghost icon copy-button"
        aria-label={props.label}
        title={props.label}
        on:click={() => void copy()}
      >
        <svg aria-hidden="true" viewBox="0 0 24 24" width="16" height="16">
          <rect x="9" y="9" width="11" height="11" rx="2" fill="none" stroke="currentColor" stroke-width="2" />
          <path d="M5 15V5a2 2 0 0 1 2-2h8" fill="none" stroke="currentColor" stroke-width="2" />
        </svg>
      </button>
      {/* Always present, so that screen readers hear "Copied" when it appears. */}
      <span class="copy-outcome" role="status">
        {outcome() === "copied" ? t("copy.done") : ""}
      </span>
      <Show when={outcome() === "failed"}>
        <span class="copy-outcome error" role="alert">
          {t("copy.failed")}
        </span>
      </Show>
    </span>
  );
}
