// An assistant message's tool calls as collapsible steps, each shown for what it is (tool-step-content.ts): the
// command and its output, the file written (Markdown rendered), the text an edit replaced, search results as links.
// <Index> keeps each step's DOM while the reply streams; the step memory keeps a step the reader opened open when
// the live reply gives way to the saved one.
import { createContext, Index, lazy, Match, Show, Switch, useContext } from "solid-js";
import type { ToolProgressEvent, WireToolCall } from "../../protocol/index.ts";
import { t, type TextKey } from "../i18n/index.ts";
import { toolSteps, type StepBody, type StepStatus, type ToolResults } from "./tool-step-content.ts";
import { Markdown } from "../markdown/lazy-markdown.tsx";
import { useStepMemory } from "./step-memory.ts";

/** image_search's thumbnail grid, with its own chunk: most replies never show one. */
const ImageSearchGrid = lazy(() => import("./image-search-grid.tsx"));

/** Longer outputs are cut in the view (the tools already cut what the model sees; this keeps the page light). */
const SHOWN_CHARS = 20_000;

const STATUS_LABEL: Record<StepStatus, TextKey> = {
  running: "steps.running",
  pending: "steps.pending",
  done: "steps.done",
  failed: "steps.failed",
};

function cut(value: string): string {
  return value.length > SHOWN_CHARS ? `${value.slice(0, SHOWN_CHARS)}\n…` : value;
}

function Output(props: { text: string | undefined }) {
  return (
    <Show when={props.text !== undefined} fallback={<p class="step-waiting">{t("steps.waiting")}</p>}>
      <pre class="step-output">{cut(props.text ?? "")}</pre>
    </Show>
  );
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

function Body(props: { body: StepBody; callId: string }) {
  return (
    <Switch>
      <Match when={props.body.kind === "command" && props.body}>
        {(body) => (
          <>
            <pre class="step-command">
              <code>$ {body().command}</code>
            </pre>
            <Output text={body().output} />
          </>
        )}
      </Match>
      <Match when={props.body.kind === "file" && props.body}>
        {(body) => (
          <Show
            when={/\.(md|markdown)$/i.test(body().path)}
            fallback={<pre class="step-file">{cut(body().content)}</pre>}
          >
            <Markdown source={cut(body().content)} class="step-file" />
          </Show>
        )}
      </Match>
      <Match when={props.body.kind === "edit" && props.body}>
        {(body) => (
          <pre class="step-diff">
            <del aria-label={t("steps.replaced")}>{body().before}</del>
            <ins aria-label={t("steps.newText")}>{body().after}</ins>
          </pre>
        )}
      </Match>
      <Match when={props.body.kind === "links" && props.body}>
        {(body) => (
          <Show when={body().links.length > 0} fallback={<Output text={body().output} />}>
            <ul class="step-links" aria-label={t("steps.searchResults")}>
              <Index each={body().links}>
                {(link) => (
                  <li>
                    <a href={link().url} target="_blank" rel="noopener noreferrer">
                      {link().title}
                    </a>{" "}
                    <span class="step-host">{hostOf(link().url)}</span>
                    <Show when={link().snippet}>
                      <p>{link().snippet}</p>
                    </Show>
                  </li>
                )}
              </Index>
            </ul>
          </Show>
        )}
      </Match>
      <Match when={props.body.kind === "images" && props.body}>
        {(body) => (
          <Show when={body().images.length > 0} fallback={<Output text={body().output} />}>
            <ImageSearchGrid images={body().images} callId={props.callId} />
          </Show>
        )}
      </Match>
      <Match when={props.body.kind === "page" && props.body}>
        {(body) => (
          <>
            <p>
              <Show when={/^https?:\/\//i.test(body().url)} fallback={body().url}>
                <a href={body().url} target="_blank" rel="noopener noreferrer">
                  {body().url}
                </a>
              </Show>
            </p>
            <Output text={body().output} />
          </>
        )}
      </Match>
      <Match when={props.body.kind === "files" && props.body}>
        {(body) => (
          <ul class="step-paths">
            <Index each={body().paths}>{(path) => <li>{path()}</li>}</Index>
          </ul>
        )}
      </Match>
      <Match when={props.body.kind === "output" && props.body}>
        {(body) => (
          <>
            <Show when={body().args}>{(args) => <pre class="step-args">{args()}</pre>}</Show>
            <Output text={body().output} />
          </>
        )}
      </Match>
    </Switch>
  );
}

/** The live run's progress of its running MCP calls, by call id (the conversation provides it). */
export const ToolProgressContext = createContext<() => Readonly<Record<string, ToolProgressEvent>> | undefined>(
  () => undefined,
);

function progressText(event: ToolProgressEvent): string {
  const count =
    event.total === undefined
      ? String(event.progress)
      : t("steps.progress", { progress: String(event.progress), total: String(event.total) });
  return event.message ? `${count} · ${event.message}` : count;
}

export function ToolSteps(props: {
  calls: readonly WireToolCall[];
  results: ToolResults;
  streaming: boolean;
  /** Calls whose results come later (a replay): their steps show as waiting, not failed. */
  awaited?: ReadonlySet<string> | undefined;
}) {
  const steps = () => toolSteps(props.calls, props.results, props.streaming, props.awaited);
  const progress = useContext(ToolProgressContext);
  const memory = useStepMemory();
  return (
    <ol class="tool-steps" aria-label={t("steps.list")}>
      <Index each={steps()}>
        {(step) => (
          <li class="tool-step" data-status={step().status}>
            <details
              open={memory.opened(step().id)}
              onToggle={(event) => memory.setOpened(step().id, event.currentTarget.open)}
            >
              <summary>
                <span class="step-status" role="img" aria-label={t(STATUS_LABEL[step().status])} />
                <span class="step-title">{step().title}</span>
                <Show when={step().note}>{(note) => <span class="step-note">{note()}</span>}</Show>
                <Show when={step().status === "pending"}>
                  {/* The mark's name says it to assistive technology; this says it to the eye. */}
                  <span class="step-pending" aria-hidden="true">
                    {t("steps.pending")}
                  </span>
                </Show>
                <Show when={step().status === "running" && progress()?.[step().id]}>
                  {(event) => <span class="step-progress">{progressText(event())}</span>}
                </Show>
              </summary>
              <div class="step-body">
                <Body body={step().body} callId={step().id} />
                <p class="step-tool">{t("steps.toolName", { tool: step().tool })}</p>
              </div>
            </details>
          </li>
        )}
      </Index>
    </ol>
  );
}
