import { strToU8, zipSync } from "fflate";
import { beforeEach, describe, expect, it } from "vitest";
import { memoryStorage, sha256Hex, type FawnStorage } from "../../storage/index.ts";
import { createGateway, type Gateway } from "../create-gateway.ts";
import { createGatewayFetch } from "../http-routes.ts";
import { tryLockThread } from "../thread-locks.ts";

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

const OUT = "/mnt/user-data/outputs";

async function write(path: string, content: string | Uint8Array, mimeType?: string): Promise<void> {
  const bytes = typeof content === "string" ? strToU8(content) : content;
  await storage.files.write(threadId, [{ path, bytes, ...(mimeType && { mimeType }) }]);
}

function get(path: string, headers: Record<string, string> = {}): Promise<Response> {
  return handle(new Request(`http://fawn.local/api/threads/${threadId}/artifacts${path}`, { headers }));
}

describe("Artifact route", () => {
  it("shows text and images inline, never sniffed and sandboxed", async () => {
    await write(`${OUT}/report.md`, "# Report");
    const markdown = await get(`${OUT}/report.md`);
    expect(markdown.status).toBe(200);
    expect(await markdown.text()).toBe("# Report");
    expect(Object.fromEntries(markdown.headers)).toMatchObject({
      "content-type": "text/markdown; charset=utf-8",
      "content-disposition": `inline; filename="report.md"; filename*=UTF-8''report.md`,
      "x-content-type-options": "nosniff",
      "content-security-policy": "sandbox",
    });
    await write(`${OUT}/chart.png`, new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0]));
    const image = await get(`${OUT}/chart.png`);
    expect(image.headers.get("content-type")).toBe("image/png");
    expect(image.headers.get("content-disposition")).toMatch(/^inline;/);
    // Code is text, never a script another page could load.
    await write("/mnt/user-data/workspace/app.js", "alert(1)");
    expect((await get("/mnt/user-data/workspace/app.js")).headers.get("content-type")).toBe(
      "text/plain; charset=utf-8",
    );
  });

  it("sends HTML, SVG and anything stored as active content as a download, whatever the request asks", async () => {
    await write(`${OUT}/page.html`, "<script>alert(1)</script>");
    await write(`${OUT}/logo.svg`, "<svg onload='alert(1)'/>");
    await write(`${OUT}/disguised.txt`, "<script>alert(1)</script>", "text/html");
    for (const name of ["page.html", "logo.svg", "disguised.txt"]) {
      const response = await get(`${OUT}/${name}`);
      expect(response.headers.get("content-disposition")).toMatch(/^attachment; filename="/);
      expect(response.headers.get("x-content-type-options")).toBe("nosniff");
      expect(response.headers.get("content-security-policy")).toBe("sandbox");
    }
    await write(`${OUT}/blob.bin`, new Uint8Array([0, 1, 2, 255]));
    const binary = await get(`${OUT}/blob.bin`);
    expect([binary.headers.get("content-type"), binary.headers.get("content-disposition")]).toEqual([
      "application/octet-stream",
      `attachment; filename="blob.bin"; filename*=UTF-8''blob.bin`,
    ]);
  });

  it("downloads on ?download=true, with a name that cannot break the header", async () => {
    await write(`${OUT}/résumé "final".md`, "text");
    const response = await get(`${OUT}/${encodeURIComponent('résumé "final".md')}?download=true`);
    expect(response.headers.get("content-disposition")).toBe(
      `attachment; filename="r_sum_ _final_.md"; filename*=UTF-8''r%C3%A9sum%C3%A9%20%22final%22.md`,
    );
  });

  it("answers one byte range (206), and 416 for one outside the file", async () => {
    await write(`${OUT}/long.txt`, "0123456789");
    const part = await get(`${OUT}/long.txt`, { range: "bytes=2-5" });
    expect([part.status, part.headers.get("content-range"), await part.text()]).toEqual([206, "bytes 2-5/10", "2345"]);
    const tail = await get(`${OUT}/long.txt`, { range: "bytes=-3" });
    expect(await tail.text()).toBe("789");
    const outside = await get(`${OUT}/long.txt`, { range: "bytes=20-" });
    expect([outside.status, outside.headers.get("content-range")]).toEqual([416, "bytes */10"]);
  });

  it("refuses a path outside the thread's folders (400), a missing file or thread (404)", async () => {
    await write(`${OUT}/a.txt`, "a");
    for (const path of [
      `${OUT}/..%2F..%2F..%2Fetc%2Fpasswd`,
      "/mnt/skills/public/x/SKILL.md",
      "/etc/passwd",
      `${OUT}`,
    ]) {
      const response = await get(path);
      expect(response.status, path).toBe(400);
      expect(((await response.json()) as { detail: string }).detail).toMatch(/is not a file in the thread's workspace/);
    }
    expect((await get(`${OUT}/missing.txt`)).status).toBe(404);
    const otherThread = await handle(new Request(`http://fawn.local/api/threads/nope/artifacts${OUT}/a.txt`));
    expect([otherThread.status, await otherThread.json()]).toEqual([404, { detail: "Thread nope not found." }]);
  });

  it("shows a file inside a .skill archive, HTML in it still a download", async () => {
    const archive = zipSync({
      "my-skill/SKILL.md": strToU8("---\nname: my-skill\n---\nBody"),
      "my-skill/demo.html": strToU8("<script></script>"),
    });
    await write(`${OUT}/my-skill.skill`, archive);
    const member = await get(`${OUT}/my-skill.skill/SKILL.md`);
    expect([member.status, await member.text()]).toEqual([200, "---\nname: my-skill\n---\nBody"]);
    expect(member.headers.get("content-disposition")).toMatch(/^inline;/);
    const html = await get(`${OUT}/my-skill.skill/demo.html`);
    expect(html.headers.get("content-disposition")).toMatch(/^attachment;/);
    expect((await get(`${OUT}/my-skill.skill/nothing.md`)).status).toBe(404);
    await write(`${OUT}/broken.skill`, "not a zip");
    expect((await get(`${OUT}/broken.skill/SKILL.md`)).status).toBe(422);
  });
});

