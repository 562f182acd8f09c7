// The sandbox log (DeerFlow's SandboxAuditMiddleware) through the Gateway, with the scripted mock model: each command
// the agent runs is kept with its time, exit code and changed files; the Terminal's are not; the log leaves the
// conversation alone, travels in a .fawn bundle and a backup, and a bundle with a forged entry is refused whole.
import { strToU8, unzipSync, zipSync } from "fflate";
import { describe, expect, it } from "vitest";
import type { Gateway } from "../../src/gateway/index.ts";
import { runThread, useGatewayHarness } from "./harness.ts";

const harness = useGatewayHarness("sandbox-audit-test");

const bash = (command: string) => `call tool bash ${JSON.stringify({ description: "test", command })}`;

async function threadWithCommands(gateway: Gateway): Promise<string> {
  const { thread_id: threadId } = await gateway.threads.create();
  await gateway.threads.upload(threadId, [{ name: "old.txt", bytes: strToU8("old\n") }]);
  await runThread(
    gateway,
    threadId,
    bash("echo hi > /mnt/user-data/outputs/a.md && rm /mnt/user-data/uploads/old.txt && echo done"),
  );
  await runThread(gateway, threadId, bash("echo failing; exit 3"));
  return threadId;
}

describe("the sandbox log", () => {
  it("keeps each command the agent ran, its exit code and the files it changed, oldest first", async () => {
    const { gateway } = harness;
    const started = Date.now();
    const threadId = await threadWithCommands(gateway);
    // The user's own Terminal command is not the agent's: it is not logged.
    await gateway.sandbox.exec({ command_id: "t1", thread_id: threadId, command: "touch /mnt/user-data/workspace/t" });

    const log = await gateway.threads.sandboxLog(threadId);
    expect(log.map(({ command, exit_code, files_changed }) => ({ command, exit_code, files_changed }))).toEqual([
      {
        command: "echo hi > /mnt/user-data/outputs/a.md && rm /mnt/user-data/uploads/old.txt && echo done",
        exit_code: 0,
        files_changed: [
          { path: "/mnt/user-data/outputs/a.md", change: "added" },
          { path: "/mnt/user-data/uploads/old.txt", change: "deleted" },
        ],
      },
      { command: "echo failing; exit 3", exit_code: 3, files_changed: [] },
    ]);
    expect(log[0]?.at).toBeGreaterThanOrEqual(started);
    expect(log[1]?.at).toBeGreaterThanOrEqual(log[0]?.at ?? 0);

    // The conversation shows its messages only: no note of the log among them.
    const detail = await gateway.threads.get(threadId);
    expect(detail?.entries.every((entry) => entry.kind === "message")).toBe(true);
  });

  it("travels with the thread in a .fawn bundle", async () => {
    const { gateway } = harness;
    const threadId = await threadWithCommands(gateway);
    const log = await gateway.threads.sandboxLog(threadId);
    const bundle = await gateway.bundles.export(threadId, "fawn");
    await gateway.threads.delete(threadId);
    const imported = await gateway.bundles.import(bundle.blob);
    expect(await gateway.threads.sandboxLog(imported.thread_id)).toEqual(log);
  });

  it("travels in a backup (Settings → Data → Export all data) to another browser", async () => {
    const { gateway } = harness;
    const threadId = await threadWithCommands(gateway);
    const log = await gateway.threads.sandboxLog(threadId);
    const backup = await gateway.data.export();
    const other = await harness.freshGateway();
    await other.data.import(backup.blob, { acceptAdditions: true });
    expect(await other.threads.sandboxLog(threadId)).toEqual(log);
  });

  it("refuses a bundle whose log names a file outside the thread, and writes nothing", async () => {
    const { gateway } = harness;
    const threadId = await threadWithCommands(gateway);
    const bundle = await gateway.bundles.export(threadId, "fawn");
    await gateway.threads.delete(threadId);
    const members = unzipSync(new Uint8Array(await bundle.blob.arrayBuffer()));
    const name = Object.keys(members).find((member) => member.endsWith("/thread.json")) ?? "";
    const records = JSON.parse(new TextDecoder().decode(members[name])) as {
      entries: { entry: { kind: string; files_changed?: { path: string }[] } }[];
    };
    const note = records.entries.find(({ entry }) => entry.kind === "sandbox-command");
    if (!note?.entry.files_changed?.[0]) throw new Error("The bundle carries no sandbox log.");
    note.entry.files_changed[0].path = "/etc/passwd";
    members[name] = strToU8(JSON.stringify(records));

    await expect(gateway.bundles.import(zipSync(members))).rejects.toThrow(
      /thread\.json in the bundle is not valid: entries\[\d+\]\.entry\.files_changed\[0\]\.path/,
    );
    expect(await gateway.threads.list()).toEqual([]);
  });

  it("says there is no such thread for an unknown id", async () => {
    await expect(harness.gateway.threads.sandboxLog("nope")).rejects.toThrow("There is no thread with id nope.");
  });
});
