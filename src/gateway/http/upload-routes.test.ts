import { beforeEach, describe, expect, it, vi } from "vitest";
import { UPLOAD_LIMITS } from "../../protocol/index.ts";
import { memoryStorage, type FawnStorage } from "../../storage/index.ts";
import { createGateway, type Gateway } from "../create-gateway.ts";
import { createGatewayFetch } from "../http-routes.ts";

let storage: FawnStorage;
let gateway: Gateway;
let handle: (request: Request) => Promise<Response>;
let threadId: string;

beforeEach(async () => {
  storage = memoryStorage();
  gateway = createGateway(storage);
  handle = createGatewayFetch(gateway);
  threadId = (await gateway.threads.create()).thread_id;
});

/** A multipart upload of `files` (name → text) to the thread. */
function upload(files: Record<string, string>, thread = threadId): Promise<Response> {
  const form = new FormData();
  for (const [name, content] of Object.entries(files)) form.append("files", new File([content], name));
  return handle(new Request(`http://fawn.local/api/threads/${thread}/uploads`, { method: "POST", body: form }));
}

const call = (method: string, path: string) => handle(new Request(`http://fawn.local${path}`, { method }));
const stored = async () => (await storage.files.list(threadId)).map((file) => file.path);

describe("Upload routes", () => {
  it("stores a multipart upload, lists it, serves it as an artifact and deletes it, as DeerFlow's routes answer", async () => {
    const response = await upload({ "notes.txt": "hello", "../../etc/passwd": "x" });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { success: boolean; files: Record<string, unknown>[]; message: string };
    expect(body.success).toBe(true);
    expect(body.files).toEqual([
      {
        filename: "notes.txt",
        size: 5,
        path: "/mnt/user-data/uploads/notes.txt",
        virtual_path: "/mnt/user-data/uploads/notes.txt",
        artifact_url: `/api/threads/${threadId}/artifacts/mnt/user-data/uploads/notes.txt`,
      },
      expect.objectContaining({ filename: "passwd", virtual_path: "/mnt/user-data/uploads/passwd" }),
    ]);

    const listed = (await (await call("GET", `/api/threads/${threadId}/uploads/list`)).json()) as {
      files: { filename: string; extension: string; artifact_url: string }[];
      count: number;
    };
    expect(listed.count).toBe(2);
    expect(listed.files.map((file) => [file.filename, file.extension])).toEqual([
      ["notes.txt", ".txt"],
      ["passwd", ""],
    ]);
    const served = await call("GET", listed.files[0]!.artifact_url);
    expect(await served.text()).toBe("hello");

    const deleted = await call("DELETE", `/api/threads/${threadId}/uploads/notes.txt`);
    expect(await deleted.json()).toEqual({ success: true, message: "Deleted notes.txt" });
    expect(await stored()).toEqual(["/mnt/user-data/uploads/passwd"]);
  });

  it("tells the limits DeerFlow's composer checks before it sends", async () => {
    const limits = await call("GET", `/api/threads/${threadId}/uploads/limits`);
    expect(await limits.json()).toEqual(UPLOAD_LIMITS);
  });

  it("refuses an upload over a limit, with a bad name or to no thread, with one sentence and nothing written", async () => {
    const tooMany = Object.fromEntries(
      Array.from({ length: UPLOAD_LIMITS.max_files + 1 }, (_, i) => [`f${i}.txt`, "x"]),
    );
    const refusals = [
      [await upload(tooMany), 413, /at most 10 files/],
      [await upload({ "ok.txt": "fine", "..": "x" }), 400, /unsafe/],
      [await upload({ "bad\u0007name.txt": "x" }), 400, /control characters/],
      [await upload({ "a.txt": "x" }, "not.an.id"), 404, /Thread not\.an\.id not found/],
    ] as const;
    for (const [response, status, detail] of refusals) {
      expect(response.status).toBe(status);
      const body = (await response.json()) as { detail: string };
      expect(body.detail).toMatch(detail);
      expect(body.detail.split(/(?<=\.) /)).toHaveLength(1);
    }
    expect(await stored()).toEqual([]);
  });

  it("refuses a body that is not multipart, too large by its length, or holds text in place of a file", async () => {
    const url = `http://fawn.local/api/threads/${threadId}/uploads`;
    const json = await handle(
      new Request(url, { method: "POST", body: "{}", headers: { "content-type": "application/json" } }),
    );
    expect(json.status).toBe(415);
    const huge = await handle(
      new Request(url, {
        method: "POST",
        body: "x",
        headers: { "content-type": "multipart/form-data; boundary=b", "content-length": String(200 * 1024 * 1024) },
      }),
    );
    expect([huge.status, await huge.json()]).toEqual([
      413,
      { detail: "This upload is larger than the 100 MB allowed in one upload." },
    ]);
    const form = new FormData();
    form.append("files", "just text");
    const text = await handle(new Request(url, { method: "POST", body: form }));
    expect(text.status).toBe(422);
    const none = await handle(new Request(url, { method: "POST", body: new FormData() }));
    expect([none.status, await none.json()]).toEqual([400, { detail: "Choose at least one file to upload." }]);
    expect(await stored()).toEqual([]);
  });

  it("refuses to delete a path or a missing upload", async () => {
    await upload({ "keep.txt": "x" });
    const escape = await call("DELETE", `/api/threads/${threadId}/uploads/..%2Fkeep.txt`);
    expect(escape.status).toBe(400);
    const missing = await call("DELETE", `/api/threads/${threadId}/uploads/gone.txt`);
    expect([missing.status, await missing.json()]).toEqual([
      404,
      { detail: "There is no upload named gone.txt in this thread." },
    ]);
    expect(await stored()).toEqual(["/mnt/user-data/uploads/keep.txt"]);
  });
});

