// gateway.threads.listFiles: every file a thread holds, by path, with its size, type and time; no bytes cross.
import { strToU8 } from "fflate";
import { describe, expect, it } from "vitest";
import { useGatewayHarness } from "./harness.ts";

const harness = useGatewayHarness("thread-file-list-test");

describe("gateway.threads.listFiles", () => {
  it("lists a thread's uploads by path, with size, type and when they were written", async () => {
    const before = Date.now();
    const thread = await harness.gateway.threads.create();
    expect(await harness.gateway.threads.listFiles(thread.thread_id)).toEqual([]);

    await harness.gateway.threads.upload(thread.thread_id, [
      { name: "notes.txt", bytes: strToU8("bees make honey\n") },
      { name: "data.csv", bytes: strToU8("a,b\n1,2\n") },
    ]);
    const files = await harness.gateway.threads.listFiles(thread.thread_id);
    expect(files.map(({ path, size }) => [path, size])).toEqual([
      ["/mnt/user-data/uploads/data.csv", 8],
      ["/mnt/user-data/uploads/notes.txt", 16],
    ]);
    expect(files[1]?.mime_type).toMatch(/^text\/plain/);
    for (const file of files) expect(file.modified_at).toBeGreaterThanOrEqual(before);
    // Another thread's files are its own.
    const other = await harness.gateway.threads.create();
    expect(await harness.gateway.threads.listFiles(other.thread_id)).toEqual([]);
  });

  it("refuses a thread there is not", async () => {
    await expect(harness.gateway.threads.listFiles("nope")).rejects.toThrow("There is no thread with id nope.");
  });
});
