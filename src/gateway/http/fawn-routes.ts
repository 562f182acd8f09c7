// Fawn's own REST routes (`/api/fawn/…`): what a server workspace needs that LangGraph's API and DeerFlow's routes do
// not carry — the thread list with pins and notes, a thread's detail as `threads.get` answers it (versions, error
// notes, plan, presented files), search, replay, the sandbox log, rename/pin/memory, a file with its stored type, `.fawn` export and
// import, a DeerFlow thread's import, continue, versions, context use, compact and a share link. Each answers what the Gateway's method answers,
// as JSON (files and bundles as their bytes); every refusal is `{detail}`, and bad input is refused before anything is
// written. src/gateway/remote/fawn-api-client.ts is their client.
import { z } from "zod";
import {
  FAWN_MIME_TYPE_HEADER,
  MAX_THREAD_SEARCH_LIMIT,
  THREAD_BUNDLE_MIME,
  type ThreadModelChoice,
} from "../../protocol/index.ts";
import { ARTIFACT_SAFETY_HEADERS, contentDisposition } from "./artifact-content.ts";
import { artifactPath, readThreadFile } from "./artifact-routes.ts";
import { findThread, json, readJson, RouteProblem, type RouteGroup } from "./route-kit.ts";

const searchBody = z.object({
  query: z.string().max(500),
  limit: z.number().int().min(1).max(MAX_THREAD_SEARCH_LIMIT).optional(),
});

/** One change per PATCH: each is its own write, so a request is never left half done (renamed but not pinned). */
const patchBody = z
  .object({ title: z.string().optional(), pinned: z.boolean().optional(), memory: z.boolean().optional() })
  .strict()
  .refine((body) => Object.keys(body).length === 1, "Send one change at a time: title, pinned or memory.");

const versionBody = z.object({ run_id: z.string().min(1).max(200) });
const modelBody = z.object({ model: z.string().max(200).optional(), endpoint: z.string().max(200).optional() });
const exportFormat = z.enum(["fawn", "markdown", "deerflow"]);

/** The model a request names (`model`, `endpoint`), as the composer's ThreadModelChoice. */
function modelChoice(input: { model?: string | undefined; endpoint?: string | undefined }): ThreadModelChoice {
  return { ...(input.model && { model: input.model }), ...(input.endpoint && { endpoint: input.endpoint }) };
}

/** The virtual path `?path=` names in the thread's workspace, uploads or outputs, or a 400 saying why not. */
function filePath(raw: string | undefined): string {
  if (!raw) throw new RouteProblem(400, "Name the file: ?path=/mnt/user-data/outputs/… .");
  return artifactPath(raw);
}

/** A DeerFlow import's multipart body: `thread` (thread.json, text or a file), then `path`/`file` pairs in order. */
async function deerFlowImport(
  request: Request,
): Promise<{ thread: unknown; files: { path: string; bytes: Uint8Array }[] }> {
  if (!(request.headers.get("content-type") ?? "").startsWith("multipart/form-data")) {
    throw new RouteProblem(415, "Send a DeerFlow thread as multipart/form-data: thread, then path and file pairs.");
  }
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    throw new RouteProblem(400, "The request body is not readable multipart/form-data.");
  }
  const threadPart = form.get("thread");
  if (threadPart === null) throw new RouteProblem(422, "thread: DeerFlow's thread.json is missing.");
  let thread: unknown;
  try {
    thread = JSON.parse(typeof threadPart === "string" ? threadPart : await threadPart.text());
  } catch {
    throw new RouteProblem(422, "thread: DeerFlow's thread.json is not valid JSON.");
  }
  const paths = form.getAll("path");
  const parts = form.getAll("file");
  if (paths.length !== parts.length) throw new RouteProblem(422, "Send one path for each file, in the same order.");
  const files: { path: string; bytes: Uint8Array }[] = [];
  for (const [index, path] of paths.entries()) {
    const part = parts[index]!;
    if (typeof path !== "string" || typeof part === "string") {
      throw new RouteProblem(422, `file ${index + 1}: a path is text and a file is a file.`);
    }
    files.push({ path, bytes: new Uint8Array(await part.arrayBuffer()) });
  }
  return { thread, files };
}

