import * as Comlink from "comlink";
import { afterAll, describe, expect, it } from "vitest";
import { SandboxClient } from "./sandbox-client.ts";
import { SandboxServer } from "./sandbox-server.ts";
import { SandboxFileError, SandboxPathError, type CommandResult, type RunOptions, type Sandbox } from "./sandbox.ts";

/** A sandbox whose commands wait for their signal, and whose file calls fail the way a test asks. */
class WaitingSandbox implements Pick<Sandbox, "run" | "readFile" | "remove" | "stat" | "dispose"> {
  disposed = false;
  constructor(readonly threadId: string) {}

  run(command: string, options: RunOptions = {}): Promise<CommandResult> {
    if (command === "fast") return Promise.resolve({ stdout: `${this.threadId}\n`, stderr: "", exitCode: 0 });
    return new Promise((resolve) =>
      options.signal?.addEventListener("abort", () =>
        resolve({ stdout: "", stderr: "Command cancelled.\n", exitCode: 130, stopped: "cancelled" }),
      ),
    );
  }

  async readFile(path: string): Promise<Uint8Array> {
    throw new SandboxFileError(`${path} is a folder, not a file.`, "EISDIR");
  }

  async remove(path: string): Promise<void> {
    throw new SandboxPathError(`Refused path ${path}`);
  }

  async stat(): Promise<undefined> {
    throw new RangeError("out of range");
  }

  async dispose(): Promise<void> {
    this.disposed = true;
  }
}

class TestServer extends SandboxServer<Sandbox> {
  readonly opened: WaitingSandbox[] = [];

  protected sandbox(threadId: string): Promise<Sandbox> {
    return this.sandboxes.getOrOpen(threadId, async () => {
      const sandbox = new WaitingSandbox(threadId);
      this.opened.push(sandbox);
      return sandbox as unknown as Sandbox;
    });
  }
}

const ports: MessagePort[] = [];
afterAll(() => ports.forEach((port) => port.close()));

function connect() {
  const server = new TestServer();
  const { port1, port2 } = new MessageChannel();
  ports.push(port1, port2);
  Comlink.expose(server, port2);
  const remote = Comlink.wrap<TestServer>(port1);
  return { server, open: (threadId: string) => new SandboxClient("browser", threadId, () => ({ server: remote })) };
}

describe("SandboxClient and SandboxServer", () => {
  it("cancels a running command by its id when the caller's signal aborts", async () => {
    const { open } = connect();
    const controller = new AbortController();
    const running = open("t").run("wait", { signal: controller.signal });
    setTimeout(() => controller.abort(), 20);
    expect(await running).toMatchObject({ stopped: "cancelled", exitCode: 130 });
  });

  it("cancels only the command whose signal aborted", async () => {
    const { open } = connect();
    const sandbox = open("t");
    const controller = new AbortController();
    const waiting = sandbox.run("wait", { signal: controller.signal });
    expect((await sandbox.run("fast")).stdout).toBe("t\n");
    controller.abort();
    expect((await waiting).stopped).toBe("cancelled");
  });

  it("gives errors back their class and code across the hop", async () => {
    const { open } = connect();
    const sandbox = open("t");
    const read = sandbox.readFile("/mnt/user-data/workspace");
    await expect(read).rejects.toBeInstanceOf(SandboxFileError);
    await expect(read).rejects.toMatchObject({
      code: "EISDIR",
      message: "/mnt/user-data/workspace is a folder, not a file.",
    });
    await expect(sandbox.remove("/etc")).rejects.toBeInstanceOf(SandboxPathError);
    await expect(sandbox.stat("/x")).rejects.toMatchObject({ name: "RangeError", message: "out of range" });
  });

  it("keeps one sandbox per thread until it is closed, then opens a fresh one", async () => {
    const { server, open } = connect();
    await open("a").run("fast");
    await open("a").run("fast");
    await open("b").run("fast");
    expect(server.opened.map((sandbox) => sandbox.threadId)).toEqual(["a", "b"]);
    await open("a").dispose();
    expect(server.opened[0]?.disposed).toBe(true);
    await open("a").run("fast");
    expect(server.opened.map((sandbox) => sandbox.threadId)).toEqual(["a", "b", "a"]);
  });
});
