import "fake-indexeddb/auto";
import { describe, expect, it, vi } from "vitest";
import { openFawnDb, ThreadFiles } from "../../storage/index.ts";
import { IndexedDbThreadFileStore } from "../indexed-db-thread-file-store.ts";
import { describeSandboxContract } from "../sandbox-contract.ts";
import { BrowserSandbox } from "./browser-sandbox.ts";

let dbCount = 0;
async function openFiles(): Promise<ThreadFiles> {
  return new ThreadFiles(await openFawnDb(`browser-sandbox-test-${dbCount++}`));
}

const sharedFiles = openFiles();
describeSandboxContract("BrowserSandbox", {
  open: async (threadId) => BrowserSandbox.open({ threadId, files: new IndexedDbThreadFileStore(await sharedFiles) }),
  capabilities: { python: false },
});

describe("BrowserSandbox", () => {
  const bytes = (text: string) => new TextEncoder().encode(text);

  it("writes a command's changes to IndexedDB when it ends: new, changed and deleted files", async () => {
    const files = await openFiles();
    await files.write("t", [
      { path: "/mnt/user-data/workspace/keep.txt", bytes: bytes("keep") },
      { path: "/mnt/user-data/workspace/old.txt", bytes: bytes("old") },
      { path: "/mnt/user-data/uploads/data.csv", bytes: bytes("a,b\n1,2\n") },
    ]);
    const sandbox = await BrowserSandbox.open({ threadId: "t", files: new IndexedDbThreadFileStore(files) });
    const result = await sandbox.run(
      "rm old.txt && cut -d, -f2 ../uploads/data.csv > ../outputs/b.txt && echo more >> keep.txt",
    );
    expect(result.exitCode).toBe(0);
    const stored = await files.readAll("t");
    expect(stored.map((file) => [file.meta.path, new TextDecoder().decode(file.bytes)])).toEqual([
      ["/mnt/user-data/outputs/b.txt", "b\n2\n"],
      ["/mnt/user-data/uploads/data.csv", "a,b\n1,2\n"],
      ["/mnt/user-data/workspace/keep.txt", "keepmore\n"],
    ]);
  });

  it("stores only what a file API call changed, not the thread's other files", async () => {
    const files = await openFiles();
    await files.write("t", [{ path: "/mnt/user-data/uploads/big.csv", bytes: bytes("a,b\n".repeat(1000)) }]);
    const store = new IndexedDbThreadFileStore(files);
    const sandbox = await BrowserSandbox.open({ threadId: "t", files: store });
    const save = vi.spyOn(store, "save");
    await sandbox.writeFile("/mnt/user-data/workspace/log.txt", "a\n");
    await sandbox.writeFile("/mnt/user-data/workspace/log.txt", "b\n", { append: true });
    await sandbox.remove("/mnt/user-data/workspace/log.txt");
    expect(save.mock.calls.map(([, written, deleted]) => ({ written, deleted }))).toEqual([
      { written: { "/mnt/user-data/workspace/log.txt": bytes("a\n") }, deleted: [] },
      { written: { "/mnt/user-data/workspace/log.txt": bytes("a\nb\n") }, deleted: [] },
      { written: {}, deleted: ["/mnt/user-data/workspace/log.txt"] },
    ]);
    expect((await sandbox.run("echo ok")).stdout).toBe("ok\n");
    expect(save).toHaveBeenCalledTimes(3);
    expect((await files.readAll("t")).map((file) => file.meta.path)).toEqual(["/mnt/user-data/uploads/big.csv"]);
  });

  it("refuses a file API write it could not keep, rather than losing it on reload", async () => {
    const sandbox = await BrowserSandbox.open({
      threadId: "t",
      files: new IndexedDbThreadFileStore(await openFiles()),
    });
    const long = `/mnt/user-data/workspace/${"x".repeat(2000)}.txt`;
    await expect(sandbox.writeFile(long, "x")).rejects.toThrow(/at most \d+ characters/);
    expect(await sandbox.stat(long)).toBeUndefined();
  });

  it("keeps nothing outside /mnt/user-data, and says which names could not be kept", async () => {
    const files = await openFiles();
    const sandbox = await BrowserSandbox.open({ threadId: "t", files: new IndexedDbThreadFileStore(files) });
    const result = await sandbox.run("echo scratch > /tmp/x && echo 'a' > 'back\\slash.txt' && echo ok");
    expect(result.stdout).toBe("ok\n");
    expect(result.stderr).toMatch(
      /Not saved: \/mnt\/user-data\/workspace\/back\\slash\.txt \(a path may not contain backslashes\)/,
    );
    expect(await files.readAll("t")).toEqual([]);
  });

  it("shows skills read-only under /mnt/skills", async () => {
    const sandbox = await BrowserSandbox.open({
      threadId: "t",
      files: new IndexedDbThreadFileStore(await openFiles()),
      skills: { "/mnt/skills/public/charts/SKILL.md": bytes("---\nname: charts\n---\n") },
    });
    expect((await sandbox.run("cat /mnt/skills/public/charts/SKILL.md")).stdout).toContain("name: charts");
    const write = await sandbox.run("echo x > /mnt/skills/public/charts/SKILL.md");
    expect(write.exitCode).not.toBe(0);
    expect(write.stderr).toMatch(/read-only/);
    expect(await sandbox.readText("/mnt/skills/public/charts/SKILL.md")).toContain("name: charts");
  });

  it("carries the working directory and environment for a terminal", async () => {
    const sandbox = await BrowserSandbox.open({
      threadId: "t",
      files: new IndexedDbThreadFileStore(await openFiles()),
    });
    const first = await sandbox.run("mkdir -p ../outputs/site && cd ../outputs/site && export GREETING=hi");
    expect(first.cwd).toBe("/mnt/user-data/outputs/site");
    const second = await sandbox.run("pwd; echo $GREETING", { cwd: first.cwd!, env: first.env! });
    expect(second.stdout).toBe("/mnt/user-data/outputs/site\nhi\n");
  });

  it("stops a runaway arithmetic loop at the execution limits", async () => {
    const sandbox = await BrowserSandbox.open({
      threadId: "t",
      files: new IndexedDbThreadFileStore(await openFiles()),
    });
    const result = await sandbox.run("x=0; while true; do x=$((x+1)); done");
    expect(result.stopped).toMatch(/limit|timeout/);
    expect(result.stderr).toMatch(/Command stopped/);
  });
});
