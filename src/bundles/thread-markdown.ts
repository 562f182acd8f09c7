// A thread as a readable Markdown transcript: its messages, tool calls and results in brief, its plan and its files.
import {
  contentText,
  type MessageContent,
  type ThreadDetail,
  type TodoItem,
  type WireMessage,
} from "../protocol/index.ts";
import { formatBytes } from "../shared/text.ts";

const ARGS_MAX_CHARS = 300;
const DESCRIPTION_MAX_CHARS = 200;
const RESULT_MAX_LINES = 8;
const RESULT_MAX_CHARS = 600;

function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

function cap(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1).trimEnd()}…` : text;
}

function longestBacktickRun(text: string): number {
  return Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
}

/** Inline code no backtick inside can end early (CommonMark: a longer run, spaced off a backtick at either end). */
function code(text: string): string {
  const flat = oneLine(text);
  const ticks = "`".repeat(longestBacktickRun(flat) + 1);
  const pad = flat.startsWith("`") || flat.endsWith("`") ? " " : "";
  return `${ticks}${pad}${flat}${pad}${ticks}`;
}

/** A fenced block whose fence is longer than any backtick run inside, so no line of the text can close it. */
function fenced(text: string, info = ""): string {
  const fence = "`".repeat(Math.max(3, longestBacktickRun(text) + 1));
  return `${fence}${info}\n${text}\n${fence}`;
}

/**
 * Model text with any code fence it leaves open closed at its end: an unclosed fence would otherwise swallow the
 * rest of the transcript (CommonMark: a closing fence is the same character, at least as long, and nothing after).
 */
function closeFences(text: string): string {
  let open: string | undefined;
  for (const line of text.split("\n")) {
    const fence = /^ {0,3}(`{3,}|~{3,})(.*)$/.exec(line);
    if (!fence) continue;
    const [, marks = "", rest = ""] = fence;
    if (open === undefined) {
      if (!(marks.startsWith("`") && rest.includes("`"))) open = marks;
    } else if (marks[0] === open[0] && marks.length >= open.length && rest.trim() === "") {
      open = undefined;
    }
  }
  return open === undefined ? text : `${text}\n${open}`;
}

function textBlock(content: MessageContent): string[] {
  const text = contentText(content).trim();
  const images = typeof content === "string" ? 0 : content.filter((part) => part.type === "image_url").length;
  return [
    ...(text ? [closeFences(text)] : []),
    ...(images > 0 ? [`_(${images} ${images === 1 ? "image" : "images"})_`] : []),
  ];
}

function toolCallBlock(name: string, args: Record<string, unknown>): string[] {
  const { description, ...rest } = args;
  const about =
    typeof description === "string" && oneLine(description)
      ? `: ${cap(oneLine(description), DESCRIPTION_MAX_CHARS)}`
      : "";
  const json = Object.keys(rest).length > 0 ? JSON.stringify(rest) : "";
  return [`**Tool call** ${code(name)}${about}`, ...(json ? [fenced(cap(json, ARGS_MAX_CHARS), "json")] : [])];
}

function excerpt(text: string): string {
  const lines = text.trim().split("\n");
  const head = cap(lines.slice(0, RESULT_MAX_LINES).join("\n"), RESULT_MAX_CHARS);
  return lines.length > RESULT_MAX_LINES && !head.endsWith("…") ? `${head}\n…` : head;
}

function messageBlocks(message: WireMessage): string[] {
  switch (message.type) {
    case "human": {
      const files = (message.files ?? []).map((file) => `${code(file.filename)} (${formatBytes(file.size)})`);
      return [...textBlock(message.content), ...(files.length > 0 ? [`Attached: ${files.join(", ")}`] : [])];
    }
    case "ai":
      return [
        ...textBlock(message.content),
        ...(message.tool_calls ?? []).flatMap((call) => toolCallBlock(call.name, call.args)),
      ];
    case "tool": {
      const label = `**Result** of ${code(message.name ?? "tool")}${message.status === "error" ? " (error)" : ""}`;
      const text = contentText(message.content).trim();
      return text ? [`${label}:`, fenced(excerpt(text))] : [`${label}: _(empty)_`];
    }
    case "system":
      // The agent's own context (e.g. the list of uploads), not part of the conversation.
      return [];
  }
}

function planItem({ content, status }: TodoItem): string {
  const mark = status === "completed" ? "[x]" : "[ ]";
  return `- ${mark} ${oneLine(content)}${status === "in_progress" ? " _(in progress)_" : ""}`;
}

/**
 * The thread as Markdown: `# title`, when it was created (UTC), each message under a `## User` or `## Assistant`
 * heading when the speaker changes (tool calls named with their `description`, arguments and results cut short),
 * run errors as quoted notes, then `## Plan` and `## Files` (sizes, and which files were presented). Deterministic:
 * the same thread and files give the same text. Model text is kept as Markdown, but code fences it leaves open are
 * closed and excerpts are fenced past any backtick run inside, so no message swallows the rest of the document.
 */
export function threadToMarkdown(detail: ThreadDetail, files: readonly { path: string; size: number }[]): string {
  const blocks = [`# ${oneLine(detail.title) || "Untitled thread"}`];
  const created = new Date(detail.created_at);
  if (Number.isFinite(created.getTime()))
    blocks.push(`Created ${created.toISOString().slice(0, 16).replace("T", " ")} UTC`);

  let speaker: "User" | "Assistant" | undefined;
  for (const entry of detail.entries) {
    if (entry.kind === "error") {
      blocks.push(`> **Run error:** ${oneLine(entry.error.message)}`);
      continue;
    }
    const body = messageBlocks(entry.message);
    if (entry.stopped) body.push("_(stopped)_");
    if (body.length === 0) continue;
    const next = entry.message.type === "human" ? "User" : "Assistant";
    if (next !== speaker) blocks.push(`## ${next}`);
    speaker = next;
    blocks.push(...body);
  }

  const todos = detail.todos ?? [];
  if (todos.length > 0) blocks.push("## Plan", todos.map(planItem).join("\n"));

  if (files.length > 0) {
    const presented = new Set(detail.artifacts ?? []);
    const lines = [...files]
      .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
      .map(
        (file) => `- ${code(file.path)} (${formatBytes(file.size)})${presented.has(file.path) ? " — presented" : ""}`,
      );
    blocks.push("## Files", lines.join("\n"));
  }
  return `${blocks.join("\n\n")}\n`;
}
