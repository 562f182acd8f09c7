// The SSE writer: stream modes checked and mapped, frames in LangGraph's wire form, and a client that leaves stops the
// source.
import { describe, expect, it } from "vitest";
import type { StoredRunEvent } from "../runs/index.ts";
import { HttpProblem } from "./http.ts";
import { eventFilter, sseFrame, sseResponse, streamModes } from "./sse.ts";

const event = (seq: number, name: StoredRunEvent["event"], data: unknown = {}): StoredRunEvent => ({
  seq,
  event: name,
  data,
});

describe("stream modes", () => {
  it("default to values, take one or many, and refuse a mode LangGraph does not know", () => {
    expect(streamModes(undefined)).toEqual(["values"]);
    expect(streamModes("updates")).toEqual(["updates"]);
    expect(streamModes(["values", "messages-tuple"])).toEqual(["values", "messages-tuple"]);
    expect(streamModes(["values", "tools"])).toEqual(["values", "tools"]);
    expect(() => streamModes(["values", "everything"])).toThrow(HttpProblem);
  });

  it("let through the modes asked for, metadata and errors, and never the end", () => {
    const keep = eventFilter(["messages-tuple", "events", "messages"]);
    const names = (["metadata", "values", "messages", "updates", "custom", "error", "end"] as const).filter((name) =>
      keep(event(1, name)),
    );
    expect(names).toEqual(["metadata", "messages", "error"]);
  });
});

describe("SSE frames", () => {
  it("write event, data and id lines", () => {
    expect(sseFrame(event(7, "values", { messages: [] }))).toBe('event: values\ndata: {"messages":[]}\nid: 7\n\n');
  });

  it("stream the kept events and close at the source's end", async () => {
    async function* source() {
      yield event(1, "metadata", { run_id: "r" });
      yield event(2, "updates", { a: 1 });
      yield event(3, "values", { b: 2 });
      yield event(4, "end", { status: "success" });
    }
    const response = sseResponse(source(), { keep: eventFilter(["values"]), abort: new AbortController() });
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    expect(await response.text()).toBe(
      'event: metadata\ndata: {"run_id":"r"}\nid: 1\n\nevent: values\ndata: {"b":2}\nid: 3\n\n',
    );
  });

  it("stop the source and call onDisconnect when the client leaves", async () => {
    let returned = false;
    async function* endless() {
      try {
        for (let seq = 1; ; seq++) {
          yield event(seq, "values", { seq });
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
      } finally {
        returned = true;
      }
    }
    const abort = new AbortController();
    let disconnected = false;
    const response = sseResponse(endless(), {
      keep: () => true,
      abort,
      onDisconnect: () => (disconnected = true),
    });
    const reader = response.body!.getReader();
    await reader.read();
    await reader.cancel();
    expect(abort.signal.aborted).toBe(true);
    expect(disconnected).toBe(true);
    expect(returned).toBe(true);
  });

  it("sends a failing source's error as LangGraph's error event", async () => {
    async function* failing(): AsyncGenerator<StoredRunEvent> {
      yield event(1, "metadata", {});
      throw new Error("The database went away.");
    }
    const response = sseResponse(failing(), { keep: () => true, abort: new AbortController() });
    expect(await response.text()).toContain(
      'event: error\ndata: {"error":"Error","message":"The database went away."}\n\n',
    );
  });
});
