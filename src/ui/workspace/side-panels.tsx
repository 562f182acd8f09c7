// The thread's side panels: the presented files (region "Artifacts") and the Plan. On a wide screen they make a
// column beside the conversation; narrower, they fold into one summary row ("Artifacts (2) · Plan 3/3") that opens
// them, so the conversation keeps most of the screen. Which of the two applies is workspace.css's choice.
import { createSignal, Show } from "solid-js";
import type { TodoItem } from "../../protocol/index.ts";
import type { GatewayClient } from "../gateway-client.ts";
import { formatNumber, t } from "../i18n/index.ts";
import type { FileBeingWritten } from "../state/run-view.ts";
import { ArtifactsPanel } from "../artifacts/artifacts-panel.tsx";
import { PlanPanel } from "../conversation/plan-panel.tsx";

export function SidePanels(props: {
  client: GatewayClient;
  threadId: string;
  paths: readonly string[];
  writing: readonly FileBeingWritten[];
  todos: readonly TodoItem[];
  onPreview: (path: string) => void;
}) {
  const [open, setOpen] = createSignal(false);
  const fileCount = () => new Set([...props.paths, ...props.writing.map((file) => file.path)]).size;
  const done = () => props.todos.filter((todo) => todo.status === "completed").length;
  const summary = () =>
    [
      fileCount() > 0 ? t("layout.artifactsCount", { count: formatNumber(fileCount()) }) : "",
      props.todos.length > 0
        ? t("layout.planProgress", { done: formatNumber(done()), total: formatNumber(props.todos.length) })
        : "",
      props.writing.length > 0 ? t("layout.writing") : "",
    ]
      .filter(Boolean)
      .join(" · ");

  return (
    <div class="side-panels" data-expanded={open() ? "true" : "false"}>
      <Show when={fileCount() > 0 || props.todos.length > 0}>
        <button
          type="button"
          class="ghost side-summary"
          aria-expanded={open()}
          aria-controls="side-panels-body"
          onClick={() => setOpen(!open())}
        >
          <Show when={props.writing.length > 0}>
            <span class="step-status" data-status="running" aria-hidden="true" />
          </Show>
          <span class="side-summary-text">{summary()}</span>
          <span class="side-summary-chevron" aria-hidden="true">
            ▾
          </span>
        </button>
      </Show>
      <div class="side-panels-body" id="side-panels-body">
        <ArtifactsPanel
          client={props.client}
          threadId={props.threadId}
          paths={props.paths}
          writing={props.writing}
          onPreview={props.onPreview}
        />
        <PlanPanel todos={props.todos} />
      </div>
    </div>
  );
}
