// A DeerFlow thread (thread.json and the files of its user-data folder) as what Fawn stores for a thread: its
// messages as wire messages, its presented files, its plan and its files at their virtual paths. Everything is
// checked here, before anything is written (docs/architecture.md#d8-bundles).
import {
  CANCELLED_ON_IMPORT,
  DEERFLOW_IMPORT_LIMITS,
  tooLargeImport,
  tooManyImportFiles,
  type ContentPart,
  type MessageContent,
  type TodoItem,
  unansweredToolCalls,
  type UploadedFileRef,
  type WireMessage,
} from "../protocol/index.ts";
import { newId } from "../shared/ids.ts";
import { splitInlineThinking } from "../shared/text.ts";
import { threadFilePathProblem, THREAD_FILES_ROOT } from "../storage/index.ts";
import { DeerFlowImportError, parseDeerFlowThread, type DeerFlowMessage } from "./deerflow-thread.ts";

/** How much one import may bring: files and their bytes in all (thread.json not counted). */

const OUTPUTS_PREFIX = `${THREAD_FILES_ROOT}outputs/`;
const TITLE_MAX_CHARS = 200;

export interface DeerFlowImportInput {
  /** The parsed thread.json. */
  thread: unknown;
  /**
   * The thread's files, by their path in DeerFlow's thread folder (`user-data/outputs/report.md`) or their virtual
   * path (`/mnt/user-data/outputs/report.md`); only workspace, uploads and outputs.
   */
  files: { path: string; bytes: Uint8Array }[];
}

/** What to store for the imported thread. */
export interface DeerFlowImportPlan {
  /** DeerFlow's id for the thread, when the file names one (kept if it is valid and free). */
  sourceThreadId?: string;
  /** DeerFlow's title, cleaned; absent when it has none. */
  title?: string;
  createdAt?: number;
  messages: WireMessage[];
  /** The presented files, by virtual path under /mnt/user-data/outputs, that are among `files`. */
  artifacts: string[];
  todos: TodoItem[];
  /** The files at their virtual paths. */
  files: { path: string; bytes: Uint8Array }[];
}

/** The virtual path of a file of DeerFlow's thread folder, or a sentence saying why it cannot be imported. */
export function virtualPathOf(path: string): { path: string } | { error: string } {
  const virtual = path.startsWith(THREAD_FILES_ROOT)
    ? path
    : path.startsWith("user-data/")
      ? `/mnt/${path}`
      : undefined;
  const problem =
    virtual === undefined
      ? "only files under user-data/workspace, user-data/uploads and user-data/outputs can be imported"
      : threadFilePathProblem(virtual);
  if (problem !== undefined || virtual === undefined) {
    return { error: `The file ${JSON.stringify(path)} cannot be imported: ${problem}.` };
  }
  return { path: virtual };
}

function checkFiles(files: unknown): { path: string; bytes: Uint8Array }[] {
  if (!Array.isArray(files)) throw new DeerFlowImportError("The thread's files should be a list.");
  if (files.length > DEERFLOW_IMPORT_LIMITS.max_files) {
    throw new DeerFlowImportError(tooManyImportFiles(files.length));
  }
  let total = 0;
  const seen = new Set<string>();
  const checked: { path: string; bytes: Uint8Array }[] = [];
  for (const file of files as unknown[]) {
    const { path, bytes } = (typeof file === "object" && file !== null ? file : {}) as Record<string, unknown>;
    if (typeof path !== "string" || !(bytes instanceof Uint8Array)) {
      throw new DeerFlowImportError("Each of the thread's files should have a path and its bytes.");
    }
    const mapped = virtualPathOf(path);
    if ("error" in mapped) throw new DeerFlowImportError(mapped.error);
    if (seen.has(mapped.path)) throw new DeerFlowImportError(`The file ${JSON.stringify(path)} is there twice.`);
    seen.add(mapped.path);
    total += bytes.byteLength;
    checked.push({ path: mapped.path, bytes });
  }
  if (total > DEERFLOW_IMPORT_LIMITS.max_total_size) {
    throw new DeerFlowImportError(tooLargeImport(total));
  }
  return checked;
}

