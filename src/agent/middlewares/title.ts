// Thread titles (DeerFlow's TitleMiddleware): when the first exchange of a thread ends, a short title from the
// title model, or from the user's first message when there is no model or it fails, goes to the `title` state.
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { HumanMessage, type BaseMessage } from "@langchain/core/messages";
import { StateSchema } from "@langchain/langgraph";
import { createMiddleware } from "langchain";
import { z } from "zod";
import { isUserMessage } from "../hidden-messages.ts";
import { internalCall } from "../internal-call.ts";
import { CLARIFICATION_TOOL_NAME } from "../../protocol/index.ts";
import { stripThinking, visibleText } from "../visible-text.ts";

export const TITLE_MAX_CHARS = 60;
export const TITLE_MAX_WORDS = 6;
/** How much of the user's message and of the answer the title prompt quotes. */
export const TITLE_PROMPT_CHARS = 500;
/** The longest user message kept whole as a fallback title; longer ones are cut and end with "...". */
export const FALLBACK_TITLE_WHOLE_CHARS = 50;
export const EMPTY_TITLE = "New conversation";
/** A title model that has not answered by then is abandoned for the fallback. */
export const TITLE_TIMEOUT_MS = 20_000;

/**
 * The text the user was answered with: an AI message's visible text, or the question of `ask_clarification`
 * (whose run ends on the tool's result, often after an AI message with no text).
 */
function answerText(message: BaseMessage): string {
  if (message.type === "ai") return visibleText(message);
  if (message.type === "tool" && message.name === CLARIFICATION_TOOL_NAME) return message.text.trim();
  return "";
}

function characters(text: string): string[] {
  return Array.from(text);
}

function cut(text: string, maxChars: number): string {
  const chars = characters(text);
  return chars.length <= maxChars ? text : chars.slice(0, maxChars).join("").trimEnd();
}

/**
 * True when the thread should get its title now: it has none, exactly one message from the user (hidden
 * reminders do not count), and an answer: an AI message with visible text, or an `ask_clarification` question.
 */
export function shouldGenerateTitle(
  messages: readonly BaseMessage[],
  existingTitle: string | null | undefined,
): boolean {
  if (existingTitle !== undefined && existingTitle !== null && existingTitle.trim() !== "") return false;
  if (messages.filter(isUserMessage).length !== 1) return false;
  return messages.some((message) => answerText(message) !== "");
}

/**
 * A title from the user's message alone: whitespace collapsed; kept whole up to min(maxChars, 50) characters,
 * otherwise cut so that it with "..." fits in `maxChars`; "New conversation" when there is no text.
 */
export function fallbackTitle(text: string, maxChars = TITLE_MAX_CHARS): string {
  const line = text.replace(/\s+/g, " ").trim();
  if (line === "") return EMPTY_TITLE;
  const length = characters(line).length;
  if (length <= Math.min(maxChars, FALLBACK_TITLE_WHOLE_CHARS)) return line;
  const keep = Math.max(1, Math.min(FALLBACK_TITLE_WHOLE_CHARS, maxChars - 3));
  return `${cut(line, keep)}...`;
}

const QUOTE_PAIRS: Record<string, string> = {
  '"': '"',
  "'": "'",
  "`": "`",
  "“": "”",
  "‘": "’",
  "«": "»",
  "「": "」",
  "『": "』",
};

