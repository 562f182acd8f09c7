import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { ThreadSearchResult } from "../../protocol/index.ts";
import {
  createThreadSearch,
  highlightParts,
  searchStatus,
  type ThreadSearchState,
} from "./thread-search-controller.ts";

function result(query: string, total = 1, indexing = false): ThreadSearchResult {
  const hits = Array.from({ length: Math.min(total, 2) }, (_, index) => ({
    thread: { thread_id: `t${index}`, title: `Thread ${index}`, created_at: 0, updated_at: 0, status: "idle" as const },
    title_highlights: [],
  }));
  return { query, hits, total, indexing };
}

describe("createThreadSearch", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  function setup(answer: (query: string) => Promise<ThreadSearchResult> = async (query) => result(query)) {
    const states: ThreadSearchState[] = [];
    const search = vi.fn(answer);
    const controller = createThreadSearch({ search, onChange: (state) => states.push(state), debounceMs: 150 });
    return { controller, search, states };
  }

  it("searches once typing pauses, for the last query typed", async () => {
    const { controller, search } = setup();
    controller.setQuery("b");
    controller.setQuery("bu");
    controller.setQuery("budget");
    expect(controller.state()).toMatchObject({ query: "budget", pending: true });
    await vi.advanceTimersByTimeAsync(149);
    expect(search).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(search).toHaveBeenCalledExactlyOnceWith("budget");
    expect(controller.state()).toMatchObject({ query: "budget", pending: false, result: { query: "budget" } });
  });

  it("never shows an older query's answer over a newer one", async () => {
    const waiting = new Map<string, (value: ThreadSearchResult) => void>();
    const { controller } = setup((query) => new Promise((resolve) => waiting.set(query, resolve)));
    controller.setQuery("old");
    await vi.advanceTimersByTimeAsync(150);
    controller.setQuery("new");
    await vi.advanceTimersByTimeAsync(150);
    waiting.get("new")!(result("new"));
    await vi.advanceTimersByTimeAsync(0);
    waiting.get("old")!(result("old"));
    await vi.advanceTimersByTimeAsync(0);
    expect(controller.state().result?.query).toBe("new");
  });

  it("clears at once on a blank query, dropping a search on its way", async () => {
    const { controller, search } = setup();
    controller.setQuery("budget");
    controller.setQuery("");
    await vi.advanceTimersByTimeAsync(500);
    expect(search).not.toHaveBeenCalled();
    expect(controller.state()).toEqual({ query: "", pending: false });
  });

  it("searches now on request (Enter), without waiting for the pause", async () => {
    const { controller, search } = setup();
    controller.setQuery("budget");
    expect((await controller.searchNow())?.query).toBe("budget");
    await vi.advanceTimersByTimeAsync(500);
    expect(search).toHaveBeenCalledTimes(1);
  });

  it("searches again while older threads are being indexed, then stops", async () => {
    let calls = 0;
    const { controller, search } = setup(async (query) => result(query, 1, ++calls < 3));
    controller.setQuery("budget");
    await vi.advanceTimersByTimeAsync(150);
    expect(controller.state().result?.indexing).toBe(true);
    await vi.advanceTimersByTimeAsync(5000);
    expect(search).toHaveBeenCalledTimes(3);
    expect(controller.state().result?.indexing).toBe(false);
  });

  it("keeps the query and says why when the search fails", async () => {
    const { controller } = setup(async () => {
      throw new Error("storage closed");
    });
    controller.setQuery("budget");
    await vi.advanceTimersByTimeAsync(150);
    expect(searchStatus(controller.state())).toBe("The search failed: storage closed");
  });
});

describe("searchStatus", () => {
  it("says when nothing matches, how many match, and when some are not shown", () => {
    expect(searchStatus({ query: "zebra", pending: false, result: result("zebra", 0) })).toBe(
      "No threads match “zebra”.",
    );
    expect(searchStatus({ query: "x", pending: false, result: result("x", 1) })).toBe("1 matching thread.");
    expect(searchStatus({ query: "x", pending: false, result: result("x", 2) })).toBe("2 matching threads.");
    expect(searchStatus({ query: "x", pending: false, result: result("x", 1234) })).toBe(
      "Showing 2 of 1,234 matching threads.",
    );
    expect(searchStatus({ query: "x", pending: true })).toBe("Searching…");
    expect(searchStatus({ query: "x", pending: false, result: result("x", 0, true) })).toBe(
      "No threads match “x”. Still indexing older threads…",
    );
  });
});

describe("highlightParts", () => {
  it("cuts a text into plain and marked parts, merging overlaps", () => {
    expect(
      highlightParts("the budget plan", [
        [4, 10],
        [8, 10],
        [11, 15],
      ]),
    ).toEqual([
      { text: "the ", mark: false },
      { text: "budget", mark: true },
      { text: " ", mark: false },
      { text: "plan", mark: true },
    ]);
    expect(highlightParts("plain", [])).toEqual([{ text: "plain", mark: false }]);
  });
});
