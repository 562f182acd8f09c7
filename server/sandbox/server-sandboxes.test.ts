// The server's sandbox: the sandbox contract (python3 included) over the built-in provider, and its walls: a path
// outside /mnt/user-data is refused, and neither bash nor Python reaches the host's files, environment or processes.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { describeSandboxContract } from "../../src/sandbox/sandbox-contract.ts";
import { SandboxPathError, type Sandbox } from "../../src/sandbox/sandbox.ts";
import { MemoryThreadFileStore } from "../../src/sandbox/thread-file-store.ts";
import { ServerSandboxes } from "./server-sandboxes.ts";

const provider = new ServerSandboxes({ warmInterpreters: 1 });
const files = new MemoryThreadFileStore();
const noSkills = async () => ({});
afterAll(() => provider.close());

describeSandboxContract("the server's sandbox", {
  open: async (threadId) => provider.open(threadId, files, noSkills),
  capabilities: { python: true },
});

describe("the server's sandbox walls", () => {
  const secret = "fawn-host-secret-7f3a";
  const hostDir = mkdtempSync(join(tmpdir(), "fawn-host-"));
  const hostFile = join(hostDir, "secret.txt");
  writeFileSync(hostFile, secret);
  process.env.FAWN_SANDBOX_WALL_TEST = secret;
  let sandbox: Sandbox;
  afterAll(async () => {
    delete process.env.FAWN_SANDBOX_WALL_TEST;
    rmSync(hostDir, { recursive: true, force: true });
    await sandbox?.dispose();
  });
  const open = async () => (sandbox ??= await provider.open("walls", files, noSkills));

  it("refuses file paths that escape /mnt/user-data, and writes nothing for them", async () => {
    const sandbox = await open();
    for (const path of [
      "/etc/passwd",
      hostFile,
      "/mnt/user-data/../../etc/passwd",
      "/mnt/user-data/workspace/../../..",
    ]) {
      await expect(sandbox.readFile(path)).rejects.toBeInstanceOf(SandboxPathError);
    }
    await expect(sandbox.writeFile("/mnt/user-data/../escape.txt", "x")).rejects.toBeInstanceOf(SandboxPathError);
    await expect(sandbox.writeFile("/tmp/escape.txt", "x")).rejects.toBeInstanceOf(SandboxPathError);
    expect(Object.keys(await files.load("walls"))).toEqual([]);
  });

  it("gives bash no host file, no host environment and no network", async () => {
    const sandbox = await open();
    const read = await sandbox.run(`cat ${hostFile}; cat /etc/passwd; ls ${hostDir}; cat ../../../..${hostFile}`);
    expect(read.exitCode).not.toBe(0);
    expect(read.stdout).not.toContain(secret);
    expect(read.stdout).not.toContain("root:");
    const env = await sandbox.run("env; printenv FAWN_SANDBOX_WALL_TEST");
    expect(env.stdout).not.toContain(secret);
    expect((await sandbox.run("ls /")).stdout.split(/\s+/).filter(Boolean).sort()).not.toContain("work");
    const curl = await sandbox.run("curl -s http://127.0.0.1:1/");
    expect(curl.exitCode).not.toBe(0);
  });

  it("gives python3 no host file, no host environment, no process and no thread, even through `import js`", async () => {
    const sandbox = await open();
    const program = [
      "import js, os",
      "def attempt(name, action):",
      "    try:",
      "        print(name, 'REACHED', action())",
      "    except Exception as error:",
      "        print(name, 'refused')",
      `attempt('open', lambda: open(${JSON.stringify(hostFile)}).read())`,
      "attempt('passwd', lambda: open('/etc/passwd').read())",
      `attempt('fs', lambda: js.process.getBuiltinModule('fs').readFileSync(${JSON.stringify(hostFile)}, 'utf8'))`,
      "attempt('exec', lambda: js.process.getBuiltinModule('child_process').execSync('id').toString())",
      "attempt('worker', lambda: js.eval(\"new (process.getBuiltinModule('worker_threads').Worker)('1', {eval: true})\"))",
      "print('env', len(list(js.Object.keys(js.process.env))), len(os.environ.get('FAWN_SANDBOX_WALL_TEST', '')))",
    ].join("\n");
    await sandbox.writeFile("/mnt/user-data/workspace/probe.py", program);
    const result = await sandbox.run("python3 probe.py");
    expect(result.stderr).toBe("");
    expect(result.stdout).not.toContain(secret);
    expect(result.stdout).not.toContain("REACHED");
    expect(result.stdout.trim().split("\n")).toEqual([
      "open refused",
      "passwd refused",
      "fs refused",
      "exec refused",
      "worker refused",
      "env 0 0",
    ]);
  });
});
