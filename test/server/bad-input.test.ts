// Bad input over real HTTP: malformed JSON, wrong shapes, unknown ids and routes, oversized bodies, missing or wrong
// tokens, and paths that try to leave the thread's sandbox. Each is a 4xx with one sentence in `{detail}`, and the
// database is left exactly as it was (every row of the user compared before and after).
import { Client } from "@langchain/langgraph-sdk";
import { existsSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "./server-harness.ts";

let server: TestServer;
let token: string;
let owner: string;
let threadId: string;

beforeAll(async () => {
  server = await startTestServer({ maxBodyMb: 1 });
  token = await server.addUser("carol");
  owner = (await server.server.users.byToken(token))!.userId;
  const created = (await (await call("POST", "/api/threads", {})).json()) as { thread_id: string };
  threadId = created.thread_id;
});
afterAll(async () => {
  await server?.close();
});

function call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return server.request(path, {
    method,
    token,
    headers: { "content-type": "application/json", ...headers },
    ...(body !== undefined && { body: typeof body === "string" ? body : JSON.stringify(body) }),
  });
}

/** Every row the user has, as one digest (and a count), to prove a refused request wrote nothing. */
async function snapshot(): Promise<string> {
  const [row] = await server.db.query<{ rows: number; digest: string | null }>(
    `SELECT count(*)::int AS rows,
            md5(string_agg(store || encode(sort_key, 'hex') || encode(value, 'hex'), ',' ORDER BY store, sort_key))
              AS digest
       FROM fawn_rows WHERE owner = $1`,
    [owner],
  );
  const runs = await server.db.query<{ runs: number }>("SELECT count(*)::int AS runs FROM fawn_runs WHERE owner = $1", [
    owner,
  ]);
  return JSON.stringify({ ...row, runs: runs[0]?.runs });
}

/** The answer is `status` with a `{detail}` of one sentence. */
async function expectRefusal(response: Response, status: number, detail?: RegExp): Promise<string> {
  const body = (await response.json()) as { detail?: unknown };
  const where = new URL(response.url).pathname;
  expect({ where, status: response.status, body }).toMatchObject({
    where,
    status,
    body: { detail: expect.any(String) },
  });
  const sentence = body.detail as string;
  expect(sentence.length).toBeGreaterThan(5);
  expect(sentence.length).toBeLessThan(300);
  // One sentence: no second one after a full stop (zod's field messages come without a closing stop).
  expect(sentence.replace(/[.?!]$/, "")).not.toMatch(/[.?!]\s+[A-Z]/);
  if (detail) expect(sentence).toMatch(detail);
  return sentence;
}

describe("a refused request writes nothing", () => {
  it("malformed JSON is 400, naming the body", async () => {
    const before = await snapshot();
    for (const path of [
      "/api/threads",
      "/api/memory/facts",
      "/api/threads/search",
      `/api/threads/${threadId}/runs/stream`,
    ]) {
      await expectRefusal(await call("POST", path, "{ not: json"), 400, /not valid JSON/);
    }
    await expectRefusal(await call("PUT", "/api/mcp/config", "[1,"), 400, /not valid JSON/);
    expect(await snapshot()).toBe(before);
  });

  it("a body of the wrong shape is 422, naming the field", async () => {
    const before = await snapshot();
    await expectRefusal(await call("POST", "/api/memory/facts", { content: 5 }), 422, /content/);
    await expectRefusal(await call("POST", `/api/threads/${threadId}/runs/stream`, { input: { messages: [] } }), 422);
    await expectRefusal(await call("PUT", "/api/skills/deep-research", { enabled: "yes" }), 422, /enabled/);
    expect(await snapshot()).toBe(before);
  });

  it("unknown ids and routes are 404", async () => {
    const before = await snapshot();
    const unknown = crypto.randomUUID();
    await expectRefusal(await call("GET", `/api/threads/${unknown}`), 404, new RegExp(unknown));
    await expectRefusal(await call("GET", `/api/threads/${unknown}/state`), 404);
    await expectRefusal(await call("DELETE", `/api/threads/${unknown}`), 404);
    await expectRefusal(
      await call("POST", `/api/threads/${unknown}/runs/stream`, {
        assistant_id: "lead_agent",
        input: { messages: [{ type: "human", content: "x" }] },
      }),
      404,
    );
    await expectRefusal(
      await call("POST", `/api/threads/${threadId}/runs/stream`, { assistant_id: "someone-else", input: null }),
      404,
    );
    await expectRefusal(await call("GET", `/api/threads/${threadId}/runs/${unknown}`), 404);
    await expectRefusal(await call("POST", `/api/threads/${threadId}/runs/${unknown}/cancel`), 404);
    await expectRefusal(await call("GET", `/api/threads/${threadId}/uploads/list/extra`), 404);
    await expectRefusal(await call("DELETE", `/api/threads/${threadId}/uploads/missing.txt`), 404);
    // Fawn's memory answers an unknown fact as a user's mistake (422), with the sentence saying so.
    await expectRefusal(await call("DELETE", `/api/memory/facts/${unknown}`), 422);
    await expectRefusal(await call("GET", "/api/skills/no-such-skill"), 404);
    await expectRefusal(await call("GET", "/nothing-here"), 404, /no route GET \/nothing-here/);
    expect(await snapshot()).toBe(before);
  });

  it("an oversized body is 413, whether its length is declared or streamed", async () => {
    const before = await snapshot();
    const big = JSON.stringify({ metadata: { filler: "x".repeat(1024 * 1024 + 10) } });
    for (const prefix of ["/api", "/api/langgraph"]) {
      await expectRefusal(await call("POST", `${prefix}/threads`, big), 413, /larger than this server takes \(1 MB\)/);
    }
    // A body sent in chunks, without a length: the server stops reading past the limit and answers.
    const streamed = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const url = new URL("/api/threads", server.url);
      const request = httpRequest(url, {
        method: "POST",
        headers: {
          authorization: `Bearer ${token}`,
          "content-type": "application/json",
          "transfer-encoding": "chunked",
        },
      });
      request.on("response", (response) => {
        let body = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => (body += chunk));
        response.on("end", () => resolve({ status: response.statusCode ?? 0, body }));
      });
      request.on("error", reject);
      const bytes = Buffer.from(big);
      for (let at = 0; at < bytes.length; at += 64 * 1024) request.write(bytes.subarray(at, at + 64 * 1024));
      request.end();
    });
    const response = new Response(streamed.body, { status: streamed.status });
    Object.defineProperty(response, "url", { value: `${server.url}/api/threads` });
    await expectRefusal(response, 413);
    expect(await snapshot()).toBe(before);
  });

  it("a missing or wrong token is 401, before anything is read", async () => {
    const before = await snapshot();
    for (const sent of [null, "", "fawn_wrong", `${token}x`, server.adminToken.slice(0, -1)]) {
      const response = await server.request("/api/threads", {
        method: "POST",
        token: sent,
        headers: { "content-type": "application/json" },
        body: "{}",
      });
      await expectRefusal(response, 401);
      expect(response.headers.get("www-authenticate")).toMatch(/^Bearer/);
    }
    const wrongScheme = await server.request("/api/models", {
      token: null,
      headers: { authorization: `Basic ${token}` },
    });
    await expectRefusal(wrongScheme, 401);
    expect(await snapshot()).toBe(before);
  });
});

