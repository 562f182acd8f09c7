// A labelled number input of Settings, with its range and an optional hint below it.
import { Show, type JSX } from "solid-js";
import { FieldError } from "./text-field.tsx";

export function NumberField(props: {
  id: string;
  label: string;
  min: number;
  max: number;
  step?: number;
  value: number | string;
  disabled?: boolean;
  onInput: (value: string) => void;
  hint?: JSX.Element;
  /** What is wrong with the value, shown under the field (aria-invalid, aria-describedby). */
  error?: string | undefined;
}) {
  return (
    <div class="field">
      <label for={props.id}>{props.label}</label>
      <input
        id={props.id}
        type="number"
        min={String(props.min)}
        max={String(props.max)}
        step={String(props.step ?? 1)}
        value={props.value}
        disabled={props.disabled === true}
        aria-invalid={props.error ? "true" : undefined}
        aria-describedby={props.error ? `${props.id}-error` : undefined}
        onInput={(event) => props.onInput(event.currentTarget.value)}
      />
      <FieldError id={`${props.id}-error`} error={props.error} />
      <Show when={props.hint}>
        <p class="hint">{props.hint}</p>
      </Show>
    </div>
  );
}