/** Text and image parts of DeerFlow's content, and the reasoning its `thinking`/`reasoning` blocks carry. */
function readContent(content: string | unknown[]): { content: MessageContent; reasoning: string } {
  if (typeof content === "string") return { content, reasoning: "" };
  const parts: ContentPart[] = [];
  let reasoning = "";
  for (const block of content) {
    if (typeof block === "string") {
      parts.push({ type: "text", text: block });
      continue;
    }
    if (typeof block !== "object" || block === null) continue;
    const part = block as Record<string, unknown>;
    if (part.type === "text" && typeof part.text === "string") parts.push({ type: "text", text: part.text });
    else if (part.type === "image_url") {
      const url = typeof part.image_url === "string" ? part.image_url : (part.image_url as { url?: unknown })?.url;
      if (typeof url === "string") parts.push({ type: "image_url", image_url: { url } });
    } else if (part.type === "thinking" && typeof part.thinking === "string") reasoning += part.thinking;
    else if (part.type === "reasoning" && typeof part.reasoning === "string") reasoning += part.reasoning;
  }
  // Text alone reads as one string, as Fawn's own messages are stored.
  const textOnly = parts.every((part) => part.type === "text");
  return {
    content: textOnly ? parts.map((part) => (part.type === "text" ? part.text : "")).join("") : parts,
    reasoning,
  };
}

/** DeerFlow's `additional_kwargs.files` (`{filename, size, path}`) as the chips of a user message. */
function filesOf(kwargs: Record<string, unknown> | null | undefined): UploadedFileRef[] {
  const files = kwargs?.files;
  if (!Array.isArray(files)) return [];
  return files.flatMap((file: unknown) => {
    const { filename, size, path, virtual_path } = (typeof file === "object" && file !== null ? file : {}) as Record<
      string,
      unknown
    >;
    const where = typeof path === "string" ? path : virtual_path;
    if (typeof filename !== "string" || typeof where !== "string") return [];
    return [{ filename, size: typeof size === "number" ? size : 0, virtual_path: where }];
  });
}

function jsonCopy(value: unknown): unknown {
  return value === undefined ? undefined : (JSON.parse(JSON.stringify(value)) as unknown);
}

/** One DeerFlow message as a wire message; undefined for the ones DeerFlow never shows nor Fawn keeps. */
function toWire(message: DeerFlowMessage, id: string): WireMessage | undefined {
  const kwargs = message.additional_kwargs ?? {};
  const { content, reasoning: blockReasoning } = readContent(message.content);
  switch (message.type) {
    case "human": {
      // DeerFlow's hidden reminders (e.g. the images view_image shows the model) were never the user's words.
      if (kwargs.hide_from_ui === true) return undefined;
      const files = filesOf(kwargs);
      return { type: "human", id, content, ...(files.length > 0 && { files }) };
    }
    case "system":
      return { type: "system", id, content };
    case "tool": {
      const artifact = message.artifact === null ? undefined : jsonCopy(message.artifact);
      return {
        type: "tool",
        id,
        content,
        tool_call_id: message.tool_call_id,
        ...(message.name ? { name: message.name } : {}),
        ...(message.status ? { status: message.status } : {}),
        ...(artifact !== undefined && { artifact }),
      };
    }
    case "ai":
    case "AIMessageChunk": {
      let text = content;
      let reasoning = typeof kwargs.reasoning_content === "string" ? kwargs.reasoning_content : blockReasoning;
      // Models that think inline start their text with <think>…</think> (DeerFlow shows it as reasoning too).
      if (typeof text === "string") {
        const inline = splitInlineThinking(text);
        reasoning = reasoning || (inline.reasoning ?? "");
        text = inline.text;
      }
      const toolCalls = (message.tool_calls ?? []).map((call) => ({
        id: call.id ?? newId(),
        name: call.name,
        args: (jsonCopy(call.args ?? {}) ?? {}) as Record<string, unknown>,
      }));
      const usage = message.usage_metadata;
      const meta = message.response_metadata;
      return {
        type: "ai",
        id,
        content: text,
        ...(reasoning && { reasoning }),
        ...(toolCalls.length > 0 && { tool_calls: toolCalls }),
        ...(usage && {
          usage_metadata: {
            input_tokens: usage.input_tokens,
            output_tokens: usage.output_tokens,
            total_tokens: usage.total_tokens,
          },
        }),
        ...(meta && Object.keys(meta).length > 0 && { response_metadata: jsonCopy(meta) as Record<string, unknown> }),
      };
    }
  }
}

