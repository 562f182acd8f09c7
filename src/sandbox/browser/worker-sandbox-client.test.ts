import "fake-indexeddb/auto";
import * as Comlink from "comlink";
import { describe, expect, it } from "vitest";
import { openFawnDb, ThreadFiles } from "../../storage/index.ts";
import { IndexedDbThreadFileStore } from "../indexed-db-thread-file-store.ts";
import { SandboxFileError, SandboxPathError } from "../sandbox.ts";
import { namesPython, WorkerSandboxes, type SandboxWorker } from "./worker-sandbox-client.ts";
import { WorkerSandboxServer } from "./worker-sandbox-server.ts";

/** A "worker" made of a MessageChannel around a server in this thread; terminate closes the channel. */
function fakeWorkers(server: object) {
  const created: { terminated: boolean }[] = [];
  const createWorker = (): SandboxWorker => {
    const { port1, port2 } = new MessageChannel();
    Comlink.expose(server, port2);
    const state = { terminated: false };
    created.push(state);
    return Object.assign(port1, {
      terminate: () => {
        state.terminated = true;
        port1.close();
        port2.close();
      },
    });
  };
  return { created, createWorker };
}

let dbCount = 0;
const openServer = async () =>
  new WorkerSandboxServer({
    files: new IndexedDbThreadFileStore(new ThreadFiles(await openFawnDb(`isolated-sandbox-${dbCount++}`))),
  });

describe("WorkerSandboxes", () => {
  it("forwards calls to the sandbox worker and gives its errors their class back", async () => {
    const { createWorker } = fakeWorkers(await openServer());
    const sandboxes = new WorkerSandboxes(createWorker);
    const sandbox = sandboxes.open("t");
    await sandbox.writeFile("/mnt/user-data/workspace/a.txt", "hello");
    expect((await sandbox.run("cat a.txt")).stdout).toBe("hello");
    expect(await sandbox.readText("/mnt/user-data/workspace/a.txt")).toBe("hello");
    await expect(sandbox.readText("/etc/passwd")).rejects.toBeInstanceOf(SandboxPathError);
    await expect(sandbox.readText("/mnt/user-data/workspace")).rejects.toMatchObject({
      name: "SandboxFileError",
      code: "EISDIR",
    });
    await expect(sandbox.list("/mnt/user-data/workspace/a.txt")).rejects.toBeInstanceOf(SandboxFileError);
    sandboxes.dispose();
  });

  it("terminates a worker whose command ignores Stop, reports the command cancelled, and starts a fresh worker", async () => {
    const stuck = {
      run: () => new Promise(() => undefined),
      cancel: () => undefined,
      readFile: async () => ({ ok: true, value: new TextEncoder().encode("fresh") }),
    };
    const { created, createWorker } = fakeWorkers(stuck);
    const sandboxes = new WorkerSandboxes(createWorker);
    const sandbox = sandboxes.open("t");
    const controller = new AbortController();
    const running = sandbox.run("while true; do :; done", { signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    const result = await running;
    expect(result).toMatchObject({ stopped: "cancelled", exitCode: 130 });
    expect(result.stderr).toMatch(/Command cancelled/);
    expect(created[0]?.terminated).toBe(true);
    expect(await sandbox.readText("/mnt/user-data/workspace/x")).toBe("fresh");
    expect(created).toHaveLength(2);
    sandboxes.dispose();
  });

  it("terminates a worker that outlives a command's time limit", async () => {
    const { created, createWorker } = fakeWorkers({ run: () => new Promise(() => undefined), cancel: () => undefined });
    const sandboxes = new WorkerSandboxes(createWorker);
    const result = await sandboxes.open("t").run("busy", { timeoutMs: 10 });
    expect(result).toMatchObject({ stopped: "timeout", exitCode: 124 });
    expect(result.stderr).toMatch(/ran longer than/);
    expect(created[0]?.terminated).toBe(true);
  }, 10_000);
});

describe("a command that names Python", () => {
  it("is told apart from one that does not", () => {
    for (const command of [
      "python3 -c 'print(1)'",
      "python x.py",
      "cd /mnt/user-data/workspace && python3.12 -m http.server",
      "echo 'print(1)' | python3",
      "/usr/bin/python3 -V",
      "pip install rich",
      "(python3<in.txt)",
    ]) {
      expect(namesPython(command), command).toBe(true);
    }
    for (const command of ["ls", "echo pythonista", "cat python_notes.md", "grep -r pip.conf .", "pythonic"]) {
      expect(namesPython(command), command).toBe(false);
    }
  });

  it("has the page start reading what Python needs before the sandbox worker is up, once per command", async () => {
    const { createWorker } = fakeWorkers(await openServer());
    let warmed = 0;
    const python = {
      connect: () => new Promise<never>(() => undefined),
      disconnect: () => undefined,
      warm: () => warmed++,
    };
    const sandboxes = new WorkerSandboxes(createWorker, { python });
    const sandbox = sandboxes.open("t");
    const run = sandbox.run("python3 -c 'print(1)' > /dev/null; echo done");
    expect(warmed).toBe(1);
    await run;
    await sandbox.run("echo second");
    expect(warmed).toBe(1);
    sandboxes.dispose();
  });
});
