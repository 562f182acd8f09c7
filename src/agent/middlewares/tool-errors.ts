// DeerFlow's ToolErrorHandlingMiddleware on langchain's own `toolErrorMiddleware`: a tool that throws answers its
// call with an error ToolMessage (`Error: <message>`), so the model sees it and the run goes on. A cancelled run's
// error still propagates, and langchain passes LangGraph's interrupts and commands through untouched.
import { toolErrorMiddleware } from "langchain";
import { truncateMiddle } from "../tools/output-limits.ts";

/** The longest error text a tool result carries. */
export const TOOL_ERROR_MAX_CHARS = 2_000;

export interface ToolErrorOptions {
  /** Default TOOL_ERROR_MAX_CHARS. */
  maxChars?: number;
}

/** True when the error means the run was cancelled: the run's signal is aborted, or it is an AbortError. */
export function isCancellation(error: unknown, signal?: AbortSignal): boolean {
  if (signal?.aborted) return true;
  return typeof error === "object" && error !== null && (error as { name?: unknown }).name === "AbortError";
}

/** A JavaScript stack frame line ("    at f (file.js:1:2)"), which a message may carry along. */
const STACK_FRAME = /^\s*at\s+\S.*(?:\(.*\)|:\d+:\d+)\s*$/;

/** The error's message for the model: no stack frames, `Error: ` first, middle-truncated to `maxChars`. */
export function toolErrorContent(error: unknown, maxChars = TOOL_ERROR_MAX_CHARS): string {
  let message: string;
  if (error instanceof Error) message = error.message || error.name;
  else if (typeof error === "string") message = error;
  else {
    try {
      message = JSON.stringify(error) ?? String(error);
    } catch {
      message = String(error);
    }
  }
  const lines = message.split("\n").filter((line) => !STACK_FRAME.test(line));
  const text = lines.join("\n").trim() || "The tool failed without saying why.";
  return truncateMiddle(`Error: ${text}`, maxChars);
}

/** Turns tool exceptions into error ToolMessages; put it before the middlewares whose tool calls it should cover. */
export function toolErrorsMiddleware(options: ToolErrorOptions = {}) {
  const maxChars = options.maxChars ?? TOOL_ERROR_MAX_CHARS;
  return {
    ...toolErrorMiddleware({
      onError: (error, request) =>
        isCancellation(error, request.runtime.signal) ? undefined : toolErrorContent(error, maxChars),
    }),
    name: "ToolErrorHandlingMiddleware",
  };
}
