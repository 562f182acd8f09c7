import { strToU8 } from "fflate";
import { describe, expect, it } from "vitest";
import type { BundledThread } from "./thread-bundle.ts";
import { previewThreadBundle } from "./thread-bundle-preview.ts";

const THREAD = { thread_id: "t-1", title: "Bees", created_at: 1, updated_at: 2, status: "idle" as const };

function bundled(records: Partial<BundledThread["records"]>, files: BundledThread["files"] = []): BundledThread {
  return {
    records: {
      thread: THREAD,
      entries: [],
      runs: [],
      checkpoints: [],
      checkpoint_blobs: [],
      checkpoint_writes: [],
      checkpoint_messages: [],
      files: [],
      ...records,
    },
    files,
  };
}

const message = (id: string, kind: string) => ({
  thread_id: "t-1",
  message_id: id,
  hash: `h-${id}`,
  type: "json",
  bytes: strToU8(JSON.stringify({ lc: 1, type: "constructor", id: ["langchain_core", "messages", kind], kwargs: {} })),
});

const checkpoint = (id: string, version: number) =>
  ({ thread_id: "t-1", checkpoint_ns: "", checkpoint_id: id, channel_versions: { messages: version } }) as never;

describe("what a bundle holds", () => {
  it("counts the user's and the assistant's messages of the latest checkpoint, not tool results or older lists", () => {
    const preview = previewThreadBundle(
      bundled(
        {
          checkpoints: [checkpoint("0001", 1), checkpoint("0002", 2)],
          checkpoint_blobs: [
            {
              thread_id: "t-1",
              checkpoint_ns: "",
              channel: "messages",
              version: 1,
              kind: "messages",
              seq: 0,
              len: 1,
              refs: [["m1", "h-m1"]],
            },
            // Version 2 extends version 1 (its first item) with three more.
            {
              thread_id: "t-1",
              checkpoint_ns: "",
              channel: "messages",
              version: 2,
              kind: "messages",
              seq: 1,
              len: 4,
              base: 1,
              refs: [
                ["m2", "h-m2"],
                ["m3", "h-m3"],
                ["m4", "h-m4"],
              ],
            },
          ],
          checkpoint_messages: [
            message("m1", "HumanMessage"),
            message("m2", "AIMessage"),
            message("m3", "ToolMessage"),
            message("m4", "AIMessage"),
          ],
        },
        [{ thread_id: "t-1", path: "/mnt/user-data/outputs/a.txt", bytes: strToU8("abc") }],
      ),
    );
    expect(preview).toEqual({
      title: "Bees",
      message_count: 3,
      files: [{ path: "/mnt/user-data/outputs/a.txt", size: 3 }],
    });
  });

  it("counts the messages a thread from before checkpoints keeps in its entries", () => {
    const entries = [
      { kind: "message", message: { type: "human", id: "a", content: "hi" } },
      { kind: "message", message: { type: "ai", id: "b", content: "hello" } },
      { kind: "message", message: { type: "tool", id: "c", content: "x", tool_call_id: "t" } },
      { kind: "stopped", id: "s", message_id: "b" },
    ].map((entry, seq) => ({ thread_id: "t-1", seq, entry })) as BundledThread["records"]["entries"];
    expect(previewThreadBundle(bundled({ entries })).message_count).toBe(2);
  });
});
