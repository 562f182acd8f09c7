// What Copy puts on the clipboard: a reply's Markdown source, and a rendered code block's code.
import { contentText, type MessageContent } from "../../protocol/index.ts";

/**
 * What Copy puts on the clipboard for a message with `content`: its text parts as written (Markdown source, code
 * fences and all), without the blank lines or spaces around them; images and other parts have no text to copy.
 */
export function messageCopyText(content: MessageContent): string {
  return contentText(content).trim();
}
