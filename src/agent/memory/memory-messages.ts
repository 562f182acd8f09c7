// The part of a thread the memory learns from: what the user wrote and the agent's final answers, as plain lines.
import type { BaseMessage } from "@langchain/core/messages";
import { isHiddenMessage } from "../hidden-messages.ts";
import { uploadedFilesOf, withoutUploadsBlock } from "../middlewares/upload-announcement.ts";
import { visibleText } from "../visible-text.ts";

/** Longer messages keep only their head and tail, this long each. */
const KEEP_EACH_END = 500;
const MAX_MESSAGE_CHARS = 2 * KEEP_EACH_END;
const TRUNCATED = "\n...[truncated]...\n";

/** Upload announcements anywhere in a message: ours (`<uploaded_files>`) and DeerFlow's (`<current_uploads>`). */
const UPLOAD_BLOCKS = /<(uploaded_files|current_uploads)>[\s\S]*?<\/\1>\n*/gi;

/**
 * True for DeerFlow's well-formed answer to a clarification question (`additional_kwargs.human_input_response`):
 * hidden from its UI, yet the user's own words, so worth remembering.
 */
export function isClarificationAnswer(message: BaseMessage): boolean {
  const response: unknown = message.additional_kwargs?.human_input_response;
  if (typeof response !== "object" || response === null) return false;
  const { version, kind, source, request_id, value, response_kind, option_id } = response as Record<string, unknown>;
  const filled = (field: unknown) => typeof field === "string" && field.trim() !== "";
  if (version !== 1 || kind !== "human_input_response") return false;
  if (!filled(source) || !filled(request_id) || !filled(value)) return false;
  return response_kind === "text" || (response_kind === "option" && filled(option_id));
}

/** True for a human message the user never wrote: our hidden reminders, DeerFlow's `hide_from_ui` ones. */
function isFrameworkMessage(message: BaseMessage): boolean {
  const hidden = isHiddenMessage(message) || message.additional_kwargs?.hide_from_ui === true;
  return hidden && !isClarificationAnswer(message);
}

function withoutUploads(text: string): string {
  return withoutUploadsBlock(text).replace(UPLOAD_BLOCKS, "").trim();
}

/** `text` with its middle cut out when it is over 1000 characters (whole code points kept). */
export function truncateForMemory(text: string): string {
  if (text.length <= MAX_MESSAGE_CHARS) return text;
  const points = Array.from(text);
  if (points.length <= MAX_MESSAGE_CHARS) return text;
  return points.slice(0, KEEP_EACH_END).join("") + TRUNCATED + points.slice(-KEEP_EACH_END).join("");
}

/**
 * The conversation as the memory model reads it: `User: …` and `Assistant: …` paragraphs separated by blank lines
 * (not escaped; the prompt escapes). Kept: what the user wrote (hidden reminders left out, except clarification
 * answers), without upload announcements, and the agent's final answers (no tool calls; text only, reasoning
 * removed). A turn that only uploaded files is left out together with the answer that follows it. Each message
 * over 1000 characters keeps its first and last 500. Empty when nothing is left.
 */
export function conversationForMemory(messages: readonly BaseMessage[]): string {
  const lines: string[] = [];
  let skipNextAnswer = false;
  for (const message of messages) {
    if (message.type === "human") {
      if (isFrameworkMessage(message)) continue;
      const raw = message.text;
      const text = withoutUploads(raw);
      if (!text) {
        skipNextAnswer = raw.trim() !== "" || uploadedFilesOf(message) !== undefined;
        continue;
      }
      skipNextAnswer = false;
      lines.push(`User: ${truncateForMemory(text)}`);
    } else if (message.type === "ai") {
      const calls = "tool_calls" in message && Array.isArray(message.tool_calls) ? message.tool_calls : [];
      if (calls.length > 0) continue;
      if (skipNextAnswer) {
        skipNextAnswer = false;
        continue;
      }
      const text = visibleText(message);
      if (text) lines.push(`Assistant: ${truncateForMemory(text)}`);
    }
  }
  return lines.join("\n\n");
}

/** What the user's latest messages say about the agent's work, as hints for the memory model. */
export interface MemorySignals {
  /** The user corrected the agent ("that's wrong", "try again", "不对"…). */
  correction: boolean;
  /** The user confirmed the agent got it right ("exactly", "perfect", "就是这样"…). */
  reinforcement: boolean;
}

const CORRECTION_HINTS = [
  /\bthat(?:'s|’s| is) (?:not right|wrong|incorrect)\b/i,
  /\b(?:you )?misunderstood\b/i,
  /\b(?:try|do it) again\b/i,
  /\bredo\b/i,
  /\bnot what i (?:asked|meant|wanted)\b/i,
  /不对|错了|理解错|重试|重新来|换一种|改用/,
];

const REINFORCEMENT_HINTS = [
  /\bexactly(?: right| what i (?:wanted|needed|meant))?\b/i,
  /\bperfect\b/i,
  /\bthat(?:'s|’s| is) (?:right|correct|it)\b/i,
  /\bkeep (?:doing )?(?:it|that) (?:up|way)\b/i,
  /就是这样|完全正确|就是这个意思|正是我想要的|继续保持/,
];

/** Correction and reinforcement hints in the user's messages among the last six of the thread. */
export function memorySignals(messages: readonly BaseMessage[]): MemorySignals {
  const texts = messages
    .slice(-6)
    .filter((message) => message.type === "human" && !isFrameworkMessage(message))
    .map((message) => withoutUploads(message.text));
  const found = (hints: readonly RegExp[]) => texts.some((text) => hints.some((hint) => hint.test(text)));
  return { correction: found(CORRECTION_HINTS), reinforcement: found(REINFORCEMENT_HINTS) };
}
