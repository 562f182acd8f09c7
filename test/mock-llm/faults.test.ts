// Checks the mock LLM's fault injection (faults.ts) over real HTTP: each fault strikes where and as often as asked.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { BAD_UTF8_BYTES, FAULT_REPLY_TEXT, faultOf } from "./faults.ts";
import { startMockLlm, type MockLlm } from "./server.ts";

let mock: MockLlm;
beforeAll(async () => {
  mock = await startMockLlm({ port: 0 });
});
afterAll(() => mock.close());
beforeEach(() => mock.reset());

const TOOLS = [{ type: "function", function: { name: "bash", parameters: { type: "object" } } }];

function ask(text: string, extra: Record<string, unknown> = {}): Promise<Response> {
  return fetch(`${mock.url}/chat/completions`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({
      model: "mock-model",
      stream: true,
      tools: TOOLS,
      messages: [{ role: "user", content: text }],
      ...extra,
    }),
  });
}

/** The body's bytes as they came, and whether the connection broke before its end. */
async function bytesOf(response: Response): Promise<{ bytes: Buffer; broke: boolean }> {
  const reader = response.body!.getReader();
  const parts: Uint8Array[] = [];
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return { bytes: Buffer.concat(parts), broke: false };
      parts.push(value);
    }
  } catch {
    return { bytes: Buffer.concat(parts), broke: true };
  }
}

describe("fault triggers", () => {
  it("reads the fault and its parameters, only on the agent's own streamed call", () => {
    const request = { model: "m", toolNames: ["bash"], stream: true, includeUsage: false };
    const user = (text: string) => ({ ...request, messages: [{ role: "user", text }] });
    expect(faultOf(user("please fault:http-429 retry-after=3 times=always"))).toEqual({
      name: "http-429",
      at: 500,
      times: Number.POSITIVE_INFINITY,
      retryAfter: 3,
    });
    expect(faultOf(user("fault:cut-token at=17"))).toMatchObject({ name: "cut-token", at: 17, times: 1 });
    expect(faultOf(user("fault:no-such-fault"))).toBeNull();
    // A title or memory request (no tools) and a tool result are never faulted.
    expect(faultOf({ ...user("fault:stall"), toolNames: [] })).toBeNull();
    expect(faultOf({ ...request, messages: [{ role: "tool", text: "fault:stall" }] })).toBeNull();
  });
});

describe("faults over HTTP", () => {
  it("answers a 429 with Retry-After as many times as asked, then the whole reply", async () => {
    for (const _ of [1, 2]) {
      const failed = await ask("fault:http-429 retry-after=2 times=2");
      expect(failed.status).toBe(429);
      expect(failed.headers.get("retry-after")).toBe("2");
      await failed.text();
    }
    const recovered = await (await ask("fault:http-429 retry-after=2 times=2")).text();
    const text = [...recovered.matchAll(/"content":"([^"]*)"/g)].map((match) => match[1]).join("");
    expect(text).toBe(FAULT_REPLY_TEXT);
    expect(mock.requests.map((request) => request.scenario)).toEqual([
      "fault:http-429",
      "fault:http-429",
      "fault-recovered",
    ]);
  });

  it("drops the connection inside the tool call's arguments", async () => {
    const { bytes, broke } = await bytesOf(await ask("fault:cut-tool-json at=500"));
    expect(broke).toBe(true);
    const text = bytes.toString("utf8");
    expect(text).toContain('"name":"write_file"');
    expect(text).not.toContain("[DONE]");
    expect(text.endsWith("\n\n")).toBe(false);
  });

  it("sends bytes that are not UTF-8 inside the text, and a stall sends nothing more until the client hangs up", async () => {
    const { bytes } = await bytesOf(await ask("fault:bad-utf8 at=300"));
    expect(bytes.includes(BAD_UTF8_BYTES)).toBe(true);
    const stop = new AbortController();
    const stalled = await fetch(`${mock.url}/chat/completions`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({
        model: "mock-model",
        stream: true,
        tools: TOOLS,
        messages: [{ role: "user", content: "fault:stall" }],
      }),
      signal: stop.signal,
    });
    const reader = stalled.body!.getReader();
    await reader.read();
    expect(mock.activeStreams()).toBe(1);
    stop.abort();
    await expect.poll(() => mock.activeStreams()).toBe(0);
    expect(mock.requests.at(-1)?.disconnected).toBe(true);
  });
});
