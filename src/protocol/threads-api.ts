// The threads domain's contract (`gateway.threads`): a thread's summary and detail, its replay, search and files.
import type { MessageFeedback } from "./feedback-api.ts";
import type { ForeignContent } from "./foreign-content.ts";
import type { WireMessage } from "./messages.ts";
import type { RunError } from "./run-events.ts";
import type { UploadListEntry, UploadResult } from "./uploads.ts";
import type { SandboxLogEntry } from "./sandbox-log.ts";

export type ThreadStatus = "idle" | "busy" | "error";

export interface ThreadSummary {
  thread_id: string;
  title: string;
  created_at: number;
  updated_at: number;
  status: ThreadStatus;
  /** Pinned threads are listed first. */
  pinned?: boolean;
  /**
   * A thread imported from a bundle or a link: it is read and replayed, not replied to; "Continue this thread"
   * copies it into a thread of the user's own, which runs on the user's model.
   */
  read_only?: boolean;
  /**
   * The checkpoint the thread shows and continues from, when the user moved to a version that is not the latest
   * (Previous/Next version); absent: the latest. Kept across reloads: the thread opens on the branch last shown.
   */
  head?: string;
  /**
   * The thread holds another person's messages ("Continue this thread", a DeerFlow import): they reach the model as a
   * quoted transcript, memory is off here unless turned on, and tools that send data out ask first.
   */
  foreign?: ForeignContent;
  /** Tools the user answered "Allow for this thread" for: they no longer ask in this thread. */
  approved_tools?: string[];
  /** The custom agent the thread talks to (an AgentRecord's name); absent: the lead agent (Fawn). */
  agent?: string;
}

/** Why an imported thread takes no new message. */
export const READ_ONLY_THREAD =
  "This thread was imported to be read: choose Continue this thread to reply in a copy of your own.";

/** One item of a thread's history as the user sees it. */
export type ThreadEntry =
  | { kind: "message"; message: WireMessage; stopped?: boolean }
  | { kind: "error"; id: string; error: RunError; at: number };

export interface ThreadDetail extends ThreadSummary {
  entries: ThreadEntry[];
  /** Files the agent presented (`present_files`), by virtual path under /mnt/user-data/outputs, in order. */
  artifacts?: string[];
  /** The agent's latest plan (plan mode), as of the last checkpoint. */
  todos?: TodoItem[];
  /** The versions of user messages (edits) and of replies (regenerations), by the id of the turn's user message. */
  versions?: Record<string, TurnVersions>;
  /** The last run was cut off (page closed, crash, network) before it finished: "Continue" resumes it. */
  resumable?: boolean;
  /** The user's rating of each rated reply, by message id ("Good reply" / "Bad reply"). */
  feedback?: Record<string, MessageFeedback>;
}

/** Where one version stands among its siblings, and the runs "Previous version" and "Next version" show. */
export interface VersionChoice {
  /** 1-based. */
  index: number;
  count: number;
  previous?: string;
  next?: string;
}

/** A turn's versions: of its user message (edits) and of its reply (regenerations of the same message). */
export interface TurnVersions {
  prompt?: VersionChoice;
  reply?: VersionChoice;
}

/** A thread's saved steps, oldest first, for replaying it; each step names its messages by id. */
export interface ThreadReplay {
  /** Every message some step shows, as last saved. */
  messages: WireMessage[];
  steps: ReplayStep[];
}

/** What the thread showed after one saved step: its messages, plan and presented files. */
export interface ReplayStep {
  message_ids: string[];
  todos: TodoItem[];
  artifacts: string[];
}

// Thread search: what the Gateway answers for a query over thread titles and message text.

/** `[start, end)` character ranges of a text that match the query, for marking them. */
export type TextHighlights = [number, number][];

export interface ThreadSearchHit {
  thread: ThreadSummary;
  /** Where the query's words are in the title. */
  title_highlights: TextHighlights;
  /** A short passage of the thread's messages around the first match, when its messages match. */
  snippet?: { text: string; highlights: TextHighlights };
}

export interface ThreadSearchResult {
  query: string;
  /** Matching threads in the list's order (pinned first, then by recent activity), at most the limit asked for. */
  hits: ThreadSearchHit[];
  /** How many threads match in all. */
  total: number;
  /** Older threads are still being indexed: their messages may match once that is done. */
  indexing: boolean;
}

/** The most hits one search returns. */
export const MAX_THREAD_SEARCH_LIMIT = 200;

/**
 * The header Fawn's file route (`GET /api/fawn/threads/{id}/files`) names a file's stored MIME type in; its body is
 * sent as `application/octet-stream`.
 */
