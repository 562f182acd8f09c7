// Plan mode (Pro and Ultra): the agent keeps a todo list with `write_todos`, which the UI shows live in "Plan".
// langchain's todoListMiddleware provides the tool and the `todos` state; the words are ours. When the call that
// wrote the plan has left what the model is sent (summarization), the current plan is restated.
import { AIMessage, type BaseMessage } from "@langchain/core/messages";
import { StateSchema } from "@langchain/langgraph";
import { createMiddleware, todoListMiddleware } from "langchain";
import { z } from "zod";
import type { TodoItem } from "../../protocol/index.ts";

export const PLAN_PROMPT = [
  "<plan_mode>",
  "For a task of three or more steps, keep a plan with write_todos: list the steps, mark one in_progress before",
  "you start it and completed as soon as it is done, and revise the list when you learn something new. Each call",
  "replaces the whole list, so send every item each time, and call it once per reply. Skip the plan for simple",
  "requests: just answer.",
  "</plan_mode>",
].join("\n");

export const WRITE_TODOS_DESCRIPTION =
  "Write the plan for the current task as a list of steps, each pending, in_progress or completed. The list " +
  "replaces the previous one and is shown to the user as it changes. Use it for multi-step work, not for simple " +
  "questions.";

/** The reminder sent when the plan's own call is no longer among the messages the model sees. */
export function planReminder(todos: readonly TodoItem[]): string {
  const lines = todos.map((todo) => `- [${todo.status}] ${todo.content}`);
  return ["<plan_reminder>", "Your current plan (update it with write_todos):", ...lines, "</plan_reminder>"].join(
    "\n",
  );
}

function mentionsPlan(messages: readonly BaseMessage[]): boolean {
  return messages.some(
    (message) =>
      AIMessage.isInstance(message) && (message.tool_calls ?? []).some((call) => call.name === "write_todos"),
  );
}

const planReminderMiddleware = createMiddleware({
  name: "PlanReminderMiddleware",
  // Wrap hooks see only their own middleware's state fields: declare `todos` here too to read the plan.
  stateSchema: new StateSchema({
    todos: z
      .array(z.object({ content: z.string(), status: z.enum(["pending", "in_progress", "completed"]) }))
      .optional(),
  }),
  wrapModelCall: (request, handler) => {
    const todos = (request.state as { todos?: TodoItem[] }).todos ?? [];
    if (todos.length === 0 || mentionsPlan(request.messages)) return handler(request);
    return handler({ ...request, systemMessage: request.systemMessage.concat(`\n\n${planReminder(todos)}`) });
  },
});

/** The plan-mode middlewares, in order: the todo list, then the reminder that restates it. */
export function planMiddlewares() {
  return [
    todoListMiddleware({ systemPrompt: PLAN_PROMPT, toolDescription: WRITE_TODOS_DESCRIPTION }),
    planReminderMiddleware,
  ] as const;
}
