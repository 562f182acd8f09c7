import { describe, expect, it } from "vitest";
import { noticeOf, noticeShown } from "./notice.ts";

describe("notices", () => {
  it("are errors unless said otherwise", () => {
    expect(noticeOf("It failed.")).toEqual({ text: "It failed.", kind: "error" });
    expect(noticeOf("Compacted.", { kind: "success", threadId: "t1" })).toEqual({
      text: "Compacted.",
      kind: "success",
      threadId: "t1",
    });
    expect(noticeOf(undefined)).toBeUndefined();
  });

  it("show only in their own thread; one of no thread shows everywhere", () => {
    const compacted = noticeOf("Compacted.", { kind: "success", threadId: "t1" });
    expect(noticeShown(compacted, "t1")).toBe(compacted);
    expect(noticeShown(compacted, "t2")).toBeUndefined();
    expect(noticeShown(compacted, undefined)).toBeUndefined();
    const storage = noticeOf("Storage failed.");
    expect(noticeShown(storage, "t2")).toBe(storage);
    expect(noticeShown(storage, undefined)).toBe(storage);
  });
});
