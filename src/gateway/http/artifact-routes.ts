// DeerFlow's `GET /api/threads/:id/artifacts/<path>`: a file of the thread (its workspace, uploads or outputs), or a
// file inside a `.skill` archive there, sent so it never runs on the app's origin (see artifact-content.ts), with
// `?download=true` and one byte range (`Range: bytes=…`, as DeerFlow's preview asks for its first MiB); and `PUT` of
// the same path, the artifact editor's Save (see file-edits.ts).
import { unzipSync } from "fflate";
import { z } from "zod";
import type { ThreadFileContent } from "../../protocol/index.ts";
import { isThreadDataPath, resolveSandboxPath } from "../../sandbox/sandbox.ts";
import { isUserFacing } from "../../shared/user-error.ts";
import { declaredMemberSize } from "../../shared/zip-safety.ts";
import { ARTIFACT_SAFETY_HEADERS, byteRange, contentDisposition, presentArtifact } from "./artifact-content.ts";
import type { Gateway } from "../create-gateway.ts";
import { FileChangedError } from "../file-edits.ts";
import { findThread, json, problem, readJson, RouteProblem, type RouteGroup } from "./route-kit.ts";

/** The largest file of a `.skill` archive shown (DeerFlow's MAX_SKILL_ARCHIVE_MEMBER_BYTES). */
const MAX_SKILL_MEMBER_BYTES = 16 * 1024 * 1024;
const SKILL_MARKER = ".skill/";

const editBody = z.object({
  content: z.string(),
  expected_sha256: z.string().regex(/^[0-9a-f]{64}$/, "expected_sha256 is a lowercase hex SHA-256"),
});

/**
 * The virtual path `raw` (the URL's rest, `mnt/user-data/outputs/a.md`, or Fawn's `?path=`) names, or a 400 saying why
 * it cannot be one.
 */
export function artifactPath(raw: string): string {
  const path = `/${raw.replace(/^\/+/, "")}`;
  try {
    const resolved = resolveSandboxPath(path, "read");
    if (isThreadDataPath(resolved)) return resolved;
  } catch {
    // Answered below with the same sentence: the reason is the same for the caller.
  }
  throw new RouteProblem(400, `${JSON.stringify(path)} is not a file in the thread's workspace, uploads or outputs.`);
}

/** The thread's file at `path`, or a 404 when it has none (a failure to read is not a missing file). */
export async function readThreadFile(gateway: Gateway, threadId: string, path: string): Promise<ThreadFileContent> {
  try {
    return await gateway.threads.readFile(threadId, path);
  } catch (error) {
    if (isUserFacing(error)) throw new RouteProblem(404, `This thread has no file ${path}.`);
    throw error;
  }
}

/** The file `member` of the zip `archive` (directly, or under the archive's one top folder). */
function skillMember(archive: Uint8Array, member: string, archivePath: string): Uint8Array {
  let files: Record<string, Uint8Array>;
  let tooLarge = false;
  try {
    files = unzipSync(archive, {
      filter: (file) => {
        const wanted = file.name === member || file.name.endsWith(`/${member}`);
        if (wanted && declaredMemberSize(file) > MAX_SKILL_MEMBER_BYTES) tooLarge = true;
        return wanted && !tooLarge;
      },
    });
  } catch {
    throw new RouteProblem(422, `${archivePath} is not a readable .skill archive.`);
  }
  if (tooLarge) throw new RouteProblem(413, `${member} in ${archivePath} is larger than 16 MB, too large to show.`);
  const found = files[member] ?? Object.entries(files).find(([name]) => name.endsWith(`/${member}`))?.[1];
  if (!found) throw new RouteProblem(404, `${archivePath} has no file ${member}.`);
  return found;
}

export const artifactRoutes: RouteGroup = (app, gateway) => {
  app.get("/api/threads/:thread_id/artifacts/:path{.+}", async (c) => {
    const threadId = c.req.param("thread_id");
    await findThread(gateway, threadId);
    const requested = c.req.param("path");
    const marker = requested.indexOf(SKILL_MARKER);
    const filePath = artifactPath(marker < 0 ? requested : requested.slice(0, marker + SKILL_MARKER.length - 1));
    const member = marker < 0 ? undefined : requested.slice(marker + SKILL_MARKER.length);

    const file = await readThreadFile(gateway, threadId, filePath);
    const bytes = member === undefined ? file.bytes : skillMember(file.bytes, member, filePath);
    const name = (member ?? filePath).slice((member ?? filePath).lastIndexOf("/") + 1);
    const download = c.req.query("download") === "true";
    const shown = presentArtifact(name, member === undefined ? file.mime_type : "", bytes, download);
    const headers: Record<string, string> = {
      ...ARTIFACT_SAFETY_HEADERS,
      "content-type": shown.contentType,
      "content-disposition": contentDisposition(shown.attachment ? "attachment" : "inline", name),
      "cache-control": "private, no-cache",
      "accept-ranges": "bytes",
    };
    const range = c.req.header("if-range") ? undefined : byteRange(c.req.header("range") ?? null, bytes.byteLength);
    if (range === "unsatisfiable") {
      return new Response(JSON.stringify({ detail: "The requested byte range is not in the file." }), {
        status: 416,
        headers: {
          ...ARTIFACT_SAFETY_HEADERS,
          "content-type": "application/json",
          "content-range": `bytes */${bytes.byteLength}`,
        },
      });
    }
    if (range) {
      const part = bytes.slice(range.start, range.end + 1);
      headers["content-range"] = `bytes ${range.start}-${range.end}/${bytes.byteLength}`;
      return new Response(part, { status: 206, headers });
    }
    return new Response(bytes.slice(), { headers });
  });

  // DeerFlow's artifact editor's Save: a text file of the outputs, only over the text it opened (412 when it changed).
  app.put("/api/threads/:thread_id/artifacts/:path{.+}", async (c) => {
    const threadId = c.req.param("thread_id");
    await findThread(gateway, threadId);
    const body = await readJson(c.req.raw, editBody);
    const path = artifactPath(c.req.param("path"));
    await readThreadFile(gateway, threadId, path);
    try {
      const edit = { path, content: body.content, expectedSha256: body.expected_sha256 };
      return json(await gateway.threads.editFile(threadId, edit));
    } catch (error) {
      if (error instanceof FileChangedError) return problem(412, error.message);
      throw error;
    }
  });
};
