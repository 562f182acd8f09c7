/* eslint-disable no-control-regex -- a terminal speaks in control characters */
import { describe, expect, it, vi } from "vitest";
import { describeSandboxContract } from "../sandbox-contract.ts";
import { bootFakeSlot, FakeWebContainer } from "./fake-webcontainer.ts";
import { terminalText } from "./jsh-session.ts";
import { MemoryThreadFileStore, type ThreadFileMap } from "../thread-file-store.ts";
import { toContainerPaths, toVirtualPaths, WebContainerSandbox } from "./webcontainer-sandbox.ts";
import { WebContainerSlot, type WebContainerLike } from "./webcontainer-slot.ts";

const bytes = (text: string) => new TextEncoder().encode(text);
const text = (data: Uint8Array | undefined) => (data === undefined ? undefined : new TextDecoder().decode(data));

// One container slot for the whole contract suite, as on a page: threads take the container in turn.
const shared = bootFakeSlot({ workdirName: "fawn", outputChunkSize: 7 });
const sharedStore = new MemoryThreadFileStore();
describeSandboxContract("WebContainerSandbox over the fake", {
  open: async (threadId) => WebContainerSandbox.open({ slot: (await shared).slot, threadId, store: sharedStore }),
  capabilities: { python: false },
});

/** A store that records every save. */
class RecordingStore extends MemoryThreadFileStore {
  readonly saves: { written: Record<string, string | undefined>; deleted: string[] }[] = [];
  override async save(threadId: string, written: ThreadFileMap, deleted: string[]): Promise<void> {
    this.saves.push({
      written: Object.fromEntries(Object.entries(written).map(([path, data]) => [path, text(data)])),
      deleted,
    });
    await super.save(threadId, written, deleted);
  }
}

/** The container with shells that never see Ctrl-C, like a program that ignores SIGINT. */
function deafToCtrlC(container: FakeWebContainer): WebContainerLike {
  return {
    workdir: container.workdir,
    fs: container.fs,
    mount: (tree, options) => container.mount(tree, options),
    teardown: () => container.teardown(),
    spawn: async (command, args, options) => {
      const process = await container.spawn(command, args, options);
      const writer = process.input.getWriter();
      const input = new WritableStream<string>({ write: (chunk) => writer.write(chunk.replaceAll("\x03", "")) });
      return { ...process, input };
    },
  };
}

async function openSandbox(
  options: { store?: MemoryThreadFileStore; skills?: ThreadFileMap; container?: WebContainerLike } = {},
) {
  const container = options.container ?? (await FakeWebContainer.boot({ workdirName: "fawn" }));
  const sandbox = await WebContainerSandbox.open({
    slot: new WebContainerSlot(() => Promise.reject(new Error("one thread needs one container")), container),
    threadId: "t1",
    store: options.store ?? new RecordingStore(),
    ...(options.skills && { skills: options.skills }),
  });
  return sandbox;
}

