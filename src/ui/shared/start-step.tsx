// A part of the app's first render that waits for its turn (start-steps.ts): a task of its own during the start.
import { Show, type JSX } from "solid-js";
import { startStep } from "./start-steps.ts";

/** Renders its children once the start has reached it; at once when no stepped start is under way. */
export function StartStep(props: { children: JSX.Element }): JSX.Element {
  const shown = startStep();
  return <Show when={shown()}>{props.children}</Show>;
}
