// DeerFlow's ToolErrorHandlingMiddleware on langchain's own `toolErrorMiddleware`: a tool that throws answers its
// call with an error ToolMessage (`Error: <message>`), so the model sees it and the run goes on. A cancelled run's
// error and a full storage's (which ends the run with its sentence) still propagate, and langchain passes LangGraph's interrupts and commands through untouched.
import { toolErrorMiddleware } from "langchain";
import { secretRedactor } from "../../shared/redact.ts";
import { isQuotaError } from "../../storage/index.ts";
import { truncateMiddle } from "../tools/output-limits.ts";

/** The longest error text a tool result carries. */
export const TOOL_ERROR_MAX_CHARS = 2_000;

export interface ToolErrorOptions {
  /** Default TOOL_ERROR_MAX_CHARS. */
  maxChars?: number;
  /** Stored API keys: never in an error's text (a service may echo the key it was sent). */
  secrets?: readonly string[];
}

/** True when the error means the run was cancelled: the run's signal is aborted, or it is an AbortError. */
export function isCancellation(error: unknown, signal?: AbortSignal): boolean {
  if (signal?.aborted) return true;
  return typeof error === "object" && error !== null && (error as { name?: unknown }).name === "AbortError";
}

/** A JavaScript stack frame line ("    at f (file.js:1:2)"), which a message may carry along. */
const STACK_FRAME = /^\s*at\s+\S.*(?:\(.*\)|:\d+:\d+)\s*$/;

/**
 * The error's message for the model: no stack frames, no `secrets` (each replaced by `[redacted key]`), `Error: `
 * first, middle-truncated to `maxChars`.
 */
export function toolErrorContent(
  error: unknown,
  maxChars = TOOL_ERROR_MAX_CHARS,
  secrets: readonly string[] = [],
): string {
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
  // Redacted before truncation, so a key cut in half by the truncation is still found whole.
  const text = secretRedactor(secrets)(lines.join("\n").trim()) || "The tool failed without saying why.";
  return truncateMiddle(`Error: ${text}`, maxChars);
}

/** Turns tool exceptions into error ToolMessages; put it before the middlewares whose tool calls it should cover. */
export function toolErrorsMiddleware(options: ToolErrorOptions = {}) {
  const maxChars = options.maxChars ?? TOOL_ERROR_MAX_CHARS;
  const secrets = options.secrets ?? [];
  return {
    ...toolErrorMiddleware({
      onError: (error, request) =>
        // A full storage ends the run with the storage-full sentence (run-executor.ts): nothing more could be saved.
        isCancellation(error, request.runtime.signal) || isQuotaError(error)
          ? undefined
          : toolErrorContent(error, maxChars, secrets),
    }),
    name: "ToolErrorHandlingMiddleware",
  };
}
