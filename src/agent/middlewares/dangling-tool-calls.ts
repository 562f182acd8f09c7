// DeerFlow's dangling-tool-call rule, in what the model is sent (the stored history is left as it is): each AI
// message's tool calls are followed at once by their results, in call order. A call without a result (the run was
// stopped, or the page closed, while the tool ran) gets a placeholder; a result separated from its call by a user
// message is moved back next to it; a result that answers no call is dropped. Providers refuse anything else.
import { AIMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { createMiddleware } from "langchain";

export const DANGLING_TOOL_RESULT = "This tool call was interrupted before it returned a result.";

/**
 * `messages` repaired turn by turn: the results of an AI message's calls are looked for up to the next AI message
 * (so an id reused in a later turn pairs with its own turn), put right after it in call order, and the other
 * messages of that stretch follow.
 */
export function withPlaceholderResults(messages: readonly BaseMessage[]): BaseMessage[] {
  const repaired: BaseMessage[] = [];
  let index = 0;
  while (index < messages.length) {
    const message = messages[index]!;
    index++;
    // A result outside any AI message's stretch answers nothing.
    if (ToolMessage.isInstance(message)) continue;
    repaired.push(message);
    const calls = AIMessage.isInstance(message) ? (message.tool_calls ?? []) : [];
    if (calls.length === 0) continue;
    const stretch: BaseMessage[] = [];
    while (index < messages.length && !AIMessage.isInstance(messages[index])) stretch.push(messages[index++]!);
    const results = new Map<string, ToolMessage>();
    for (const item of stretch) {
      if (ToolMessage.isInstance(item) && !results.has(item.tool_call_id)) results.set(item.tool_call_id, item);
    }
    for (const call of calls) {
      if (call.id === undefined) continue;
      repaired.push(
        results.get(call.id) ??
          new ToolMessage({ content: DANGLING_TOOL_RESULT, tool_call_id: call.id, name: call.name, status: "error" }),
      );
    }
    repaired.push(...stretch.filter((item) => !ToolMessage.isInstance(item)));
  }
  return repaired;
}

export const danglingToolCallMiddleware = createMiddleware({
  name: "DanglingToolCallMiddleware",
  wrapModelCall: (request, handler) => handler({ ...request, messages: withPlaceholderResults(request.messages) }),
});
