// Uploads across the boundary: DeerFlow's limits, the one check of them the composer and the Gateway both run, and
// what an upload returns.
import { formatBytes } from "../shared/text.ts";
import type { UploadedFileRef } from "./messages.ts";

/** DeerFlow's upload limits (per upload: files, bytes per file, bytes in all). */
export interface UploadLimits {
  max_files: number;
  max_file_size: number;
  max_total_size: number;
}

/** DeerFlow's defaults (`uploads.max_files`, `max_file_size`, `max_total_size`). */
export const UPLOAD_LIMITS: Readonly<UploadLimits> = {
  max_files: 10,
  max_file_size: 50 * 1024 * 1024,
  max_total_size: 100 * 1024 * 1024,
};

/** A limit as people read it: "50 MB", "1.5 GB". */
function formatLimit(bytes: number): string {
  return formatBytes(bytes).replace(/\.0 /, " ");
}

/**
 * The first limit these files break together, as a sentence for the user: too many files, files too large (each
 * named), or too many bytes in all. Undefined when they keep to the limits (no files at all included).
 */
export function uploadLimitProblem(
  files: readonly { name: string; size: number }[],
  limits: UploadLimits = UPLOAD_LIMITS,
): string | undefined {
  if (files.length > limits.max_files) {
    return `You can attach at most ${limits.max_files} files at once; you chose ${files.length}.`;
  }
  const tooLarge = files.filter((file) => file.size > limits.max_file_size);
  if (tooLarge.length > 0) {
    const sizes = tooLarge.map((file) => `${file.name} is ${formatBytes(file.size)}`);
    const list = sizes.length === 1 ? sizes[0] : `${sizes.slice(0, -1).join(", ")} and ${sizes.at(-1)}`;
    return `${list}; the limit is ${formatLimit(limits.max_file_size)} per file.`;
  }
  const total = files.reduce((sum, file) => sum + file.size, 0);
  if (total > limits.max_total_size) {
    return `These files add up to ${formatBytes(total)}; the limit is ${formatLimit(limits.max_total_size)} per upload.`;
  }
  return undefined;
}

/** One stored upload; `original_filename` when a clash renamed it, `warning` when its conversion failed. */
export interface UploadedFileInfo extends UploadedFileRef {
  original_filename?: string;
  /** The Markdown companion's name, when the document was converted. */
  markdown_file?: string;
  /** Why the document was not converted; the file itself is stored. */
  warning?: string;
}

/** One file in a thread's uploads, as DeerFlow's listing describes it. */
export interface UploadListEntry {
  filename: string;
  size: number;
  virtual_path: string;
  /** The last extension with its dot (`".pdf"`), or "" when there is none. */
  extension: string;
  /** When it was last written, in seconds since the epoch (DeerFlow's `st_mtime`). */
  modified: number;
}

export interface UploadResult {
  files: UploadedFileInfo[];
  /** A sentence or two for the user. */
  message: string;
}