describe("path translation", () => {
  const root = "/home/fawn/threads/t1";

  it("rewrites virtual paths in a command, but not sibling prefixes or paths inside other paths", () => {
    expect(toContainerPaths("ls /mnt/user-data/workspace && cat '/mnt/skills/a/SKILL.md'", root)).toBe(
      `ls ${root}/mnt/user-data/workspace && cat '${root}/mnt/skills/a/SKILL.md'`,
    );
    expect(toContainerPaths("PYTHONPATH=/mnt/user-data:/opt x; ls /mnt /mnt/", root)).toBe(
      `PYTHONPATH=${root}/mnt/user-data:/opt x; ls ${root}/mnt ${root}/mnt/`,
    );
    for (const untouched of [
      "/mnt/user-data-backup/x",
      "/mnt/user-data2/x",
      "/mnt/user-data.bak",
      "/mnt/user-data_old/x",
      "/mnt/data",
      "/opt/mnt/user-data",
      "$HOME/mnt/user-data",
    ]) {
      expect(toContainerPaths(`cat ${untouched}`, root)).toBe(`cat ${untouched}`);
    }
  });

  it("turns the thread's container paths in output back into virtual ones, without matching longer siblings", () => {
    expect(toVirtualPaths(`Created: ${root}/mnt/user-data/workspace/result.txt\n`, root)).toBe(
      "Created: /mnt/user-data/workspace/result.txt\n",
    );
    expect(toVirtualPaths(`${root}/mnt/skills/x ${root}/mnt`, root)).toBe("/mnt/skills/x /mnt");
    expect(toVirtualPaths(`${root}2/mnt/x ${root}/mnt-old /x${root}/mnt`, root)).toBe(
      `${root}2/mnt/x ${root}/mnt-old /x${root}/mnt`,
    );
  });

  it("runs commands on the thread's directory and shows virtual paths in their output", async () => {
    const container = await FakeWebContainer.boot({ workdirName: "fawn" });
    const sandbox = await openSandbox({ container });
    const result = await sandbox.run(
      "echo hi > /mnt/user-data/outputs/a.txt && cat /mnt/user-data/outputs/a.txt && ls -d $PWD /mnt/user-data-backup",
    );
    expect(result.stdout).toContain("hi\n/mnt/user-data/workspace\n");
    expect(result.stdout).toContain("'/mnt/user-data-backup': No such file");
    expect(await container.fs.readFile("threads/t1/mnt/user-data/outputs/a.txt", "utf8")).toBe("hi\n");
    const script = await container.fs.readFile("threads/t1/.fawn/command.sh", "utf8");
    expect(script).toContain("> /home/fawn/threads/t1/mnt/user-data/outputs/a.txt");
    expect(script).toContain(" /mnt/user-data-backup");
  });

  it("translates paths in the environment and feeds stdin", async () => {
    const sandbox = await openSandbox();
    const result = await sandbox.run('cat > "$OUT/in.txt" && cat "$OUT/in.txt" && echo "$OUT"', {
      env: { OUT: "/mnt/user-data/outputs" },
      stdin: "from stdin\n",
    });
    expect(result).toMatchObject({ stdout: "from stdin\n/mnt/user-data/outputs\n", stderr: "", exitCode: 0 });
  });
});

describe("terminal output", () => {
  it("strips OSC and ANSI sequences, turns CRLF into LF and keeps what a carriage return leaves on screen", () => {
    const raw =
      "\x1b]654;prompt\x07\x1b[01;34m~\x1b[00m ok\r\n\x1b[31mred\x1b[0m\r\n" +
      "\x1b]0;title\x1b\\progress 10%\rprogress 100%\r\n\x1b(Bdone\x07\r\r\n";
    expect(terminalText(raw)).toBe("~ ok\nred\nprogress 100%\ndone\n");
  });

  it("reports a command's output without the typed line, the prompt or the markers", async () => {
    const sandbox = await openSandbox();
    const result = await sandbox.run("printf '\\033[32mgreen\\033[0m\\n'; echo plain");
    expect(result).toEqual({ stdout: "green\nplain\n", stderr: "", exitCode: 0, cwd: "/mnt/user-data/workspace" });
  });
});