describe("Artifact edit", () => {
  const sha256 = (text: string) => sha256Hex(strToU8(text));
  const put = (path: string, body: unknown) =>
    handle(
      new Request(`http://fawn.local/api/threads/${threadId}/artifacts${path}`, {
        method: "PUT",
        body: JSON.stringify(body),
        headers: { "content-type": "application/json" },
      }),
    );
  const text = async (path: string) => new TextDecoder().decode((await storage.files.read(threadId, path))!.bytes);

  it("saves a text file of the outputs over the text the editor opened, and answers its new hash", async () => {
    await write(`${OUT}/notes.md`, "draft");
    const saved = await put(`${OUT}/notes.md`, { content: "final", expected_sha256: await sha256("draft") });
    expect(await saved.json()).toEqual({ path: `${OUT}/notes.md`, sha256: await sha256("final"), size: 5 });
    expect(await text(`${OUT}/notes.md`)).toBe("final");
  });

  it("refuses a changed file (412), another folder, a .skill, binary or missing file, with nothing written", async () => {
    await write(`${OUT}/notes.md`, "draft");
    await write("/mnt/user-data/workspace/w.md", "draft");
    await write(`${OUT}/blob.txt`, new Uint8Array([0, 1]));
    await write(`${OUT}/s.skill`, zipSync({ "SKILL.md": strToU8("x") }));
    const refusals = [
      [`${OUT}/notes.md`, await sha256("something else"), 412, /changed since it was opened/],
      ["/mnt/user-data/workspace/w.md", await sha256("draft"), 422, /Only files in \/mnt\/user-data\/outputs/],
      [`${OUT}/s.skill`, await sha256("x"), 422, /\.skill archive/],
      [`${OUT}/blob.txt`, await sha256("x"), 422, /UTF-8 text/],
      [`${OUT}/gone.md`, await sha256("x"), 404, /no file/],
      [`${OUT}/..%2F..%2Fetc%2Fpasswd`, await sha256("x"), 400, /is not a file in the thread's/],
    ] as const;
    for (const [path, hash, status, detail] of refusals) {
      const response = await put(path, { content: "overwritten", expected_sha256: hash });
      expect(response.status, path).toBe(status);
      expect(((await response.json()) as { detail: string }).detail).toMatch(detail);
    }
    expect((await put(`${OUT}/notes.md`, { content: "x" })).status).toBe(422);
    expect(await text(`${OUT}/notes.md`)).toBe("draft");
    expect(await text("/mnt/user-data/workspace/w.md")).toBe("draft");
  });

  it("refuses an edit while the thread runs a reply (409)", async () => {
    await write(`${OUT}/notes.md`, "draft");
    // As a run in another tab holds it.
    const release = await tryLockThread(threadId);
    try {
      const response = await put(`${OUT}/notes.md`, { content: "x", expected_sha256: await sha256("draft") });
      expect([response.status, ((await response.json()) as { detail: string }).detail]).toEqual([
        409,
        "The thread is running a reply elsewhere; save the edit after it finishes.",
      ]);
    } finally {
      release?.();
    }
    expect(await text(`${OUT}/notes.md`)).toBe("draft");
  });
});