describe("Upload routes before DeerFlow creates the thread", () => {
  it("answers the limits for any id and an empty list for an unknown thread", async () => {
    expect(await (await call("GET", "/api/threads/new-chat/uploads/limits")).json()).toEqual(UPLOAD_LIMITS);
    const listed = await call("GET", "/api/threads/new-chat/uploads/list");
    expect([listed.status, await listed.json()]).toEqual([200, { files: [], count: 0 }]);
    expect(await gateway.threads.exists("new-chat")).toBe(false);
  });

  it("creates the thread an upload names, with the files in it; the thread then takes the next upload", async () => {
    const response = await upload({ "brief.txt": "hello" }, "new-chat");
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ success: true, files: [{ filename: "brief.txt" }] });
    expect(await gateway.threads.get("new-chat")).toMatchObject({ thread_id: "new-chat", status: "idle" });
    expect((await upload({ "more.txt": "x" }, "new-chat")).status).toBe(200);
    expect((await storage.files.list("new-chat")).map((file) => file.path)).toEqual([
      "/mnt/user-data/uploads/brief.txt",
      "/mnt/user-data/uploads/more.txt",
    ]);
  });

  it("leaves no thread when the upload is refused or fails while it is stored", async () => {
    const before = (await gateway.threads.list()).length;
    expect((await upload({ "..": "x" }, "refused")).status).toBe(400);
    const tooMany = Object.fromEntries(
      Array.from({ length: UPLOAD_LIMITS.max_files + 1 }, (_, i) => [`f${i}.txt`, "x"]),
    );
    expect((await upload(tooMany, "refused")).status).toBe(413);
    vi.spyOn(storage.files, "apply").mockRejectedValueOnce(new Error("disk on fire"));
    expect((await upload({ "a.txt": "x" }, "failed")).status).toBe(500);
    expect(await gateway.threads.exists("refused")).toBe(false);
    expect(await gateway.threads.exists("failed")).toBe(false);
    expect((await gateway.threads.list()).length).toBe(before);
    vi.restoreAllMocks();
  });
});