export const FAWN_MIME_TYPE_HEADER = "x-fawn-mime-type";

/** One of a thread's files, for download or preview. */
export interface ThreadFileContent {
  path: string;
  bytes: Uint8Array;
  mime_type: string;
}

/** An edit of a text file in the thread's outputs, saved only over the text the editor opened. */
export interface FileEdit {
  path: string;
  /** The file's new text. */
  content: string;
  /** Lowercase hex SHA-256 of the bytes the editor opened. */
  expectedSha256: string;
}

export interface SavedFileEdit {
  path: string;
  sha256: string;
  size: number;
}

/** One item of the agent's plan (plan mode's `write_todos`). */
export interface TodoItem {
  content: string;
  status: "pending" | "in_progress" | "completed";
}

/** True for a well-formed plan item (checkpoints and run events are read as untrusted data). */
export function isTodoItem(value: unknown): value is TodoItem {
  if (typeof value !== "object" || value === null) return false;
  const { content, status } = value as Record<string, unknown>;
  return typeof content === "string" && (status === "pending" || status === "in_progress" || status === "completed");
}

export interface ThreadsApi {
  list(): Promise<ThreadSummary[]>;
  /** Creates a thread, with the given id when there is one (DeerFlow's rule: 1–64 of `A-Za-z0-9_-`). */
  create(options?: { thread_id?: string }): Promise<ThreadSummary>;
  get(threadId: string): Promise<ThreadDetail | undefined>;
  /** Renames a thread; the title is trimmed, 1 to 200 characters. */
  rename(threadId: string, title: string): Promise<ThreadSummary>;
  /** Pins or unpins a thread; pinned threads come first in the list. */
  pin(threadId: string, pinned: boolean): Promise<ThreadSummary>;
  delete(threadId: string): Promise<void>;
  /**
   * Threads whose title or messages hold every word of `query` (case-insensitive; a word matches the start of a word
   * in the messages, anywhere in the title), in the list's order, with a passage around the match (limit: 50, at
   * most 200).
   */
  search(query: string, options?: { limit?: number }): Promise<ThreadSearchResult>;
  /**
   * A file of the thread (workspace, uploads or outputs), or of a shared thread being read (its reading id); rejects
   * with a readable message when there is none.
   */
  readFile(threadId: string, path: string): Promise<ThreadFileContent>;
  /**
   * Stores files in the thread's /mnt/user-data/uploads (PDF, DOCX, XLSX and PPTX also as Markdown beside them).
   * An upload over a limit, or with a bad name, is refused whole with a readable message; nothing is written.
   */
  upload(threadId: string, files: { name: string; bytes: Uint8Array }[]): Promise<UploadResult>;
  /**
   * Saves an edit of a UTF-8 text file in the thread's /mnt/user-data/outputs (at most 2 MB). Refused with a readable
   * message, nothing written: another path, a `.skill` archive, binary or too large text, a running thread, or a file
   * that is no longer the text the editor opened (`expectedSha256`).
   */
  editFile(threadId: string, edit: FileEdit): Promise<SavedFileEdit>;
  /** The files in the thread's /mnt/user-data/uploads, sorted by name (subfolders left out). */
  listUploads(threadId: string): Promise<UploadListEntry[]>;
  /**
   * Deletes an upload (and a document's Markdown companion). Refused with a readable message, nothing deleted, when
   * the name is not a plain file name or there is no such upload.
   */
  deleteUpload(threadId: string, filename: string): Promise<void>;
  /** The commands the agent ran in the thread's sandbox, oldest first (Thread actions → "Sandbox log"). */
  sandboxLog(threadId: string): Promise<SandboxLogEntry[]>;
  /** The thread's saved steps, oldest first, to play it back step by step. */
  replay(threadId: string): Promise<ThreadReplay>;
  /** Turns memory on or off for a thread holding another person's messages (off when it came). */
  setMemory(threadId: string, enabled: boolean): Promise<ThreadSummary>;
  /**
   * Imports a DeerFlow thread: its thread.json (parsed) and the files of its folder, by their path in it
   * (`user-data/outputs/report.md`; only workspace, uploads and outputs). All of it is checked first (schema, paths,
   * at most 2,000 files and 200 MB); a bad import is refused with one sentence naming the problem and nothing is
   * written. The thread keeps DeerFlow's id when that is free, its title, messages, presented files and plan.
   */
  importDeerFlow(input: { thread: unknown; files: { path: string; bytes: Uint8Array }[] }): Promise<ThreadSummary>;
}
