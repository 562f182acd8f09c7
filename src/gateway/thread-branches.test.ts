import { describe, expect, it } from "vitest";
import type { WireMessage } from "../protocol/index.ts";
import type { RunRecord } from "../storage/index.ts";
import { laggingRun, resumableRun, turnVersions, versionHead } from "./thread-branches.ts";

let clock = 0;
function run(run_id: string, fields: Partial<RunRecord>): RunRecord {
  clock += 1;
  return { thread_id: "t", run_id, status: "success", created_at: clock, updated_at: clock, ...fields };
}

const human = (id: string): WireMessage => ({ type: "human", id, content: id });
const ai = (id: string, calls = false): WireMessage => ({
  type: "ai",
  id,
  content: "",
  ...(calls && { tool_calls: [{ id: `call-${id}`, name: "bash", args: {} }] }),
});

// Turn 1 (u1), then turn 2 sent (u2), edited (u2e), and u2e regenerated twice (u2e, as r1 and r2).
const runs = [
  run("s1", { kind: "send", user_message_id: "u1", end: "c1" }),
  run("s2", { kind: "send", base: "c1", user_message_id: "u2", end: "c2" }),
  run("s3", { kind: "send", base: "c2", user_message_id: "u3", end: "c3" }),
  run("e2", { kind: "edit", base: "c1", user_message_id: "u2e", end: "c4" }),
  run("r1", { kind: "regenerate", base: "c1", user_message_id: "u2r1", regenerates: "e2", end: "c5" }),
  run("r2", { kind: "regenerate", base: "c1", user_message_id: "u2r2", regenerates: "e2", end: "c6" }),
];

describe("turnVersions", () => {
  it("counts a user message's edits and a reply's regenerations apart", () => {
    const shown = [human("u1"), ai("a1"), human("u2r1"), ai("a2")];
    expect(turnVersions(runs, shown)).toEqual({
      u2r1: {
        prompt: { index: 2, count: 2, previous: "s2" },
        reply: { index: 2, count: 3, previous: "e2", next: "r2" },
      },
    });
  });

  it("gives a turn with one version nothing to switch", () => {
    expect(turnVersions(runs, [human("u1"), ai("a1"), human("u2"), ai("a2"), human("u3")])).toEqual({
      u2: { prompt: { index: 1, count: 2, next: "e2" } },
    });
  });

  it("describes the version on the shown path when regenerations keep their user message's id", () => {
    // A LangGraph client's regenerations run on from the user message: all three versions have u1.
    const kept = [
      run("k1", { kind: "send", user_message_id: "u1", end: "c3" }),
      run("k2", { kind: "regenerate", user_message_id: "u1", regenerates: "k1", end: "c5" }),
      run("k3", { kind: "regenerate", user_message_id: "u1", regenerates: "k1", end: "c7" }),
    ];
    const shown = [human("u1"), ai("a2")];
    expect(turnVersions(kept, shown, new Set(["c5", "c4", "c1", "c0"]))).toEqual({
      u1: { reply: { index: 2, count: 3, previous: "k1", next: "k3" } },
    });
    expect(turnVersions(kept, shown, new Set(["c7", "c6", "c1", "c0"]))).toEqual({
      u1: { reply: { index: 3, count: 3, previous: "k2" } },
    });
  });
});

describe("versionHead", () => {
  it("follows a version through the turns after it", () => {
    expect(versionHead(runs, "s2")).toBe("c3");
    expect(versionHead(runs, "r2")).toBe("c6");
  });

  it("has none for a run that saved no end", () => {
    expect(versionHead([run("x", { kind: "send", user_message_id: "u" })], "x")).toBeUndefined();
  });
});

describe("laggingRun", () => {
  const cut = run("cut", { kind: "send", base: "c1", user_message_id: "u9", end: "c8", status: "running" });

  it("names the newest run left running when no run ends at the head, with where its record ends", () => {
    expect(laggingRun([...runs, cut], "c9")).toEqual({ run: cut, since: "c8" });
    const none: RunRecord = { ...cut };
    delete none.end;
    expect(laggingRun([none], "c9")?.since).toBe("c1");
  });

  it("names none when a run ends at the head or the newest run ended", () => {
    expect(laggingRun([...runs, cut], "c8")).toBeUndefined();
    expect(laggingRun([...runs, { ...cut, status: "success" }], "c9")).toBeUndefined();
    expect(laggingRun([...runs, { ...cut, imported: true }], "c9")).toBeUndefined();
  });
});

describe("resumableRun", () => {
  const cut = run("cut", { kind: "send", base: "c1", user_message_id: "u9", end: "c9", status: "running" });

  it("offers a run a closed page left running, whose tool calls await their results", () => {
    expect(resumableRun([...runs, cut], "c9", [human("u9"), ai("a9", true)])?.run_id).toBe("cut");
  });

  it("offers nothing once the model answered, or at another version's head", () => {
    expect(resumableRun([...runs, cut], "c9", [human("u9"), ai("a9")])).toBeUndefined();
    expect(resumableRun([...runs, cut], "c3", [human("u3")])).toBeUndefined();
  });

  it("offers a run cut off after saving its first step but before recording it, once laggingRun ends it at the head (found by the crash suite)", () => {
    const unrecorded = run("unrecorded", { kind: "send", base: "c6", user_message_id: "u9", status: "running" });
    const lagging = laggingRun([...runs, unrecorded], "c9");
    expect(lagging).toEqual({ run: unrecorded, since: "c6" });
    const ended = { ...unrecorded, end: "c9" };
    expect(resumableRun([...runs, ended], "c9", [human("u9")])?.run_id).toBe("unrecorded");
  });

  it("offers a fixable error but not a run the user stopped", () => {
    const failed = { ...cut, status: "error" as const, error: { error: "unreachable" as const, message: "x" } };
    expect(resumableRun([failed], "c9", [human("u9")])?.run_id).toBe("cut");
    expect(resumableRun([{ ...cut, status: "interrupted" }], "c9", [human("u9")])).toBeUndefined();
    const refused = { ...failed, error: { error: "bad_request" as const, message: "x" } };
    expect(resumableRun([refused], "c9", [human("u9")])).toBeUndefined();
  });

  it("never offers a run that came in an imported thread, whatever it says of itself", () => {
    expect(resumableRun([{ ...cut, imported: true }], "c9", [human("u9"), ai("a9", true)])).toBeUndefined();
    const failed = {
      ...cut,
      imported: true,
      status: "error" as const,
      error: { error: "unknown" as const, message: "x" },
    };
    expect(resumableRun([failed], "c9", [human("u9")])).toBeUndefined();
    // A resumption made here of an imported run goes on with that run: still not offered.
    const resumed = run("again", { kind: "resume", base: "c9", continues: "cut", end: "c10", status: "running" });
    expect(resumableRun([{ ...cut, imported: true }, resumed], "c10", [human("u9"), ai("a9", true)])).toBeUndefined();
  });

  it("goes on with the run a resumption continued", () => {
    const resumed = run("again", { kind: "resume", base: "c9", continues: "cut", end: "c10", status: "running" });
    expect(resumableRun([cut, resumed], "c10", [human("u9"), ai("a9", true)])?.run_id).toBe("cut");
  });
});
