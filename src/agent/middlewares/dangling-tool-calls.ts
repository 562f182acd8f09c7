// DeerFlow's dangling-tool-call rule: a tool call without a result (the run was stopped, or the page closed, while
// the tool ran) gets a placeholder result right after the message that made it, in what the model is sent; the
// stored history is left as it is. Providers refuse a request with unanswered tool calls.
import { AIMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { createMiddleware } from "langchain";

export const DANGLING_TOOL_RESULT = "This tool call was interrupted before it returned a result.";

/** `messages` with a placeholder ToolMessage after each AI message for every call of it that has no result. */
export function withPlaceholderResults(messages: readonly BaseMessage[]): BaseMessage[] {
  const answered = new Set(
    messages.flatMap((message) => (ToolMessage.isInstance(message) ? [message.tool_call_id] : [])),
  );
  const patched: BaseMessage[] = [];
  for (const message of messages) {
    patched.push(message);
    if (!AIMessage.isInstance(message)) continue;
    for (const call of message.tool_calls ?? []) {
      if (call.id === undefined || answered.has(call.id)) continue;
      patched.push(
        new ToolMessage({ content: DANGLING_TOOL_RESULT, tool_call_id: call.id, name: call.name, status: "error" }),
      );
      answered.add(call.id);
    }
  }
  return patched;
}

export const danglingToolCallMiddleware = createMiddleware({
  name: "DanglingToolCallMiddleware",
  wrapModelCall: (request, handler) => handler({ ...request, messages: withPlaceholderResults(request.messages) }),
});
