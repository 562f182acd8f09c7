// A labelled one-line input for settings: an address, or a key that stays masked until "Show key" is pressed; a
// problem with it shows under it, tied to it (aria-invalid, aria-describedby).
import { createSignal, Show, type JSX } from "solid-js";
import { t } from "../../i18n/index.ts";

/** A labelled one-line input: an address, or a key that stays masked until its Show key button is pressed. */
export function TextField(props: {
  id: string;
  label: string;
  kind: "url" | "key";
  value: string;
  onInput: (value: string) => void;
  placeholder?: string | undefined;
  hint?: JSX.Element;
  /** What is wrong with the value, shown under the field. */
  error?: string | undefined;
}) {
  const [shown, setShown] = createSignal(false);
  const input = (
    <input
      id={props.id}
      type={props.kind === "url" ? "url" : "text"}
      classList={{ masked: props.kind === "key" && !shown() }}
      autocomplete="off"
      spellcheck={false}
      placeholder={props.placeholder}
      aria-invalid={props.error ? "true" : undefined}
      aria-describedby={props.error ? `${props.id}-error` : undefined}
      value={props.value}
      onInput={(event) => props.onInput(event.currentTarget.value)}
    />
  );
  return (
    <div class="field">
      <label for={props.id}>{props.label}</label>
      <Show when={props.kind === "key"} fallback={input}>
        <div class="inline">
          {input}
          <button type="button" class="ghost" aria-pressed={shown()} onClick={() => setShown(!shown())}>
            {shown() ? t("field.hideKey") : t("field.showKey")}
          </button>
        </div>
      </Show>
      <FieldError id={`${props.id}-error`} error={props.error} />
      <Show when={props.hint}>
        <p class="hint">{props.hint}</p>
      </Show>
    </div>
  );
}

/** A field's problem, under it; the field names it with aria-describedby={id}. */
export function FieldError(props: { id: string; error: string | undefined }) {
  return (
    <Show when={props.error}>
      <p class="field-error" id={props.id}>
        {props.error}
      </p>
    </Show>
  );
}
