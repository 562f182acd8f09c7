import * as Comlink from "comlink";
import { afterAll, describe, expect, it } from "vitest";
import { SandboxFileError, SandboxPathError } from "../sandbox.ts";
import { describeSandboxContract } from "../sandbox-contract.ts";
import { bootFakeSlot } from "./fake-webcontainer.ts";
import { openPageSandbox } from "./page-sandbox-client.ts";
import { PageSandboxServer } from "./page-sandbox-server.ts";
import { MemoryThreadFileStore } from "../thread-file-store.ts";

const ports: MessagePort[] = [];
afterAll(() => ports.forEach((port) => port.close()));

/** A PageSandboxServer on the "page" end of a MessageChannel, and its comlink remote on the "worker" end. */
async function connect() {
  const { slot, booted } = await bootFakeSlot({ workdirName: "fawn" });
  const { port1, port2 } = new MessageChannel();
  ports.push(port1, port2);
  Comlink.expose(new PageSandboxServer(slot), port2);
  return { booted, host: Comlink.wrap<PageSandboxServer>(port1) };
}

const connected = connect();
const store = new MemoryThreadFileStore();
describeSandboxContract("the page's SandboxClient over comlink to a PageSandboxServer on the fake", {
  open: async (threadId) => openPageSandbox((await connected).host, threadId, store),
  capabilities: { python: false },
});

describe("openPageSandbox and PageSandboxServer", () => {
  it("loads and saves through the worker's store, which stays on the worker's side", async () => {
    const { host } = await connect();
    const workerStore = new MemoryThreadFileStore();
    await workerStore.save("t", { "/mnt/user-data/uploads/in.txt": new TextEncoder().encode("in") }, []);
    const sandbox = await openPageSandbox(host, "t", workerStore);
    expect((await sandbox.run("cat ../uploads/in.txt > ../outputs/out.txt && echo done")).stdout).toBe("done\n");
    expect(new TextDecoder().decode((await workerStore.load("t"))["/mnt/user-data/outputs/out.txt"]?.bytes)).toBe("in");
  });

  it("gives errors back their class and code", async () => {
    const { host } = await connect();
    const sandbox = await openPageSandbox(host, "t", new MemoryThreadFileStore());
    await expect(sandbox.readText("/etc/passwd")).rejects.toBeInstanceOf(SandboxPathError);
    await expect(sandbox.readText("/mnt/user-data/workspace")).rejects.toMatchObject({
      name: "SandboxFileError",
      code: "EISDIR",
    });
    await expect(sandbox.readText("/mnt/user-data/workspace/none")).rejects.toBeInstanceOf(SandboxFileError);
    await expect(openPageSandbox(host, "../x", new MemoryThreadFileStore())).rejects.toThrow(/Invalid thread id/);
  });

  it("cancels a command whose signal was aborted before it reached the page", async () => {
    const { host } = await connect();
    const sandbox = await openPageSandbox(host, "t", new MemoryThreadFileStore());
    const controller = new AbortController();
    controller.abort();
    const result = await sandbox.run("sleep 20", { signal: controller.signal });
    expect(result).toMatchObject({ stopped: "cancelled", exitCode: 130 });
  });

  it("refuses calls for a thread that is not open, and closes a thread on dispose", async () => {
    const { booted, host } = await connect();
    const sandbox = await openPageSandbox(host, "t", new MemoryThreadFileStore());
    await sandbox.writeFile("/mnt/user-data/workspace/a.txt", "a");
    await sandbox.dispose();
    expect(booted.map((container) => container.isTornDown)).toEqual([true]);
    await expect(sandbox.stat("/mnt/user-data/workspace/a.txt")).rejects.toThrow(/not open in the WebContainer/);
  });
});
