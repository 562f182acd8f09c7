// DeerFlow's guardrail with its allowlist provider: only the listed tools exist for this agent. The others are
// hidden from the model, and a call to one anyway is refused with an error result instead of running.
import { ToolMessage } from "@langchain/core/messages";
import { createMiddleware } from "langchain";

export interface ToolAllowlistOptions {
  /** Names of the tools the agent may see and call. */
  allow: readonly string[];
}

/** The refusal the model gets for a tool outside the list. */
export function notAllowedMessage(toolName: string, allow: readonly string[]): string {
  return `Tool '${toolName}' is not allowed here. Allowed: ${allow.length > 0 ? allow.join(", ") : "none"}.`;
}

function toolName(tool: unknown): string | undefined {
  const name = (tool as { name?: unknown } | null)?.name;
  return typeof name === "string" ? name : undefined;
}

/** Hides tools outside `allow` from the model and refuses calls to them. */
export function toolAllowlistMiddleware(options: ToolAllowlistOptions) {
  const allowed = new Set(options.allow);
  const isAllowed = (name: string | undefined) => name !== undefined && allowed.has(name);
  return createMiddleware({
    name: "ToolAllowlistMiddleware",
    wrapModelCall: (request, handler) => {
      const tools = request.tools.filter((tool) => isAllowed(toolName(tool)));
      const forced = request.toolChoice;
      // A tool choice that names a hidden tool would make the provider refuse the request.
      const keepChoice = typeof forced !== "object" || isAllowed(forced.function.name);
      return handler({ ...request, tools, toolChoice: keepChoice ? forced : undefined });
    },
    wrapToolCall: (request, handler) => {
      const { name, id } = request.toolCall;
      if (isAllowed(name)) return handler(request);
      return new ToolMessage({
        content: notAllowedMessage(name, options.allow),
        tool_call_id: id ?? "",
        name,
        status: "error",
      });
    },
  });
}
