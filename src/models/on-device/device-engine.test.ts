import { beforeEach, describe, expect, it, vi } from "vitest";

/** What the fake wllama did, in order. */
const log: string[] = [];
let failLoad: Error | undefined;
let failChat: Error | undefined;
let batch: number | undefined;

vi.mock("@wllama/wllama", () => ({
  Wllama: class {
    async loadModel(_files: Blob[], params: { n_ctx: number; n_threads: number; n_batch: number }) {
      log.push(`load ${params.n_ctx}`);
      batch = params.n_batch;
      if (failLoad) throw failLoad;
    }
    async exit() {
      log.push("exit");
    }
    /** Says "a", "b", "c" a few ms apart, or without end when asked to "loop"; stops when aborted. */
    createChatCompletion(options: {
      messages: { content: string }[];
      onData: (chunk: unknown) => void;
      abortSignal: AbortSignal;
      return_progress?: boolean;
    }): Promise<void> {
      const name = options.messages[0]!.content;
      log.push(`start ${name}`);
      return new Promise((resolve, reject) => {
        if (failChat) return reject(failChat);
        // As llama.cpp does when asked: the prompt's reading, a step at a time, before the reply.
        if (options.return_progress && name === "long") {
          for (const processed of [128, 256, 300]) {
            options.onData({
              choices: [{ index: 0, finish_reason: null, delta: { role: "assistant", content: null } }],
              prompt_progress: { total: 300, cache: 0, processed, time_ms: 1 },
            });
          }
        }
        let sent = 0;
        const tick = setInterval(() => {
          if (options.abortSignal.aborted) {
            clearInterval(tick);
            log.push(`aborted ${name}`);
            return reject(Object.assign(new Error("Operation aborted"), { name: "AbortError" }));
          }
          if (name !== "loop" && sent === 3) {
            clearInterval(tick);
            log.push(`end ${name}`);
            return resolve();
          }
          options.onData({ choices: [{ delta: { content: "abc"[sent % 3] } }] });
          sent += 1;
        }, 2);
      });
    }
  },
}));

const { DeviceEngine } = await import("./device-engine.ts");

function engine() {
  return new DeviceEngine(() => ({
    source: async () => new Blob(["GGUF"]),
    wasmUrl: async () => "/assets/wllama.wasm",
  }));
}

async function collect(chunks: AsyncGenerator<Record<string, unknown>>, stopAfter?: () => void): Promise<string> {
  let text = "";
  for await (const chunk of chunks) {
    text += (chunk.choices as { delta: { content: string } }[])[0]!.delta.content;
    if (text.length === 2) stopAfter?.();
  }
  return text;
}

beforeEach(() => {
  log.length = 0;
  failLoad = undefined;
  failChat = undefined;
});

describe("DeviceEngine", () => {
  it("streams a reply, loads the model once, and serves requests one after another", async () => {
    const device = engine();
    const [first, second] = await Promise.all([
      collect(device.chat("m.gguf", 8_192, { messages: [{ content: "one" }] })),
      collect(device.chat("m.gguf", 8_192, { messages: [{ content: "two" }] })),
    ]);
    expect([first, second]).toEqual(["abc", "abc"]);
    expect(log).toEqual(["load 8192", "start one", "end one", "start two", "end two"]);
  });

  it("Stop ends the reply quietly, and the next request starts only once llama.cpp stopped", async () => {
    const device = engine();
    const stop = new AbortController();
    const stopped = collect(device.chat("m.gguf", 8_192, { messages: [{ content: "loop" }] }, stop.signal), () =>
      stop.abort(),
    );
    const next = collect(device.chat("m.gguf", 8_192, { messages: [{ content: "after" }] }));
    expect((await stopped).length).toBeGreaterThanOrEqual(2);
    expect(await next).toBe("abc");
    expect(log.indexOf("aborted loop")).toBeLessThan(log.indexOf("start after"));
  });

  it("a reader that leaves early stops the generation too", async () => {
    const device = engine();
    const chunks = device.chat("m.gguf", 8_192, { messages: [{ content: "loop" }] });
    await chunks.next();
    await chunks.return(undefined);
    expect(log).toContain("aborted loop");
  });

  it("a prompt longer than the context window is a sentence naming the setting", async () => {
    failChat = new Error("request (17954 tokens) exceeds the available context size (16384 tokens), try increasing it");
    await expect(collect(engine().chat("m.gguf", 16_384, { messages: [{ content: "x" }] }))).rejects.toThrow(
      "The conversation is 17,954 tokens and the model's context window is 16,384: raise its Context window in " +
        "Settings → Models (if the model allows it and there is memory to spare), or start a new thread.",
    );
  });

  it("a file llama.cpp cannot load says so, and the next request tries again", async () => {
    const device = engine();
    failLoad = new Error("invalid magic");
    await expect(collect(device.chat("bad.gguf", 4_096, { messages: [{ content: "x" }] }))).rejects.toThrow(
      "The model file bad.gguf could not be loaded: invalid magic",
    );
    failLoad = undefined;
    expect(await collect(device.chat("bad.gguf", 4_096, { messages: [{ content: "x" }] }))).toBe("abc");
  });

  it("tells of the load, the prompt read step by step, and a wait behind another reply; none of it is the reply", async () => {
    const device = engine();
    const heard: unknown[] = [];
    const [first, second] = await Promise.all([
      collect(device.chat("m.gguf", 8_192, { messages: [{ content: "long" }] }, undefined, (p) => heard.push(p))),
      collect(device.chat("m.gguf", 8_192, { messages: [{ content: "two" }] }, undefined, (p) => heard.push(p))),
    ]);
    expect([first, second]).toEqual(["abc", "abc"]);
    expect(heard).toEqual([
      { stage: "waiting" },
      { stage: "loading" },
      { stage: "reading", processed: 128, total: 300 },
      { stage: "reading", processed: 256, total: 300 },
      { stage: "reading", processed: 300, total: 300 },
    ]);
    expect(batch).toBe(128);
    // Loaded already, nothing before it: the next request says nothing before its reply.
    heard.length = 0;
    await collect(device.chat("m.gguf", 8_192, { messages: [{ content: "three" }] }, undefined, (p) => heard.push(p)));
    expect(heard).toEqual([]);
  });
});
