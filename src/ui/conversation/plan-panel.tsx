// The Plan region: the agent's todo list in plan mode (Pro, Ultra), updated live as `write_todos` changes it.
import { For, Show } from "solid-js";
import type { TodoItem } from "../../protocol/index.ts";
import { formatNumber, t, type TextKey } from "../i18n/index.ts";

const STATUS: Record<TodoItem["status"], { mark: string; label: TextKey }> = {
  pending: { mark: "○", label: "plan.pending" },
  in_progress: { mark: "◐", label: "plan.inProgress" },
  completed: { mark: "✓", label: "plan.completed" },
};

export function PlanPanel(props: { todos: readonly TodoItem[] }) {
  const done = () => props.todos.filter((todo) => todo.status === "completed").length;
  return (
    <Show when={props.todos.length > 0}>
      <section class="plan" aria-label={t("plan.region")}>
        <h2>
          {t("plan.region")}{" "}
          <span class="plan-progress">
            {t("plan.progress", { done: formatNumber(done()), total: formatNumber(props.todos.length) })}
          </span>
        </h2>
        <ol>
          <For each={props.todos}>
            {(todo) => (
              <li class={`todo ${todo.status}`} data-status={todo.status}>
                <span class="todo-mark" aria-hidden="true">
                  {STATUS[todo.status].mark}
                </span>
                <span class="todo-text">{todo.content}</span>
                <span class="visually-hidden">{t("plan.status", { status: t(STATUS[todo.status].label) })}</span>
              </li>
            )}
          </For>
        </ol>
      </section>
    </Show>
  );
}
