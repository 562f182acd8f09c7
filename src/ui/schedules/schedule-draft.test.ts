// A schedule's form values and back: what Save sends for each kind of repeat, and what an existing schedule opens as.
import { describe, expect, it } from "vitest";
import type { Schedule } from "../../protocol/index.ts";
import { draftOf, inputOf } from "./schedule-draft.ts";

const stored: Schedule = {
  id: "s1",
  name: "Digest",
  thread_id: "t1",
  prompt: "News?",
  when: { kind: "every", every: 15, unit: "minutes" },
  timezone: "Europe/Paris",
  enabled: false,
  model: "gpt",
  next_run_at: null,
  run_count: 0,
  created_at: "2026-01-01T00:00:00.000Z",
  updated_at: "2026-01-01T00:00:00.000Z",
};

describe("a schedule's draft", () => {
  it("opens a stored schedule with its values and saves them back unchanged", () => {
    const draft = draftOf(stored, { threadId: null });
    expect(draft).toMatchObject({ repeat: "minutes", every: "15", threadId: "t1", enabled: false });
    const {
      id: _id,
      next_run_at: _next,
      run_count: _count,
      created_at: _created,
      updated_at: _updated,
      ...input
    } = stored;
    expect(inputOf(draft)).toEqual(input);
  });

  it("starts a new schedule in the given thread, daily at 09:00, and sends each repeat as its kind", () => {
    const draft = draftOf(undefined, { threadId: "t9" });
    expect(inputOf(draft)).toMatchObject({ thread_id: "t9", when: { kind: "daily", time: "09:00" }, enabled: true });
    expect(inputOf({ ...draft, repeat: "hours", every: "6" }).when).toEqual({ kind: "every", every: 6, unit: "hours" });
    expect(inputOf({ ...draft, repeat: "weekdays", time: "08:15" }).when).toEqual({ kind: "weekdays", time: "08:15" });
    expect(inputOf({ ...draft, repeat: "cron", cron: "0 0 1 * *" }).when).toEqual({ kind: "cron", cron: "0 0 1 * *" });
    const once = inputOf({ ...draft, repeat: "once", at: "2026-05-01T10:30" }).when;
    expect(once.kind === "once" && new Date(once.at).getTime()).toBe(new Date("2026-05-01T10:30").getTime());
  });
});