export const fawnRoutes: RouteGroup = (app, gateway) => {
  app.get("/api/fawn/threads", async () => json(await gateway.threads.list()));

  app.post("/api/fawn/threads/search", async (c) => {
    const body = await readJson(c.req.raw, searchBody);
    return json(await gateway.threads.search(body.query, body.limit === undefined ? {} : { limit: body.limit }));
  });

  // `?own=1`: the user's own thread copied from another of their workspaces, kept writable (BundlesApi.import).
  app.post("/api/fawn/threads/import", async (c) => {
    const own = c.req.query("own");
    if (own !== undefined && own !== "1") throw new RouteProblem(400, "own is 1 or absent.");
    // Its size is held by the server's body limit, then by the bundle's own (bundles.import says so).
    const bundle = await c.req.raw.blob();
    if (bundle.size === 0) throw new RouteProblem(400, "The request body is empty: send a .fawn bundle's bytes.");
    return json(await gateway.bundles.import(bundle, own === "1" ? { own: true } : {}));
  });

  // `threads.importDeerFlow`: multipart, `thread` DeerFlow's thread.json, then `path` and `file` pairs in order.
  app.post("/api/fawn/threads/import-deerflow", async (c) =>
    json(await gateway.threads.importDeerFlow(await deerFlowImport(c.req.raw))),
  );

  app.get("/api/fawn/threads/:thread_id", async (c) => json(await findThread(gateway, c.req.param("thread_id"))));

  app.patch("/api/fawn/threads/:thread_id", async (c) => {
    const body = await readJson(c.req.raw, patchBody);
    const threadId = c.req.param("thread_id");
    await findThread(gateway, threadId);
    // Each refuses bad input (a title's length, memory for a thread of the user's own) before writing anything.
    if (body.title !== undefined) return json(await gateway.threads.rename(threadId, body.title));
    if (body.pinned !== undefined) return json(await gateway.threads.pin(threadId, body.pinned));
    return json(await gateway.threads.setMemory(threadId, body.memory === true));
  });

  app.get("/api/fawn/threads/:thread_id/replay", async (c) => {
    const threadId = c.req.param("thread_id");
    await findThread(gateway, threadId);
    return json(await gateway.threads.replay(threadId));
  });

  app.get("/api/fawn/threads/:thread_id/sandbox-log", async (c) => {
    const threadId = c.req.param("thread_id");
    await findThread(gateway, threadId);
    return json(await gateway.threads.sandboxLog(threadId));
  });

  app.get("/api/fawn/threads/:thread_id/files", async (c) => {
    const threadId = c.req.param("thread_id");
    await findThread(gateway, threadId);
    const path = filePath(c.req.query("path"));
    const file = await readThreadFile(gateway, threadId, path);
    // Never shown by a browser as it is: the stored type rides in a header, the body is plain bytes.
    return new Response(file.bytes.slice(), {
      headers: {
        ...ARTIFACT_SAFETY_HEADERS,
        "content-type": "application/octet-stream",
        "content-disposition": contentDisposition("attachment", path.slice(path.lastIndexOf("/") + 1)),
        "cache-control": "private, no-cache",
        [FAWN_MIME_TYPE_HEADER]: file.mime_type,
      },
    });
  });

  app.get("/api/fawn/threads/:thread_id/export", async (c) => {
    const format = exportFormat.safeParse(c.req.query("format") ?? "fawn");
    if (!format.success) throw new RouteProblem(422, 'A thread exports as "fawn", "markdown" or "deerflow".');
    const threadId = c.req.param("thread_id");
    await findThread(gateway, threadId);
    const exported = await gateway.bundles.export(threadId, format.data);
    return new Response(exported.blob, {
      headers: {
        "content-type": format.data === "fawn" ? THREAD_BUNDLE_MIME : exported.blob.type || "application/octet-stream",
        "content-disposition": contentDisposition("attachment", exported.file_name),
        "cache-control": "private, no-cache",
      },
    });
  });

  app.post("/api/fawn/threads/:thread_id/continue", async (c) => {
    const threadId = c.req.param("thread_id");
    await findThread(gateway, threadId);
    return json(await gateway.bundles.continueThread(threadId));
  });

  app.post("/api/fawn/threads/:thread_id/versions", async (c) => {
    const body = await readJson(c.req.raw, versionBody);
    const threadId = c.req.param("thread_id");
    await findThread(gateway, threadId);
    await gateway.branches.showVersion(threadId, body.run_id);
    return json(await findThread(gateway, threadId));
  });

  app.get("/api/fawn/threads/:thread_id/context", async (c) => {
    const query = modelBody.safeParse({ model: c.req.query("model"), endpoint: c.req.query("endpoint") });
    if (!query.success) throw new RouteProblem(422, "model and endpoint are at most 200 characters.");
    const threadId = c.req.param("thread_id");
    await findThread(gateway, threadId);
    return json(await gateway.context.usage(threadId, modelChoice(query.data)));
  });

  app.post("/api/fawn/threads/:thread_id/compact", async (c) => {
    const body = await readJson(c.req.raw, modelBody);
    const threadId = c.req.param("thread_id");
    await findThread(gateway, threadId);
    return json(await gateway.context.compact(threadId, modelChoice(body)));
  });

  app.get("/api/fawn/threads/:thread_id/share-link", async (c) => {
    const threadId = c.req.param("thread_id");
    await findThread(gateway, threadId);
    return json(await gateway.sharing.link(threadId));
  });
};