function cleanTitle(title: string | null | undefined): string | undefined {
  const clean = (title ?? "").replace(/\s+/g, " ").trim();
  if (clean.length === 0) return undefined;
  return clean.length > TITLE_MAX_CHARS ? `${clean.slice(0, TITLE_MAX_CHARS - 1).trimEnd()}…` : clean;
}

/**
 * Checks a DeerFlow thread whole — thread.json's schema, the files' paths (only under user-data/{workspace,uploads,
 * outputs}, no `.` or `..`), their count and size (DEERFLOW_IMPORT_LIMITS), the presented files' paths — and maps it
 * to what Fawn stores. Messages keep their ids (a missing or repeated id gets a new one); DeerFlow's hidden messages
 * are left out; presented files not among `files` are left out too, so the Artifacts panel lists only files it can
 * show. A tool call the thread ends on without a result is closed as cancelled (CANCELLED_ON_IMPORT), never run.
 * Throws a DeerFlowImportError with one sentence naming the first problem.
 */
export function planDeerFlowImport(input: DeerFlowImportInput): DeerFlowImportPlan {
  if (typeof input !== "object" || input === null) {
    throw new DeerFlowImportError("An import is a thread.json and the thread's files.");
  }
  const thread = parseDeerFlowThread(input.thread);
  const files = checkFiles(input.files);
  const { values } = thread;

  const paths = new Set(files.map((file) => file.path));
  const artifacts: string[] = [];
  for (const path of values.artifacts ?? []) {
    const problem =
      threadFilePathProblem(path) ??
      (path.startsWith(OUTPUTS_PREFIX) ? undefined : `only files under ${OUTPUTS_PREFIX} can be presented`);
    if (problem !== undefined) {
      throw new DeerFlowImportError(`The presented file ${JSON.stringify(path)} cannot be imported: ${problem}.`);
    }
    if (paths.has(path) && !artifacts.includes(path)) artifacts.push(path);
  }

  const ids = new Set<string>();
  const messages: WireMessage[] = [];
  for (const message of values.messages) {
    const id = message.id && !ids.has(message.id) ? message.id : newId();
    ids.add(id);
    const wire = toWire(message, id);
    if (wire) messages.push(wire);
  }
  // Calls the thread ends on without a result were DeerFlow's model's: they are closed here, never run.
  for (const call of unansweredToolCalls(messages)) {
    messages.push({
      type: "tool",
      id: newId(),
      content: CANCELLED_ON_IMPORT,
      tool_call_id: call.id,
      name: call.name,
      status: "error",
    });
  }

  const title = cleanTitle(values.title);
  return {
    ...(thread.threadId !== undefined && { sourceThreadId: thread.threadId }),
    ...(title !== undefined && { title }),
    ...(thread.createdAt !== undefined && { createdAt: thread.createdAt }),
    messages,
    artifacts,
    todos: (values.todos ?? []).map(({ content, status }) => ({ content, status })),
    files,
  };
}
