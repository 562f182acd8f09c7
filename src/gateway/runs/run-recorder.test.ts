import { describe, expect, it } from "vitest";
import type { ChangeNotice, RunEvent, RunRequest } from "../../protocol/index.ts";
import { DATABASE_GONE_MESSAGE, type RunRecord } from "../../storage/index.ts";
import { RunRecorder, type RunRecorderStorage } from "./run-recorder.ts";

const request: RunRequest = { run_id: "r2", thread_id: "t1", input: { messages: [{ type: "human", content: "hi" }] } };
const thread = { thread_id: "t1", title: "", status: "idle" as const, created_at: 1, updated_at: 1 };

/** Storage in memory: run records by id, kept files by checkpoint, the search calls, and the thread's newest step. */
function memoryStorage(latest: () => string | undefined) {
  const records = new Map<string, RunRecord>();
  const writes: RunRecord[] = [];
  const kept: string[] = [];
  const search: string[] = [];
  const storage: RunRecorderStorage = {
    threads: {
      recordRun: async (record) => {
        records.set(record.run_id, record);
        writes.push(record);
      },
      run: async (_threadId, runId) => records.get(runId),
    },
    checkpointer: { latestCheckpointId: async () => latest() },
    fileVersions: { save: async (_threadId, checkpointId) => void kept.push(checkpointId) },
    search: {
      invalidate: async (threadId) => void search.push(`invalidate ${threadId}`),
      index: async (threadId) => void search.push(`index ${threadId}`),
    },
  };
  return { storage, records, writes, kept, search };
}

describe("RunRecorder", () => {
  it("records the run as it starts, moves its end at each saved step, and keeps the files of the step it ended at", async () => {
    let latest: string | undefined = "c0";
    const { storage, records, writes, kept, search } = memoryStorage(() => latest);
    const events: RunEvent[] = [];
    const recorder = new RunRecorder(request, storage, (event) => events.push(event));
    await recorder.begin({
      thread,
      target: { model: "m1" },
      branch: { kind: "send", base: "c0", user_message_id: "u1" },
    });
    expect(records.get("r2")).toMatchObject({ status: "running", model: "m1", kind: "send", base: "c0" });
    expect(records.get("r2")?.end).toBeUndefined();

    latest = "c1";
    recorder.event({ event: "values", data: { messages: [] } });
    recorder.event({ event: "end", data: { status: "success" } });
    await recorder.finish();

    expect(writes.map((record) => [record.status, record.end])).toEqual([
      ["running", undefined],
      ["running", "c1"],
      ["success", "c1"],
    ]);
    expect(kept).toEqual(["c1"]);
    expect(search).toEqual(["invalidate t1", "index t1"]);
    expect(events.map((event) => event.event)).toEqual(["values", "end"]);
  });

  it("tells every tab of each saved step, so they show it even if this tab dies before the run's end", async () => {
    const { storage } = memoryStorage(() => "c1");
    const notices: ChangeNotice[] = [];
    const recorder = new RunRecorder(
      request,
      { ...storage, notify: (notice) => notices.push(notice) },
      () => undefined,
    );
    await recorder.begin({ thread, target: { model: "m1" }, branch: { kind: "send", base: "c0" } });
    recorder.event({ event: "values", data: { messages: [] } });
    recorder.event({ event: "end", data: { status: "success" } });
    await recorder.finish();
    expect(notices).toEqual([{ type: "thread-changed", thread_id: "t1" }]);
  });

  it("keeps no record when the thread does not exist, or the plan refused the run", async () => {
    const { storage, writes, search } = memoryStorage(() => "c0");
    const events: RunEvent[] = [];
    const refused = new RunRecorder(request, storage, (event) => events.push(event));
    refused.refuse("That message is not one of this thread's own messages.");
    await refused.finish();
    const missing = new RunRecorder(request, storage, () => undefined);
    await missing.begin({ thread: undefined, target: undefined, branch: {} });
    missing.event({ event: "values", data: { messages: [] } });
    await missing.finish();

    expect(writes).toEqual([]);
    expect(search).toEqual([]);
    expect(events).toEqual([
      { event: "metadata", data: { run_id: "r2", thread_id: "t1" } },
      {
        event: "error",
        data: { error: "bad_request", message: "That message is not one of this thread's own messages." },
      },
      { event: "end", data: { status: "error" } },
    ]);
  });

  it("records a server's database that went away as a server error in one sentence, which Continue accepts", async () => {
    const { storage, records } = memoryStorage(() => undefined);
    const events: RunEvent[] = [];
    const recorder = new RunRecorder(request, storage, (event) => events.push(event));
    await recorder.begin({ thread, target: undefined, branch: { kind: "send" } });
    const refused = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), {
      code: "ECONNREFUSED",
      syscall: "connect",
    });
    recorder.fail(new Error("the step could not be saved", { cause: refused }));
    await recorder.finish();

    expect(events[0]).toEqual({ event: "error", data: { error: "server_error", message: DATABASE_GONE_MESSAGE } });
    expect(records.get("r2")?.error?.error).toBe("server_error");
    expect(JSON.stringify(events)).not.toContain("ECONNREFUSED");
  });

  it("records a throw as the run's error, with stored keys redacted, and ends the run", async () => {
    const { storage, records } = memoryStorage(() => undefined);
    const events: RunEvent[] = [];
    const recorder = new RunRecorder(request, storage, (event) => events.push(event));
    recorder.redacting(["sk-secret-1234567890"]);
    await recorder.begin({ thread, target: undefined, branch: { kind: "send" } });
    recorder.fail(new Error("bad key sk-secret-1234567890"));
    await recorder.finish();

    expect(events.map((event) => event.event)).toEqual(["error", "end"]);
    const error = records.get("r2")?.error;
    expect(error?.error).toBe("unknown");
    expect(error?.message).toContain("The run failed: bad key");
    expect(error?.message).not.toContain("sk-secret-1234567890");
    expect(records.get("r2")).toMatchObject({ status: "error" });
    expect(records.get("r2")?.end).toBeUndefined();
  });

  it("moves the end of the run a resumption continued to where the resumption ended", async () => {
    let latest: string | undefined = "c3";
    const { storage, records } = memoryStorage(() => latest);
    await storage.threads.recordRun({
      thread_id: "t1",
      run_id: "r1",
      status: "error",
      created_at: 1,
      updated_at: 1,
      kind: "send",
      end: "c3",
    });
    const recorder = new RunRecorder(request, storage, () => undefined);
    await recorder.begin({ thread, target: { model: "m1" }, branch: { kind: "resume", base: "c3", continues: "r1" } });
    latest = "c5";
    recorder.event({ event: "end", data: { status: "success" } });
    await recorder.finish();

    expect(records.get("r2")).toMatchObject({ status: "success", end: "c5", kind: "resume", continues: "r1" });
    expect(records.get("r1")).toMatchObject({ status: "success", end: "c5" });
  });
});
