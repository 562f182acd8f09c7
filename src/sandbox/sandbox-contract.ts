// The one contract every Sandbox implementation passes (STYLE.md 3). Each provider's test file calls
// `describeSandboxContract` with a factory; the same expectations then hold for the browser sandbox and for
// WebContainer (over its fake in CI).
import { afterEach, describe, expect, it } from "vitest";
import { SandboxPathError, type Sandbox } from "./sandbox.ts";

export interface SandboxContractFactory {
  /** Opens the sandbox of a thread; opening the same thread again (after dispose) sees the files it kept. */
  open(threadId: string): Promise<Sandbox>;
  /** What this provider can run beyond bash's basics. */
  capabilities: { python: boolean };
}

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

export function describeSandboxContract(name: string, factory: SandboxContractFactory): void {
  describe(`Sandbox contract: ${name}`, () => {
    const opened: Sandbox[] = [];
    const open = async (threadId: string) => {
      const sandbox = await factory.open(threadId);
      opened.push(sandbox);
      return sandbox;
    };
    afterEach(async () => {
      await Promise.all(opened.splice(0).map((sandbox) => sandbox.dispose()));
    });

    it("runs commands in the workspace and reports exit codes and both streams", async () => {
      const sandbox = await open("contract-run");
      const pwd = await sandbox.run("pwd");
      expect(pwd).toMatchObject({ stdout: "/mnt/user-data/workspace\n", exitCode: 0 });
      const failing = await sandbox.run("echo out; echo err 1>&2; exit 3");
      expect(failing.exitCode).toBe(3);
      expect(failing.stdout).toContain("out");
      expect(failing.stderr + failing.stdout).toContain("err");
    });

    it("keeps files a command writes under /mnt/user-data, readable through the file API and after reopening", async () => {
      const sandbox = await open("contract-persist");
      const result = await sandbox.run(
        "mkdir -p /mnt/user-data/outputs && echo '# Report' > /mnt/user-data/outputs/report.md",
      );
      expect(result.exitCode).toBe(0);
      expect(await sandbox.readText("/mnt/user-data/outputs/report.md")).toBe("# Report\n");
      await sandbox.dispose();
      const reopened = await open("contract-persist");
      expect((await reopened.run("cat /mnt/user-data/outputs/report.md")).stdout).toBe("# Report\n");
    });

    it("lets commands see files written through the file API, and keeps binary bytes intact", async () => {
      const sandbox = await open("contract-files");
      await sandbox.writeFile("/mnt/user-data/workspace/data/numbers.csv", "n\n1\n2\n3\n");
      expect((await sandbox.run("cat data/numbers.csv")).stdout).toBe("n\n1\n2\n3\n");
      const bytes = new Uint8Array([0, 1, 2, 253, 254, 255]);
      await sandbox.writeFile("/mnt/user-data/outputs/blob.bin", bytes);
      expect(Array.from(await sandbox.readFile("/mnt/user-data/outputs/blob.bin"))).toEqual(Array.from(bytes));
      await sandbox.writeFile("/mnt/user-data/workspace/log.txt", "a\n");
      await sandbox.writeFile("/mnt/user-data/workspace/log.txt", "b\n", { append: true });
      expect(await sandbox.readText("/mnt/user-data/workspace/log.txt")).toBe("a\nb\n");
    });

    it("lists, stats, globs, greps and removes with virtual paths", async () => {
      const sandbox = await open("contract-search");
      await sandbox.writeFile("/mnt/user-data/workspace/src/a.py", "print('hello')\nx = 1\n");
      await sandbox.writeFile("/mnt/user-data/workspace/src/b.txt", "Hello again\n");
      await sandbox.writeFile("/mnt/user-data/workspace/notes.md", "nothing here\n");

      const entries = await sandbox.list("/mnt/user-data/workspace");
      expect(entries.map((entry) => [entry.name, entry.type])).toEqual([
        ["notes.md", "file"],
        ["src", "directory"],
      ]);
      expect(await sandbox.stat("/mnt/user-data/workspace/src/a.py")).toMatchObject({
        path: "/mnt/user-data/workspace/src/a.py",
        type: "file",
        size: 21,
      });
      expect(await sandbox.stat("/mnt/user-data/workspace/missing.txt")).toBeUndefined();

      expect(await sandbox.glob("**/*.py", "/mnt/user-data/workspace")).toEqual(["/mnt/user-data/workspace/src/a.py"]);
      const matches = await sandbox.grep("hello", "/mnt/user-data/workspace");
      expect(matches).toEqual([
        { path: "/mnt/user-data/workspace/src/a.py", line: 1, text: "print('hello')" },
        { path: "/mnt/user-data/workspace/src/b.txt", line: 1, text: "Hello again" },
      ]);
      expect(await sandbox.grep("hello", "/mnt/user-data/workspace", { caseSensitive: true })).toHaveLength(1);

      await sandbox.remove("/mnt/user-data/workspace/src", { recursive: true });
      expect(await sandbox.stat("/mnt/user-data/workspace/src/a.py")).toBeUndefined();
      expect((await sandbox.run("ls src")).exitCode).not.toBe(0);
    });

    it("refuses paths that escape the sandbox and writes under /mnt/skills, with a clear error", async () => {
      const sandbox = await open("contract-paths");
      await expect(sandbox.readText("/mnt/user-data/../../x")).rejects.toThrow(SandboxPathError);
      await expect(sandbox.readText("/mnt/user-data/../../x")).rejects.toThrow(/"\.\." are not allowed/);
      await expect(sandbox.readText("/etc/passwd")).rejects.toThrow(/outside the sandbox/);
      await expect(sandbox.writeFile("/mnt/skills/evil/SKILL.md", "x")).rejects.toThrow(/read-only/);
      const viaShell = await sandbox.run("echo x > /mnt/skills/evil.txt");
      expect(viaShell.exitCode).not.toBe(0);
    });

    it("reports a missing file clearly", async () => {
      const sandbox = await open("contract-missing");
      await expect(sandbox.readText("/mnt/user-data/workspace/nope.txt")).rejects.toThrow(/nope\.txt/);
      const cat = await sandbox.run("cat nope.txt");
      expect(cat.exitCode).not.toBe(0);
      expect(cat.stderr + cat.stdout).toMatch(/No such file/i);
    });

    it("keeps threads apart", async () => {
      const first = await open("contract-thread-a");
      const second = await open("contract-thread-b");
      await first.writeFile("/mnt/user-data/workspace/secret.txt", "a's");
      await first.run(
        "echo CONTRACT-SECRET > /mnt/user-data/outputs/by-command.txt; echo CONTRACT-SECRET > /tmp/a.txt",
      );
      expect(await second.stat("/mnt/user-data/workspace/secret.txt")).toBeUndefined();
      expect((await second.run("cat secret.txt")).exitCode).not.toBe(0);
      // Nowhere the second thread's commands can look holds what the first one's wrote.
      const search = await second.run("grep -rl CONTRACT-SECRET / 2>/dev/null; true");
      expect(search.stdout + search.stderr).not.toContain("CONTRACT-SECRET");
      expect(search.stdout).toBe("");
    });

    it("stops an endless loop with a message that says so, and stays usable", async () => {
      const sandbox = await open("contract-loop");
      const result = await sandbox.run("while true; do :; done", { timeoutMs: 1_000 });
      expect(result.exitCode).not.toBe(0);
      expect(result.stopped).toMatch(/timeout|limit/);
      expect(result.stderr).toMatch(/Command stopped/);
      expect((await sandbox.run("echo still here")).stdout).toBe("still here\n");
    });

    it("cancels a waiting command when its signal aborts", async () => {
      const sandbox = await open("contract-cancel");
      const controller = new AbortController();
      const running = sandbox.run("sleep 20", { signal: controller.signal, timeoutMs: 30_000 });
      setTimeout(() => controller.abort(), 100);
      const result = await running;
      expect(result.stopped).toBe("cancelled");
      expect(result.exitCode).not.toBe(0);
      expect((await sandbox.run("echo ok")).stdout).toBe("ok\n");
    });

    if (!factory.capabilities.python) return;
    it("runs python3 over the thread's files; what it writes is kept", async () => {
      const sandbox = await open("contract-python");
      await sandbox.writeFile("/mnt/user-data/workspace/sales.csv", "month,amount\njan,10\nfeb,32\n");
      const result = await sandbox.run(
        `python3 -c "import csv; rows=list(csv.DictReader(open('sales.csv'))); t=sum(int(r['amount']) for r in rows); open('/mnt/user-data/outputs/total.txt','w').write(str(t)); print('total', t)"`,
      );
      expect(result).toMatchObject({ exitCode: 0, stdout: "total 42\n" });
      expect(text(await sandbox.readFile("/mnt/user-data/outputs/total.txt"))).toBe("42");
    }, 60_000);
  });
}
