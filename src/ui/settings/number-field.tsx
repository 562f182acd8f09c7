// A labelled number input of Settings, with its range and an optional hint below it.
import { Show, type JSX } from "solid-js";

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
        onInput={(event) => props.onInput(event.currentTarget.value)}
      />
      <Show when={props.hint}>
        <p class="hint">{props.hint}</p>
      </Show>
    </div>
  );
}
