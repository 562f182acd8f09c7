// DeerFlow's uploads routes: `POST /api/threads/:id/uploads` (multipart, field `files`), `GET …/uploads/list`,
// `GET …/uploads/limits` and `DELETE …/uploads/:filename`, over the thread's uploads service, which keeps DeerFlow's
// limits, names and dedup and writes an upload whole or not at all. DeerFlow's frontend uploads a new chat's files
// before it creates the thread, so the limits answer for any id, the list of an unknown thread is empty, and an
// upload to an unknown (well-formed) id creates that thread for the user — or, when the upload fails, leaves none.
import { UPLOAD_LIMITS, type UploadedFileInfo } from "../../protocol/index.ts";
import type { Gateway } from "../create-gateway.ts";
import { THREAD_ID } from "../threads-service.ts";
import { checkUploadLimits, normalizeFilename } from "../uploads/upload-rules.ts";
import { findThread, json, RouteProblem, type RouteGroup } from "./route-kit.ts";

/** Room for the multipart framing (boundaries, part headers) beyond the files' own bytes. */
const MULTIPART_OVERHEAD_BYTES = 1024 * 1024;

/** The URL the artifacts route answers a thread's file at (DeerFlow's `artifact_url`). */
export function artifactUrl(threadId: string, virtualPath: string): string {
  const path = virtualPath.replace(/^\/+/, "").split("/").map(encodeURIComponent).join("/");
  return `/api/threads/${encodeURIComponent(threadId)}/artifacts/${path}`;
}

/** A stored upload as DeerFlow's UploadedFileInfo describes it; `path` is the sandbox's path, as there is no host's. */
function uploadedFileResponse(threadId: string, file: UploadedFileInfo) {
  return {
    ...file,
    path: file.virtual_path,
    artifact_url: artifactUrl(threadId, file.virtual_path),
    ...(file.markdown_virtual_path !== undefined && {
      markdown_path: file.markdown_virtual_path,
      markdown_artifact_url: artifactUrl(threadId, file.markdown_virtual_path),
    }),
  };
}

/** The files of a multipart upload, refused before anything is read when the body is not one or is too large. */
async function uploadedFiles(request: Request): Promise<{ name: string; bytes: Uint8Array }[]> {
  if (!/^multipart\/form-data\s*;/i.test(request.headers.get("content-type") ?? "")) {
    throw new RouteProblem(415, "An upload is a multipart/form-data body with the files in its `files` field.");
  }
  const length = Number(request.headers.get("content-length") ?? "0");
  if (length > UPLOAD_LIMITS.max_total_size + MULTIPART_OVERHEAD_BYTES) {
    throw new RouteProblem(413, "This upload is larger than the 100 MB allowed in one upload.");
  }
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    throw new RouteProblem(400, "The upload's multipart body could not be read.");
  }
  const parts = form.getAll("files");
  if (parts.some((part) => typeof part === "string")) {
    throw new RouteProblem(422, "Each part of the `files` field must be a file, not text.");
  }
  return Promise.all(
    (parts as File[]).map(async (file) => ({ name: file.name, bytes: new Uint8Array(await file.arrayBuffer()) })),
  );
}

/**
 * An upload to a thread nobody made yet: the files are checked first (count, sizes, names), then the thread is created
 * and they are stored; a failure deletes the thread again, so the user is left with both or neither. A thread another
 * request created meanwhile (two uploads at once) is used as it is, and kept.
 */
async function uploadToNewThread(gateway: Gateway, threadId: string, files: { name: string; bytes: Uint8Array }[]) {
  checkUploadLimits(files.map((file) => ({ name: file.name, size: file.bytes.byteLength })));
  for (const file of files) normalizeFilename(file.name);
  let created = true;
  try {
    await gateway.threads.create({ thread_id: threadId });
  } catch (error) {
    if (!(await gateway.threads.exists(threadId))) throw error;
    created = false;
  }
  try {
    return await gateway.threads.upload(threadId, files);
  } catch (error) {
    if (created) await gateway.threads.delete(threadId).catch(() => undefined);
    throw error;
  }
}

export const uploadRoutes: RouteGroup = (app, gateway) => {
  app.post("/api/threads/:thread_id/uploads", async (c) => {
    const threadId = c.req.param("thread_id");
    const exists = await gateway.threads.exists(threadId);
    if (!exists && !THREAD_ID.test(threadId)) throw new RouteProblem(404, `Thread ${threadId} not found.`);
    const files = await uploadedFiles(c.req.raw);
    // The service checks the count, sizes and names of all of them before it writes any (UploadError: 400/413/507).
    const result = exists
      ? await gateway.threads.upload(threadId, files)
      : await uploadToNewThread(gateway, threadId, files);
    return json({
      success: true,
      files: result.files.map((file) => uploadedFileResponse(threadId, file)),
      message: result.message,
      skipped_files: [],
    });
  });
  // The same limits for every thread, known or not yet created.
  app.get("/api/threads/:thread_id/uploads/limits", () => json({ ...UPLOAD_LIMITS }));
  app.get("/api/threads/:thread_id/uploads/list", async (c) => {
    const threadId = c.req.param("thread_id");
    if (!(await gateway.threads.exists(threadId))) return json({ files: [], count: 0 });
    const files = (await gateway.threads.listUploads(threadId)).map((file) => ({
      ...file,
      path: file.virtual_path,
      artifact_url: artifactUrl(threadId, file.virtual_path),
    }));
    return json({ files, count: files.length });
  });
  app.delete("/api/threads/:thread_id/uploads/:filename", async (c) => {
    const threadId = c.req.param("thread_id");
    await findThread(gateway, threadId);
    const filename = c.req.param("filename");
    await gateway.threads.deleteUpload(threadId, filename);
    return json({ success: true, message: `Deleted ${filename}` });
  });
};
