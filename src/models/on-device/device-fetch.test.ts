import { describe, expect, it } from "vitest";
import { UserError } from "../../shared/user-error.ts";
import type { DeviceEngine } from "./device-engine.ts";
import { deviceFetch } from "./device-fetch.ts";

/** An engine that answers with `chunks`, or fails with `error` before any. */
function engine(chunks: Record<string, unknown>[], error?: Error) {
  const calls: { id: string; contextWindow: number; request: unknown }[] = [];
  const fake = {
    async *chat(id: string, contextWindow: number, request: unknown) {
      calls.push({ id, contextWindow, request });
      if (error) throw error;
      for (const chunk of chunks) yield chunk;
    },
  };
  return { engine: fake as unknown as DeviceEngine, calls };
}

const delta = (content: string) => ({ choices: [{ index: 0, delta: { content } }] });
const post = (body: unknown) => ({ method: "POST", body: JSON.stringify(body) });

describe("deviceFetch", () => {
  it("streams the engine's chunks as server-sent events, with the model's context window", async () => {
    const { engine: fake, calls } = engine([delta("Hel"), delta("lo")]);
    const fetch = deviceFetch(fake, (model) => (model === "a.gguf" ? 8_192 : 0));
    const response = await fetch(
      "http://on-device.invalid/v1/chat/completions",
      post({ model: "a.gguf", stream: true, messages: [] }),
    );
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    const events = (await response.text()).split("\n\n").filter(Boolean);
    expect(events.at(-1)).toBe("data: [DONE]");
    const sent = events
      .slice(0, -1)
      .map((event) => JSON.parse(event.slice("data: ".length)) as Record<string, unknown>);
    expect(sent.map((chunk) => chunk.choices)).toEqual([delta("Hel").choices, delta("lo").choices]);
    // Each completion has an id of its own (wllama's are empty), the same on every chunk.
    expect(sent[0]!.id).toMatch(/^chatcmpl-device-/);
    expect(sent[1]!.id).toBe(sent[0]!.id);
    const again = await fetch(
      "http://on-device.invalid/v1/chat/completions",
      post({ model: "a.gguf", stream: true, messages: [] }),
    );
    expect((await again.text()).includes(String(sent[0]!.id))).toBe(false);
    expect(calls[0]).toMatchObject({ id: "a.gguf", contextWindow: 8_192 });
  });

  it("folds a request without stream into one completion, tool calls included", async () => {
    const { engine: fake } = engine([
      {
        choices: [
          { index: 0, delta: { tool_calls: [{ index: 0, id: "c1", function: { name: "bash", arguments: "{" } }] } },
        ],
      },
      {
        choices: [
          {
            index: 0,
            delta: { tool_calls: [{ index: 0, function: { arguments: '"command":"ls"}' } }] },
            finish_reason: "tool_calls",
          },
        ],
      },
    ]);
    const response = await deviceFetch(fake, () => 4_096)("http://x/v1/chat/completions", post({ messages: [] }));
    const body = (await response.json()) as { choices: { message: unknown; finish_reason: string }[] };
    expect(body.choices[0]).toEqual({
      index: 0,
      finish_reason: "tool_calls",
      message: {
        role: "assistant",
        content: null,
        tool_calls: [{ id: "c1", type: "function", function: { name: "bash", arguments: '{"command":"ls"}' } }],
      },
    });
  });

  it("answers a failure before the first chunk as an HTTP error with its sentence", async () => {
    const { engine: fake } = engine([], new UserError("The model file a.gguf could not be loaded: bad magic"));
    const response = await deviceFetch(fake, () => 4_096)(
      "http://x/v1/chat/completions",
      post({ stream: true, messages: [] }),
    );
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      error: { message: "The model file a.gguf could not be loaded: bad magic" },
    });
  });

  it("answers only chat completions", async () => {
    const { engine: fake } = engine([]);
    expect((await deviceFetch(fake, () => 4_096)("http://x/v1/models")).status).toBe(404);
  });
});
