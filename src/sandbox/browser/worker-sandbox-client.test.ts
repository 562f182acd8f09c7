import "fake-indexeddb/auto";
import * as Comlink from "comlink";
import { describe, expect, it } from "vitest";
import { openFawnDb, ThreadFiles } from "../../storage/index.ts";
import { IndexedDbThreadFileStore } from "../indexed-db-thread-file-store.ts";
import { SandboxFileError, SandboxPathError } from "../sandbox.ts";
import { WorkerSandboxes, type SandboxWorker } from "./worker-sandbox-client.ts";
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