function unwrap(title: string): string {
  let current = title;
  for (let round = 0; round < 5; round++) {
    let next = current
      .trim()
      .replace(/^#+\s*/, "")
      .replace(/^(\*\*|__|\*|_)+|(\*\*|__|\*|_)+$/g, "")
      .trim()
      .replace(/^title\s*[:：]\s*/i, "")
      .replace(/[.。]+$/, "")
      .trim();
    const close = QUOTE_PAIRS[next.charAt(0)];
    if (close !== undefined && next.length >= 2 && next.endsWith(close)) next = next.slice(1, -1).trim();
    if (next === current) break;
    current = next;
  }
  return current;
}

/**
 * The title in a model's answer: thinking removed, its first line without Markdown, a "Title:" label,
 * surrounding quotes or a trailing period, whitespace collapsed, cut to `maxChars`. Empty when nothing is left.
 */
export function cleanTitle(modelOutput: string, maxChars = TITLE_MAX_CHARS): string {
  const line =
    stripThinking(modelOutput)
      .split("\n")
      .map((part) => part.trim())
      .find((part) => part !== "") ?? "";
  return cut(unwrap(line).replace(/\s+/g, " "), maxChars);
}

/**
 * The prompt that asks the title model for a title, quoting the first 500 characters of each side. A user's own
 * `template` (Settings → Models → "Summaries and titles") has `{user_msg}`, `{assistant_msg}` and `{max_words}`
 * filled in, each quote still marked as the conversation's text.
 */
export function titlePrompt(
  userText: string,
  answerText: string,
  maxWords = TITLE_MAX_WORDS,
  template?: string,
): string {
  const quote = (text: string) => characters(text.trim()).slice(0, TITLE_PROMPT_CHARS).join("");
  if (template) {
    const values: Record<string, string> = {
      user_msg: `<user_message>\n${quote(userText)}\n</user_message>`,
      assistant_msg: `<assistant_answer>\n${quote(answerText)}\n</assistant_answer>`,
      max_words: String(maxWords),
    };
    // One pass: a quoted message that contains "{max_words}" is not filled in again.
    return template.replace(/\{(user_msg|assistant_msg|max_words)\}/g, (_match, name: string) => values[name]!);
  }
  return [
    `Write a short title for this conversation: at most ${maxWords} words, in the language the user wrote in.`,
    "Name the topic, not the conversation. Reply with the title alone, with no quotes, no period and no explanation.",
    "",
    "<user_message>",
    quote(userText),
    "</user_message>",
    "",
    "<assistant_answer>",
    quote(answerText),
    "</assistant_answer>",
  ].join("\n");
}

export interface TitleOptions {
  /** The model that writes titles; without one, the title is the user's first message (DeerFlow's default). */
  model?: BaseChatModel;
  /** Longest title, 10–200 characters; default 60. */
  maxChars?: number;
  /** Most words asked of the model, 1–20; default 6. */
  maxWords?: number;
  /** The user's own prompt with `{user_msg}`, `{assistant_msg}`, `{max_words}`; default Fawn's (titlePrompt). */
  prompt?: string;
  /** Default TITLE_TIMEOUT_MS. */
  timeoutMs?: number;
  /** Told the title once it is chosen, before the state update lands; must not throw. */
  onTitle?: (title: string) => void;
}

function clamp(value: number | undefined, fallback: number, min: number, max: number): number {
  if (value === undefined || !Number.isFinite(value)) return fallback;
  return Math.min(max, Math.max(min, Math.round(value)));
}

/**
 * The title for a thread's first exchange: the model's answer cleaned, or `fallbackTitle` of the user's message
 * when there is no model, it fails, or it answers nothing usable. The model's call is an `internalCall`, so its
 * tokens never reach the run's `messages` stream.
 */
export async function generateTitle(
  messages: readonly BaseMessage[],
  options: TitleOptions & { signal?: AbortSignal } = {},
): Promise<string> {
  const maxChars = clamp(options.maxChars, TITLE_MAX_CHARS, 10, 200);
  const maxWords = clamp(options.maxWords, TITLE_MAX_WORDS, 1, 20);
  const user = messages.find(isUserMessage);
  const userText = user?.text ?? "";
  const fallback = fallbackTitle(userText, maxChars);
  if (!options.model) return fallback;
  const answer = messages.map(answerText).findLast((text) => text !== "") ?? "";
  try {
    const response = await internalCall(
      options.model,
      [new HumanMessage(titlePrompt(userText, answer, maxWords, options.prompt))],
      {
        timeoutMs: options.timeoutMs ?? TITLE_TIMEOUT_MS,
        ...(options.signal && { signal: options.signal }),
      },
    );
    if (!response) return fallback;
    return cleanTitle(response.text, maxChars) || fallback;
  } catch {
    return fallback;
  }
}

const titleState = new StateSchema({
  title: z.string().optional(),
});

/** Adds `title` to the agent's state and sets it once, after the first exchange of the thread. */
export function titleMiddleware(options: TitleOptions = {}) {
  return createMiddleware({
    name: "TitleMiddleware",
    stateSchema: titleState,
    afterAgent: async (state, runtime) => {
      if (!shouldGenerateTitle(state.messages, state.title)) return undefined;
      const title = await generateTitle(state.messages, {
        ...options,
        ...(runtime.signal && { signal: runtime.signal }),
      });
      options.onTitle?.(title);
      return { title };
    },
  });
}
