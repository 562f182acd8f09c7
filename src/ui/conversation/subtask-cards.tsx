// The Subtasks region of an assistant message: one card per `task` call, live while its subagent works.
import { Index, Show } from "solid-js";
import { contentText, type WireMessage } from "../../protocol/index.ts";
import { t, tn, type TextKey } from "../i18n/index.ts";
import { isTerminal, stepSummary, type Subtask } from "../state/subtasks.ts";
import { Markdown } from "../markdown/lazy-markdown.tsx";

/** What a card says of its task: how it ended, or, before that, running while the run lives and stopped after. */
type ShownStatus = "running" | "stopped" | Exclude<Subtask["status"], "pending" | "running">;

const STATUS: Record<ShownStatus, { label: TextKey; mark: string }> = {
  running: { label: "subtasks.running", mark: "" },
  completed: { label: "subtasks.completed", mark: "✓" },
  failed: { label: "subtasks.failed", mark: "✗" },
  cancelled: { label: "subtasks.cancelled", mark: "⊘" },
  timed_out: { label: "subtasks.timedOut", mark: "⏱" },
  stopped: { label: "subtasks.stopped", mark: "■" },
};

const STOP_REASONS: Record<NonNullable<Subtask["stopReason"]>, TextKey> = {
  turn_capped: "subtasks.turnCapped",
  loop_capped: "subtasks.loopCapped",
};

/** A step's full text is long for a card: the head is enough to see what happened. */
const STEP_TEXT_LIMIT = 2000;

function shownStatus(subtask: Subtask, live: boolean): ShownStatus {
  if (isTerminal(subtask.status)) return subtask.status;
  return live ? "running" : "stopped";
}

function stepText(step: WireMessage): string {
  const text = contentText(step.content).trim();
  return text.length > STEP_TEXT_LIMIT ? `${text.slice(0, STEP_TEXT_LIMIT)}…` : text;
}

function StepItem(props: { step: WireMessage }) {
  const summary = () => stepSummary(props.step);
  // The summary is the text's first line; the rest (or a tool's output) opens below it.
  const more = () => (stepText(props.step) === summary() ? "" : stepText(props.step));
  return (
    <li class={`subtask-step ${props.step.type}`}>
      <Show when={more()} fallback={<span class="subtask-step-summary">{summary()}</span>}>
        {(text) => (
          <details>
            <summary class="subtask-step-summary">{summary()}</summary>
            <pre class="subtask-step-text">{text()}</pre>
          </details>
        )}
      </Show>
    </li>
  );
}

function SubtaskCard(props: { subtask: Subtask; live: boolean }) {
  const status = () => shownStatus(props.subtask, props.live);
  const running = () => status() === "running";
  const meta = () =>
    [
      props.subtask.subagentType,
      props.subtask.modelName,
      props.subtask.steps.length > 0 ? tn("subtasks.steps", props.subtask.steps.length) : undefined,
      props.subtask.usage ? tn("tokens.count", props.subtask.usage.total_tokens) : undefined,
    ].filter(Boolean);
  const latest = () => (running() ? props.subtask.steps.at(-1) : undefined);
  return (
    <article
      class="subtask"
      data-status={status()}
      aria-label={t("subtasks.card", { description: props.subtask.description })}
      aria-busy={running() ? "true" : "false"}
    >
      <div class="subtask-head">
        <Show
          when={running()}
          fallback={
            <span class="subtask-mark" aria-hidden="true">
              {STATUS[status()].mark}
            </span>
          }
        >
          <span class="subtask-spinner" aria-hidden="true" />
        </Show>
        <span class="subtask-description">{props.subtask.description}</span>
        <span class="subtask-status">{t(STATUS[status()].label)}</span>
      </div>
      <p class="subtask-meta">{meta().join(" · ")}</p>
      <Show when={latest()}>{(step) => <p class="subtask-latest">{stepSummary(step())}</p>}</Show>
      <details class="subtask-details">
        <summary>{t("subtasks.details")}</summary>
        <Show when={props.subtask.prompt}>
          <p class="subtask-label">{t("subtasks.prompt")}</p>
          <p class="subtask-prompt">{props.subtask.prompt}</p>
        </Show>
        <Show when={props.subtask.steps.length > 0}>
          <p class="subtask-label">{t("subtasks.stepsLabel")}</p>
          <ol class="subtask-steps" aria-label={t("subtasks.stepsLabel")}>
            <Index each={props.subtask.steps}>{(step) => <StepItem step={step()} />}</Index>
          </ol>
        </Show>
        <Show when={props.subtask.result}>
          {(result) => (
            <div class="subtask-result">
              <p class="subtask-label">{t("subtasks.result")}</p>
              <Show when={props.subtask.stopReason}>
                {(reason) => <p class="subtask-note">{t(STOP_REASONS[reason()])}</p>}
              </Show>
              <Markdown source={result()} />
            </div>
          )}
        </Show>
        <Show when={props.subtask.error}>
          {(error) => (
            <div class="subtask-error">
              <p class="subtask-label">{t("subtasks.error")}</p>
              <p class="subtask-error-text">{error()}</p>
            </div>
          )}
        </Show>
      </details>
    </article>
  );
}

/**
 * The cards of one assistant message's `task` calls, in call order. `live` while the run that made the calls is
 * going: an unfinished task then shows as running, and as stopped once the run is over.
 */
export function SubtaskCards(props: { subtasks: readonly Subtask[]; live: boolean }) {
  return (
    <Show when={props.subtasks.length > 0}>
      <section class="subtasks" aria-label={t("subtasks.region")}>
        <Index each={props.subtasks}>{(subtask) => <SubtaskCard subtask={subtask()} live={props.live} />}</Index>
      </section>
    </Show>
  );
}
