// The growing agent thread both checkpoint benchmarks write (bench/checkpoint.ts in Node, bench/idb-browser/ in
// Chromium): one message per step, a question, a tool call, the tool's result and an answer, repeated.
import { AIMessage, HumanMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";

const TOOL_OUTPUT = Array.from(
  { length: 8 },
  (_, i) => `drwxr-xr-x  2 user user 4096 Jan ${i + 1} 12:00 dir-${i}`,
).join("\n");

/** The i-th message of the thread (0-based); ids are stable, so the same i gives an equal message. */
export function threadMessage(i: number): BaseMessage {
  const turn = Math.floor(i / 4);
  switch (i % 4) {
    case 0:
      return new HumanMessage({
        content: `Turn ${turn}: list the workspace and summarise what is there.`,
        id: `h${turn}`,
      });
    case 1:
      return new AIMessage({
        content: "",
        id: `a${turn}`,
        tool_calls: [
          { id: `call_${turn}`, name: "bash", args: { cmd: "ls -la /mnt/user-data/workspace" }, type: "tool_call" },
        ],
        usage_metadata: { input_tokens: 1200 + i, output_tokens: 24, total_tokens: 1224 + i },
      });
    case 2:
      return new ToolMessage({ content: TOOL_OUTPUT, tool_call_id: `call_${turn}`, name: "bash", id: `t${turn}` });
    default:
      return new AIMessage({
        content: `The workspace holds eight directories (dir-0 … dir-7), each empty and created on consecutive days.`,
        id: `r${turn}`,
        usage_metadata: { input_tokens: 1400 + i, output_tokens: 30, total_tokens: 1430 + i },
      });
  }
}

/** The node that produced step i's message: the tools node for tool results, the model for everything else. */
export function stepNode(i: number): "tools" | "model_request" {
  return i % 4 === 2 ? "tools" : "model_request";
}
