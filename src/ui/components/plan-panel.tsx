// The Plan region: the agent's todo list in plan mode (Pro, Ultra), updated live as `write_todos` changes it.
import { For, Show } from "solid-js";
import type { TodoItem } from "../../protocol/index.ts";

const STATUS: Record<TodoItem["status"], { mark: string; label: string }> = {
  pending: { mark: "○", label: "to do" },
  in_progress: { mark: "◐", label: "in progress" },
  completed: { mark: "✓", label: "done" },
};

export function PlanPanel(props: { todos: readonly TodoItem[] }) {
  const done = () => props.todos.filter((todo) => todo.status === "completed").length;
  return (
    <Show when={props.todos.length > 0}>
      <section class="plan" aria-label="Plan">
        <h2>
          Plan{" "}
          <span class="plan-progress">
            {done()} of {props.todos.length} done
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
                <span class="visually-hidden"> ({STATUS[todo.status].label})</span>
              </li>
            )}
          </For>
        </ol>
      </section>
    </Show>
  );
}
