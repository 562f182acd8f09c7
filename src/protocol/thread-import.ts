// Limits on one imported DeerFlow thread, shared by the UI (checked before reading the files) and the worker
// (checked again before writing), with one sentence per limit.
import { formatBytes } from "../shared/text.ts";

export const DEERFLOW_IMPORT_LIMITS = { max_files: 2_000, max_total_size: 200 * 1024 * 1024 } as const;

/** The sentence for too many files. */
export function tooManyImportFiles(count: number): string {
  return (
    `A thread can bring at most ${DEERFLOW_IMPORT_LIMITS.max_files.toLocaleString("en")} files; this one has ` +
    `${count.toLocaleString("en")}.`
  );
}

/** The sentence for files too large in all. */
export function tooLargeImport(totalBytes: number): string {
  return (
    `A thread can bring at most ${formatBytes(DEERFLOW_IMPORT_LIMITS.max_total_size).replace(/\.0 /, " ")} of ` +
    `files; these are ${formatBytes(totalBytes)}.`
  );
}
