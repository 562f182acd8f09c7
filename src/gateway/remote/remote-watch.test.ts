// The watch's notices between two looks at a server's threads: a thread whose updated_at or status moved changed, one
// gone was deleted, and many at once list every thread again.
import { describe, expect, it } from "vitest";
import { noticesBetween } from "./remote-watch.ts";

describe("the watch's notices", () => {
  it("says which threads changed, came or went", () => {
    const before = new Map([
      ["a", "1|idle"],
      ["b", "1|idle"],
      ["c", "1|idle"],
    ]);
    const after = new Map([
      ["a", "1|idle"],
      ["b", "1|busy"],
      ["d", "2|idle"],
    ]);
    expect(noticesBetween(before, after)).toEqual([
      { type: "thread-changed", thread_id: "b" },
      { type: "thread-changed", thread_id: "d" },
      { type: "thread-deleted", thread_id: "c" },
    ]);
    expect(noticesBetween(after, after)).toEqual([]);
  });

  it("lists every thread again when many changed at once", () => {
    const after = new Map(Array.from({ length: 30 }, (_, index) => [`t${index}`, "1|idle"] as const));
    expect(noticesBetween(new Map(), after)).toEqual([{ type: "threads-replaced" }]);
  });
});