describe("WebContainerSandbox and its store", () => {
  it("mounts a thread's stored files when it opens, and ignores stored paths outside its areas", async () => {
    const store = new RecordingStore();
    await store.save(
      "t1",
      {
        "/mnt/user-data/uploads/data.csv": bytes("a,b\n1,2\n"),
        "/mnt/user-data/workspace/deep/note.md": bytes("# note\n"),
        "/etc/passwd": bytes("root"),
      },
      [],
    );
    store.saves.length = 0;
    const sandbox = await openSandbox({ store });
    expect((await sandbox.run("cut -d, -f2 ../uploads/data.csv && cat deep/note.md")).stdout).toBe("b\n2\n# note\n");
    expect((await sandbox.list("/mnt/user-data/workspace")).map((entry) => entry.name)).toEqual(["deep"]);
    expect(store.saves).toEqual([]);
  });

  it("saves what each command wrote and deleted in one call, and nothing when nothing changed", async () => {
    const store = new RecordingStore();
    await store.save("t1", { "/mnt/user-data/workspace/old.txt": bytes("old") }, []);
    store.saves.length = 0;
    const sandbox = await openSandbox({ store });
    await sandbox.run("rm old.txt && echo new > new.txt && mkdir -p ../outputs/r && echo r > ../outputs/r/r.txt");
    await sandbox.run("cat new.txt");
    await sandbox.run("echo scratch > /tmp/x && mkdir -p node_modules/p && echo x > node_modules/p/index.js");
    expect(store.saves).toEqual([
      {
        written: { "/mnt/user-data/outputs/r/r.txt": "r\n", "/mnt/user-data/workspace/new.txt": "new\n" },
        deleted: ["/mnt/user-data/workspace/old.txt"],
      },
    ]);
    await sandbox.writeFile("/mnt/user-data/workspace/api.txt", "via api");
    await sandbox.remove("/mnt/user-data/outputs/r", { recursive: true });
    expect(store.saves.slice(1)).toEqual([
      { written: { "/mnt/user-data/workspace/api.txt": "via api" }, deleted: [] },
      { written: {}, deleted: ["/mnt/user-data/outputs/r/r.txt"] },
    ]);
    expect(Object.keys(await store.load("t1")).sort()).toEqual([
      "/mnt/user-data/workspace/api.txt",
      "/mnt/user-data/workspace/new.txt",
    ]);
  });

  it("says so in stderr when the store refuses to save, and saves the changes with the next command", async () => {
    const store = new RecordingStore();
    const save = vi.spyOn(store, "save").mockRejectedValueOnce(new Error("quota exceeded"));
    const sandbox = await openSandbox({ store });
    const first = await sandbox.run("echo a > a.txt && echo ok");
    expect(first).toMatchObject({ stdout: "ok\n", exitCode: 0 });
    expect(first.stderr).toMatch(/Not saved: .*quota exceeded/);
    await sandbox.run("true");
    expect(save).toHaveBeenCalledTimes(2);
    expect(text((await store.load("t1"))["/mnt/user-data/workspace/a.txt"]?.bytes)).toBe("a\n");
  });

  it("shows skills under /mnt/skills and undoes a command's changes there", async () => {
    const skill = "/mnt/skills/public/charts/SKILL.md";
    const sandbox = await openSandbox({ skills: { [skill]: bytes("---\nname: charts\n---\n") } });
    expect((await sandbox.run(`cat ${skill}`)).stdout).toContain("name: charts");
    const write = await sandbox.run(`echo x > ${skill} && touch /mnt/skills/new.txt`);
    expect(write.exitCode).not.toBe(0);
    expect(write.stderr).toMatch(
      /\/mnt\/skills is read-only: .*\/mnt\/skills\/new\.txt, \/mnt\/skills\/public\/charts\/SKILL\.md/,
    );
    expect(await sandbox.readText(skill)).toBe("---\nname: charts\n---\n");
    expect(await sandbox.stat("/mnt/skills/new.txt")).toBeUndefined();
  });

  it("kills a shell that ignores Ctrl-C and starts a new one for the next command", async () => {
    const container = await FakeWebContainer.boot({ workdirName: "fawn" });
    const spawn = vi.spyOn(container, "spawn");
    const sandbox = await openSandbox({ container: deafToCtrlC(container) });
    const started = Date.now();
    const result = await sandbox.run("sleep 20", { timeoutMs: 200 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_000);
    expect(result).toMatchObject({ stdout: "", exitCode: 124, stopped: "timeout" });
    expect(result.stderr).toMatch(/Command stopped: it ran longer than 0\.2 s/);
    expect(spawn).toHaveBeenCalledTimes(1);
    await expect(spawn.mock.results[0]?.value.then((process: { exit: Promise<number> }) => process.exit)).resolves.toBe(
      137,
    );
    expect((await sandbox.run("echo back")).stdout).toBe("back\n");
    expect(spawn).toHaveBeenCalledTimes(2);
  });

  it("keeps one shell for a thread's commands", async () => {
    const container = await FakeWebContainer.boot();
    const spawn = vi.spyOn(container, "spawn");
    const sandbox = await openSandbox({ container });
    await sandbox.run("true");
    await sandbox.run("false");
    expect(spawn).toHaveBeenCalledTimes(1);
    expect(spawn).toHaveBeenCalledWith("jsh", ["--osc"], expect.objectContaining({ cwd: "threads/t1" }));
  });

  it("tears the container down, with every process in it, when the thread holding it is closed", async () => {
    const container = await FakeWebContainer.boot({ workdirName: "fawn" });
    const sandbox = await openSandbox({ container });
    await sandbox.writeFile("/mnt/user-data/workspace/a.txt", "a");
    await sandbox.run("nohup sleep 30");
    expect(container.runningProcesses).toBe(2);
    await sandbox.dispose();
    expect(container.isTornDown).toBe(true);
    expect(container.runningProcesses).toBe(0);
    await expect(container.fs.readdir("threads")).rejects.toThrow(/torn down/);
    await expect(sandbox.run("true")).rejects.toThrow(/closed/);
    await expect(sandbox.readText("/mnt/user-data/workspace/a.txt")).rejects.toThrow(/closed/);
  });
});

describe("FakeWebContainer", () => {
  it("answers like WebContainer's fs: workdir-relative paths, Node-style errors, text or bytes", async () => {
    const container = await FakeWebContainer.boot({ workdirName: "demo" });
    expect(container.workdir).toBe("/home/demo");
    await expect(container.fs.writeFile("missing/a.txt", "x")).rejects.toThrow(
      "ENOENT: no such file or directory, open 'missing/a.txt'",
    );
    await container.fs.mkdir("src/lib", { recursive: true });
    await container.fs.writeFile("/src/lib/a.txt", "hello");
    expect(await container.fs.readFile("src/lib/a.txt", "utf8")).toBe("hello");
    expect(await container.fs.readFile("src/lib/a.txt")).toEqual(bytes("hello"));
    await container.fs.rename("src/lib/a.txt", "src/b.txt");
    const entries = await container.fs.readdir("src", { withFileTypes: true });
    expect(entries.map((entry) => [entry.name, entry.isDirectory(), entry.isFile()])).toEqual([
      ["b.txt", false, true],
      ["lib", true, false],
    ]);
    await expect(container.fs.readFile("nope.txt")).rejects.toMatchObject({ code: "ENOENT" });
    await expect(container.fs.rm("src")).rejects.toThrow(/EISDIR/);
    await container.fs.rm("src", { recursive: true });
    expect(await container.fs.readdir("/")).toEqual([]);
  });

  it("speaks jsh's OSC protocol: interactive, echoed line, output, exit=<pid>:<code>, prompt; cd persists", async () => {
    const container = await FakeWebContainer.boot({ workdirName: "demo" });
    await container.fs.mkdir("sub", { recursive: true });
    const shell = await container.spawn("jsh", ["--osc"], { terminal: { cols: 80, rows: 24 } });
    const reader = shell.output.getReader();
    const writer = shell.input.getWriter();
    let seen = "";
    const until = async (pattern: RegExp) => {
      while (!pattern.test(seen)) seen += (await reader.read()).value ?? "";
    };
    await until(/\x1b\]654;interactive\x07/);
    await writer.write("cd sub; echo out; false\n");
    await until(/\x1b\]654;exit=\d+:1\x07/);
    expect(seen).toContain("cd sub; echo out; false\r\nout\r\n");
    await writer.write("pwd\n");
    await until(/\/home\/demo\/sub\r\n\x1b\]654;exit=\d+:0\x07\x1b\]654;prompt\x07/);
    shell.kill();
    await expect(shell.exit).resolves.toBe(137);
  });
});

describe("WebContainerSandbox for a terminal", () => {
  it("reports where a command left the shell, so `cd` carries to the next command", async () => {
    const container = await FakeWebContainer.boot({ workdirName: "fawn" });
    const sandbox = await WebContainerSandbox.open({
      slot: new WebContainerSlot(() => FakeWebContainer.boot(), container),
      threadId: "cwd",
      store: new MemoryThreadFileStore(),
    });
    const moved = await sandbox.run("mkdir -p ../outputs/site && cd ../outputs/site");
    expect(moved.cwd).toBe("/mnt/user-data/outputs/site");
    expect((await sandbox.run("pwd", { cwd: moved.cwd! })).stdout).toBe("/mnt/user-data/outputs/site\n");
    const stayed = await sandbox.run("cd /mnt/user-data/uploads; exit 4", { cwd: moved.cwd! });
    expect(stayed).toMatchObject({ exitCode: 4, cwd: "/mnt/user-data/outputs/site" });
  });
});