describe("paths that try to leave the thread's sandbox", () => {
  it("an upload's name is kept to its last segment, and `..` alone is refused with nothing written", async () => {
    const before = await snapshot();
    const form = new FormData();
    form.append("files", new Blob(["x"]), "..");
    const refused = await server.request(`/api/threads/${threadId}/uploads`, { method: "POST", token, body: form });
    await expectRefusal(refused, 400, /unsafe/);
    expect(await snapshot()).toBe(before);

    const climbing = new FormData();
    climbing.append("files", new Blob(["root::0:0"]), "../../../../etc/passwd");
    const stored = await server.request(`/api/threads/${threadId}/uploads`, { method: "POST", token, body: climbing });
    expect(stored.status).toBe(200);
    const { files } = (await stored.json()) as { files: { filename: string; path: string }[] };
    expect(files.map((file) => [file.filename, file.path])).toEqual([["passwd", "/mnt/user-data/uploads/passwd"]]);
  });

  it("an artifact path climbing out of the thread's files is refused on read and on write", async () => {
    const before = await snapshot();
    for (const path of ["mnt/user-data/..%2F..%2F..%2Fetc%2Fpasswd", "%2E%2E/%2E%2E/etc/passwd", "etc/passwd"]) {
      const read = await call("GET", `/api/threads/${threadId}/artifacts/${path}`);
      expect(read.status).toBeGreaterThanOrEqual(400);
      expect(read.status).toBeLessThan(500);
      await expectRefusal(read, read.status);
      const write = await call("PUT", `/api/threads/${threadId}/artifacts/${path}`, { content: "owned" });
      expect(write.status).toBeGreaterThanOrEqual(400);
      expect(write.status).toBeLessThan(500);
      await expectRefusal(write, write.status);
    }
    expect(await snapshot()).toBe(before);
  });

  it("the agent's bash and write_file reach only the thread's own files, never the host's", async () => {
    const client = new Client({ apiUrl: server.apiUrl, apiKey: token });
    const thread = await client.threads.create();
    const hostFile = `/tmp/fawn-escape-${crypto.randomUUID()}`;
    const ask = async (content: string) => {
      for await (const _ of client.runs.stream(thread.thread_id, "lead_agent", {
        input: { messages: [{ type: "human", content }] },
      })) {
        // drained
      }
      const state = await client.threads.getState<{ messages: { type: string; content: unknown }[] }>(thread.thread_id);
      const tool = state.values.messages.filter((message) => message.type === "tool").at(-1);
      return JSON.stringify(tool?.content ?? "");
    };
    const listing = await ask(
      `call tool bash ${JSON.stringify({ description: "look", command: `cat /etc/passwd; ls /; echo x > ${hostFile}; cat ../../../etc/hostname` })}`,
    );
    expect(listing).not.toBe('""');
    expect(listing).not.toMatch(/root:x:0:0/);
    const written = await ask(
      `call tool write_file ${JSON.stringify({ description: "w", path: `/mnt/user-data/../../..${hostFile}.txt`, content: "x" })}`,
    );
    expect(written).toBeTruthy();
    expect(existsSync(hostFile)).toBe(false);
    expect(existsSync(`${hostFile}.txt`)).toBe(false);
  });
});
