// The app's first render cut into tasks: the shell renders first, and each part wrapped in <StartStep>
// (start-step.tsx) renders in a task of its own after it, in the order the parts were made, so no one task renders
// the whole app. main.tsx drives it while the prerendered first screen is still on screen and swaps the finished app
// in at the end.
import { createSignal, type Accessor } from "solid-js";

/**
 * Set on #root while the app renders beside the prerendered first screen: base.css hides the app until main.tsx
 * removes the first screen and this attribute in one task.
 */
export const APP_STARTING_ATTRIBUTE = "data-app-starting";

/** How many steps may render; everything renders at once outside a stepped start (tests, a workspace switch). */
const [reached, setReached] = createSignal(Number.POSITIVE_INFINITY);
/** Steps made during the stepped start so far; a step's number is its place in that order. */
let made = 0;

/** A new step: whether it may render yet (at once when no stepped start is under way). */
export function startStep(): Accessor<boolean> {
  const step = ++made;
  return () => reached() >= step;
}

/**
 * Runs `mount` (which renders the app: its shell now, its steps not yet), then lets one more step render after each
 * `pause` (a step may make further steps, which follow in turn), until every step has rendered. Resolves once the
 * app is whole; steps made after that render at once.
 */
export async function renderInSteps(mount: () => void, pause: () => Promise<void>): Promise<void> {
  made = 0;
  setReached(0);
  try {
    mount();
    for (let step = 1; step <= made; step++) {
      await pause();
      setReached(step);
    }
  } finally {
    setReached(Number.POSITIVE_INFINITY);
  }
}

/** Runs `run` in a task of its own when the page is idle (within `timeout` ms), or after 2 s without idle callbacks. */
export function whenIdle(run: () => void, timeout = 5000): void {
  if (typeof requestIdleCallback === "function") requestIdleCallback(() => run(), { timeout });
  else setTimeout(run, 2000);
}
