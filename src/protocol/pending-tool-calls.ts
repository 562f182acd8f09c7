// Tool calls a thread's last step left without a result. An imported thread (a `.fawn`, a share link, a backup, a
// DeerFlow thread.json) has them closed as cancelled when it is stored: its calls were made by someone else's model,
// and nothing may run them here ("Continue" resumes only calls this browser's model made).

/** The result an imported thread's unanswered tool call gets (status "error"): what the UI and the model read. */
export const CANCELLED_ON_IMPORT =
  "Cancelled on import: this tool call came with the imported thread and was never run in this browser.";

/** What the rule reads of a message: LangChain messages and wire messages both have these fields. */
export interface ToolCallsMessage {
  type: string;
  tool_calls?: readonly { id?: string; name: string }[];
  tool_call_id?: string;
}

/**
 * The calls of the last assistant message that have no result, when only tool results follow it (the step a
 * resumed run would go on with: its tools). Empty when the thread ends otherwise.
 */
export function unansweredToolCalls(messages: readonly ToolCallsMessage[]): { id: string; name: string }[] {
  let index = messages.length - 1;
  while (index >= 0 && messages[index]?.type === "tool") index--;
  const last = messages[index];
  if (last?.type !== "ai") return [];
  const answered = new Set(messages.slice(index + 1).map((message) => message.tool_call_id));
  return (last.tool_calls ?? []).flatMap((call) =>
    call.id !== undefined && call.id !== "" && !answered.has(call.id) ? [{ id: call.id, name: call.name }] : [],
  );
}
