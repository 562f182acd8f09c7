// The text of a model's answer as the user sees it: text blocks only, with any `<think>` reasoning taken out.
import type { BaseMessage } from "@langchain/core/messages";

/** `text` without `<think>…</think>` blocks, an unclosed `<think>` tail, or reasoning before a lone `</think>`. */
export function stripThinking(text: string): string {
  let visible = text.replace(/<think>[\s\S]*?<\/think>/gi, "");
  const open = visible.search(/<think>/i);
  if (open >= 0) visible = visible.slice(0, open);
  const close = visible.search(/<\/think>/i);
  if (close >= 0) visible = visible.slice(close + "</think>".length);
  return visible.trim();
}

/** The message's text blocks (reasoning, images and tool calls left out), without thinking, trimmed. */
export function visibleText(message: BaseMessage): string {
  return stripThinking(message.text);
}
