// Saving an edit of a file the agent wrote (DeerFlow's artifact edit, `PUT /api/threads/:id/artifacts/<path>`): only a
// UTF-8 text file of the thread's outputs, at most 2 MB before and after, and only when it is still the text the
// editor opened (its SHA-256), so an edit never overwrites what a run wrote meanwhile.
import type { FileEdit, SavedFileEdit } from "../protocol/index.ts";
import { OUTPUTS_DIR, resolveSandboxPath } from "../sandbox/sandbox.ts";
import { UserError } from "../shared/user-error.ts";
import { sha256Hex, type ThreadFileStorage } from "../storage/index.ts";
import { writing } from "./writes.ts";

/** The largest text an edit may replace or save (DeerFlow's MAX_EDITABLE_ARTIFACT_BYTES). */
export const MAX_EDITABLE_FILE_BYTES = 2 * 1024 * 1024;

/** The file is no longer the text the editor opened (HTTP 412, as DeerFlow answers it). */
export class FileChangedError extends UserError {
  override name = "FileChangedError";

  constructor() {
    super("This file changed since it was opened: open it again, then edit it.", "conflict");
  }
}

function isText(bytes: Uint8Array): boolean {
  if (bytes.includes(0)) return false;
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/**
 * Checks the edit and writes it in one transaction; throws a UserError (nothing written): "invalid" for a path
 * outside the outputs, a `.skill` archive, a binary or too large file or text, or a file that is not there;
 * "conflict" when the file is no longer the text the editor opened.
 */
export async function saveFileEdit(files: ThreadFileStorage, threadId: string, edit: FileEdit): Promise<SavedFileEdit> {
  if (typeof edit?.content !== "string" || typeof edit.expectedSha256 !== "string" || typeof edit.path !== "string") {
    throw new UserError("An edit is a file's path, its new text and the SHA-256 of the text it replaces.");
  }
  let path: string;
  try {
    path = resolveSandboxPath(edit.path, "write");
  } catch {
    path = "";
  }
  if (!path.startsWith(`${OUTPUTS_DIR}/`)) throw new UserError(`Only files in ${OUTPUTS_DIR} can be edited.`);
  if (/\.skill(\/|$)/i.test(path)) throw new UserError("A .skill archive cannot be edited as text.");
  const bytes = new TextEncoder().encode(edit.content);
  if (bytes.byteLength > MAX_EDITABLE_FILE_BYTES)
    throw new UserError("The text is larger than the 2 MB an edit may save.");
  if (bytes.includes(0)) throw new UserError("The text holds a NUL character, which a text file cannot.");
  const current = await files.read(threadId, path);
  if (!current) throw new UserError(`This thread has no file ${path}.`);
  if (current.bytes.byteLength > MAX_EDITABLE_FILE_BYTES)
    throw new UserError("This file is larger than the 2 MB an edit may replace.");
  if (!isText(current.bytes)) throw new UserError("Only UTF-8 text files can be edited.");
  if ((await sha256Hex(current.bytes)) !== edit.expectedSha256.toLowerCase()) {
    throw new FileChangedError();
  }
  await writing(() => files.apply(threadId, { write: [{ path, bytes, mimeType: current.meta.mimeType }] }));
  return { path, sha256: await sha256Hex(bytes), size: bytes.byteLength };
}
