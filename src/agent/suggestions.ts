// Follow-up suggestions (DeerFlow's suggestions router): after a reply, one small model call proposes short questions
// the user might ask next, from the thread's latest visible messages. Never streamed, never saved.
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { HumanMessage, SystemMessage, type BaseMessage } from "@langchain/core/messages";
import { isUserMessage } from "./hidden-messages.ts";
import { internalCall } from "./internal-call.ts";
import { stripThinking, visibleText } from "./visible-text.ts";

/** How many questions are asked for, and the most shown. */
export const SUGGESTION_COUNT = 3;
/** How many of the latest visible messages the prompt quotes (DeerFlow's UI sends six). */
export const SUGGESTION_CONTEXT_MESSAGES = 6;
/** Each quoted message is cut to this many characters: the questions need the gist, not the whole reply. */
export const SUGGESTION_QUOTE_CHARS = 1_000;
/** The longest question kept; longer ones are dropped as not "short". */
export const SUGGESTION_MAX_CHARS = 200;
/** A slow model's suggestions come too late to help: abandoned after this. */
export const SUGGESTION_TIMEOUT_MS = 20_000;
/** Opens the system prompt; the mock model recognises its suggestions request by it. */
export const SUGGESTIONS_MARKER = "You propose follow-up questions for Fawn's user.";

/** The user's and the assistant's visible texts, the latest `limit` of them, oldest first. */
export function suggestionContext(
  messages: readonly BaseMessage[],
  limit = SUGGESTION_CONTEXT_MESSAGES,
): { role: "user" | "assistant"; text: string }[] {
  const visible: { role: "user" | "assistant"; text: string }[] = [];
  for (const message of messages) {
    const role = isUserMessage(message) ? "user" : message.type === "ai" ? "assistant" : undefined;
    const text = role && (role === "user" ? message.text.trim() : visibleText(message));
    if (role && text) visible.push({ role, text: Array.from(text).slice(0, SUGGESTION_QUOTE_CHARS).join("") });
  }
  return visible.slice(-limit);
}

/** The system prompt (instructions and the conversation) and the short user message that asks for the questions. */
export function suggestionsPrompt(
  context: readonly { role: "user" | "assistant"; text: string }[],
  count = SUGGESTION_COUNT,
): { system: string; user: string } {
  const transcript = context.map(({ role, text }) => `${role === "user" ? "User" : "Assistant"}: ${text}`).join("\n\n");
  return {
    system: [
      SUGGESTIONS_MARKER,
      `Read the conversation below and write ${count} questions the user is likely to ask next.`,
      "Each one follows from what was said, is written as the user would type it, in the user's language, and is",
      "short (about 15 words at most). No numbering, no Markdown, no commentary.",
      `Answer with a JSON array of ${count} strings and nothing else.`,
      "",
      "<conversation>",
      transcript,
      "</conversation>",
    ].join("\n"),
    user: `Write the ${count} follow-up questions now.`,
  };
}

/**
 * The questions in a model's answer: the JSON array of strings in it (thinking and code fences around it allowed),
 * each trimmed to one line, empty, overlong and repeated ones dropped, at most `count`. [] when there is none.
 */
export function parseSuggestions(output: string, count = SUGGESTION_COUNT): string[] {
  const text = stripThinking(output);
  const start = text.indexOf("[");
  const end = text.lastIndexOf("]");
  if (start < 0 || end <= start) return [];
  let data: unknown;
  try {
    data = JSON.parse(text.slice(start, end + 1));
  } catch {
    return [];
  }
  if (!Array.isArray(data)) return [];
  const questions: string[] = [];
  for (const item of data) {
    if (typeof item !== "string") continue;
    const question = item.replace(/\s+/g, " ").trim();
    if (!question || question.length > SUGGESTION_MAX_CHARS || questions.includes(question)) continue;
    questions.push(question);
  }
  return questions.slice(0, count);
}

/**
 * Follow-up questions for the conversation `messages`, from one call of `model` (which the caller limits to a few
 * hundred tokens). [] when there is no conversation yet, and on any failure: suggestions are never worth an error.
 */
export async function generateSuggestions(
  model: BaseChatModel,
  messages: readonly BaseMessage[],
  options: { count?: number; signal?: AbortSignal; timeoutMs?: number } = {},
): Promise<string[]> {
  const context = suggestionContext(messages);
  if (!context.some((message) => message.role === "assistant")) return [];
  const count = options.count ?? SUGGESTION_COUNT;
  const prompt = suggestionsPrompt(context, count);
  try {
    const reply = await internalCall(model, [new SystemMessage(prompt.system), new HumanMessage(prompt.user)], {
      timeoutMs: options.timeoutMs ?? SUGGESTION_TIMEOUT_MS,
      ...(options.signal && { signal: options.signal }),
    });
    return reply ? parseSuggestions(reply.text, count) : [];
  } catch {
    return [];
  }
}
