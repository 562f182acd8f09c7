// Threads that share the page's one WebContainer must not see each other (issue 27, item 1): a command of one thread
// reads none of another's files, by any path, and plants nothing that the other later saves to its store. The fake
// container is, like the real one, one file system and one set of processes for every thread; its `nohup` stands for
// a process a command leaves running in the background.
import { afterEach, describe, expect, it } from "vitest";
import { MemoryThreadFileStore } from "../thread-file-store.ts";
import { bootFakeSlot } from "./fake-webcontainer.ts";
import { WebContainerSandbox } from "./webcontainer-sandbox.ts";

const SECRET = "TOPSECRET-of-b";
const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

/** A page: one container slot, one store (IndexedDB) for every thread, and the threads opened on it. */
async function page() {
  const { slot, booted } = await bootFakeSlot({ workdirName: "fawn" });
  const store = new MemoryThreadFileStore();
  const open = (threadId: string) => WebContainerSandbox.open({ slot, threadId, store });
  /** What the store holds for a thread, as text by path. */
  const stored = async (threadId: string) =>
    Object.fromEntries(Object.entries(await store.load(threadId)).map(([path, file]) => [path, text(file.bytes)]));
  return { booted, store, open, stored };
}

const opened: WebContainerSandbox[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((sandbox) => sandbox.dispose()));
});

/** Thread b with a secret in its workspace, in /tmp and in $HOME, written by its own command. */
async function threadB(open: (threadId: string) => Promise<WebContainerSandbox>) {
  const b = await open("b");
  opened.push(b);
  const wrote = await b.run(
    `echo ${SECRET} > secret.txt && echo ${SECRET} > /tmp/b-scratch.txt && echo ${SECRET} > "$HOME/.b-history"`,
  );
  expect(wrote).toMatchObject({ exitCode: 0 });
  return b;
}

describe("WebContainer threads on one page", () => {
  it("a command of one thread reads none of another's files, by relative or absolute path or by searching", async () => {
    const { open } = await page();
    const b = await threadB(open);
    const a = await open("a");
    opened.push(a);
    const attempts = [
      "cat ../../../../b/mnt/user-data/workspace/secret.txt",
      "cat /home/fawn/threads/b/mnt/user-data/workspace/secret.txt",
      "cat $HOME/threads/b/mnt/user-data/workspace/secret.txt",
      "cat /tmp/b-scratch.txt",
      'cat "$HOME/.b-history"',
      "grep -r TOPSECRET / 2>/dev/null",
    ];
    const leaked: string[] = [];
    for (const attempt of attempts) {
      const result = await a.run(attempt);
      if ((result.stdout + result.stderr).includes(SECRET)) leaked.push(attempt);
      // b keeps working between a's commands, so its files are as present as they can be.
      expect((await b.run("cat secret.txt")).stdout).toBe(`${SECRET}\n`);
    }
    expect(leaked).toEqual([]);
  });

  it("a link or a background process of one thread reads nothing of another's", async () => {
    const { open, stored } = await page();
    const b = await threadB(open);
    const a = await open("a");
    opened.push(a);
    await a.run(
      "ln -s /home/fawn/threads/b/mnt/user-data/workspace/secret.txt link.txt; " +
        "nohup sh -c 'sleep 0.2; grep -r TOPSECRET /home /tmp > /home/fawn/threads/a/mnt/user-data/workspace/leak.txt'",
    );
    expect((await b.run("sleep 0.4; cat secret.txt")).stdout).toBe(`${SECRET}\n`);
    const again = await a.run("cat leak.txt link.txt 2>/dev/null; true");
    expect(again.stdout).not.toContain(SECRET);
    expect(Object.values(await stored("a")).join("\n")).not.toContain(SECRET);
  });

  it("a command of one thread plants nothing that another thread keeps, at once or from the background", async () => {
    const { open, stored } = await page();
    const b = await threadB(open);
    const a = await open("a");
    opened.push(a);
    await a.run(
      "mkdir -p ../../../../b/mnt/user-data/outputs && echo planted > ../../../../b/mnt/user-data/outputs/relative.txt; " +
        "mkdir -p /home/fawn/threads/b/mnt/user-data/workspace && " +
        "echo planted > /home/fawn/threads/b/mnt/user-data/workspace/absolute.txt; " +
        "nohup sh -c 'sleep 0.2; mkdir -p /home/fawn/threads/b/mnt/user-data/uploads; " +
        "echo planted > /home/fawn/threads/b/mnt/user-data/uploads/late.txt'",
    );
    const listing = await b.run("sleep 0.4; ls -R /mnt/user-data");
    expect(listing.stdout).not.toMatch(/relative\.txt|absolute\.txt|late\.txt/);
    expect(Object.keys(await stored("b"))).toEqual(["/mnt/user-data/workspace/secret.txt"]);
    expect(Object.values(await stored("b")).join("\n")).not.toContain("planted");
  });

  it("each thread still has its own files when the other has run in between", async () => {
    const { open, stored } = await page();
    const b = await threadB(open);
    const a = await open("a");
    opened.push(a);
    await a.run("mkdir -p ../outputs && echo mine > ../outputs/a.txt");
    await a.writeFile("/mnt/user-data/workspace/api.txt", "via api");
    expect((await b.run("cat secret.txt")).stdout).toBe(`${SECRET}\n`);
    expect((await a.run("cat ../outputs/a.txt api.txt")).stdout).toBe("mine\nvia api");
    expect(await a.readText("/mnt/user-data/outputs/a.txt")).toBe("mine\n");
    expect(await b.readText("/mnt/user-data/workspace/secret.txt")).toBe(`${SECRET}\n`);
    expect(await b.stat("/mnt/user-data/outputs/a.txt")).toBeUndefined();
    expect(Object.keys(await stored("a")).sort()).toEqual([
      "/mnt/user-data/outputs/a.txt",
      "/mnt/user-data/workspace/api.txt",
    ]);
  });

  it("runs two threads' commands one after the other, each in a fresh container where nothing of the other runs", async () => {
    const { open, booted } = await page();
    const a = await open("a");
    const b = await open("b");
    opened.push(a, b);
    const ended: string[] = [];
    const first = a.run("nohup sleep 30; sleep 0.2; echo a").then((result) => (ended.push("a"), result));
    await new Promise((resolve) => setTimeout(resolve, 50));
    const second = b.run("echo b").then((result) => (ended.push("b"), result));
    expect([(await first).stdout, (await second).stdout]).toEqual(["a\n", "b\n"]);
    expect(ended).toEqual(["a", "b"]);
    expect(booted).toHaveLength(2);
    expect(booted[0]).toMatchObject({ isTornDown: true, runningProcesses: 0 });
    expect(booted[1]).toMatchObject({ isTornDown: false, runningProcesses: 1 });
  });

  it("saves what a thread's background process wrote to its own files before the container passes on", async () => {
    const { open, stored } = await page();
    const a = await open("a");
    const b = await open("b");
    opened.push(a, b);
    await a.run("nohup sh -c 'sleep 0.1; echo built > ../outputs/late.txt'");
    await new Promise((resolve) => setTimeout(resolve, 300));
    await b.run("true");
    expect(await stored("a")).toEqual({ "/mnt/user-data/outputs/late.txt": "built\n" });
    expect(await a.readText("/mnt/user-data/outputs/late.txt")).toBe("built\n");
  });
});
