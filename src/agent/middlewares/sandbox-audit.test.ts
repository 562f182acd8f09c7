// The sandbox audit's wrapper: what it logs of a command (time, exit code, changed files), within the log's limits,
// and that a failing log or a refused command leaves the command's own outcome as it was.
import { describe, expect, it } from "vitest";
import { SANDBOX_LOG_COMMAND_MAX, SANDBOX_LOG_FILES_MAX, type SandboxLogEntry } from "../../protocol/index.ts";
import type { CommandResult, Sandbox } from "../../sandbox/sandbox.ts";
import { auditedSandbox, fileChanges, type AuditedFile } from "./sandbox-audit.ts";

/** A sandbox whose `run` changes the files as `effect` says and answers `result` (or throws it). */
function fakeSandbox(effect: () => void, result: CommandResult | Error): Sandbox {
  return {
    kind: "browser",
    threadId: "t1",
    run: async () => {
      effect();
      if (result instanceof Error) throw result;
      return result;
    },
    readText: async () => "",
  } as unknown as Sandbox;
}

describe("auditedSandbox", () => {
  it("logs the command, its start, duration, exit code and the files it added, changed and deleted", async () => {
    let files: AuditedFile[] = [
      { path: "/mnt/user-data/workspace/keep.txt", sha256: "a" },
      { path: "/mnt/user-data/workspace/edit.txt", sha256: "b" },
      { path: "/mnt/user-data/uploads/gone.txt", sha256: "c" },
    ];
    const logged: SandboxLogEntry[] = [];
    const clock = [1000, 1250];
    const sandbox = auditedSandbox(
      fakeSandbox(
        () => {
          files = [
            { path: "/mnt/user-data/workspace/keep.txt", sha256: "a" },
            { path: "/mnt/user-data/workspace/edit.txt", sha256: "b2" },
            { path: "/mnt/user-data/outputs/new.md", sha256: "d" },
          ];
        },
        { stdout: "", stderr: "", exitCode: 2 },
      ),
      { files: async () => files, record: async (entry) => void logged.push(entry), now: () => clock.shift() ?? 0 },
    );
    const result = await sandbox.run("make report");
    expect(result.exitCode).toBe(2);
    expect(logged).toEqual([
      {
        id: expect.any(String),
        at: 1000,
        duration_ms: 250,
        command: "make report",
        exit_code: 2,
        files_changed: [
          { path: "/mnt/user-data/outputs/new.md", change: "added" },
          { path: "/mnt/user-data/uploads/gone.txt", change: "deleted" },
          { path: "/mnt/user-data/workspace/edit.txt", change: "modified" },
        ],
      },
    ]);
    // Everything else is the sandbox's own.
    expect(sandbox.kind).toBe("browser");
  });

  it("logs a command the sandbox refused with exit code -1, and still refuses it", async () => {
    const logged: SandboxLogEntry[] = [];
    const sandbox = auditedSandbox(
      fakeSandbox(() => {}, new Error("Refused path")),
      {
        files: async () => [],
        record: async (entry) => void logged.push(entry),
      },
    );
    await expect(sandbox.run("ls", { cwd: "/etc" })).rejects.toThrow("Refused path");
    expect(logged.map((entry) => entry.exit_code)).toEqual([-1]);
  });

  it("keeps the command's result when the log cannot be written", async () => {
    const sandbox = auditedSandbox(
      fakeSandbox(() => {}, { stdout: "ok", stderr: "", exitCode: 0 }),
      {
        files: async () => {
          throw new Error("storage gone");
        },
        record: async () => {
          throw new Error("QuotaExceededError");
        },
      },
    );
    await expect(sandbox.run("echo ok")).resolves.toMatchObject({ stdout: "ok" });
  });

  it("cuts a long command and a long list of files to the log's limits, saying so", async () => {
    let files: AuditedFile[] = [];
    const logged: SandboxLogEntry[] = [];
    const many = Array.from({ length: SANDBOX_LOG_FILES_MAX + 5 }, (_, i) => ({
      path: `/mnt/user-data/workspace/f${String(i).padStart(4, "0")}`,
      sha256: "x",
    }));
    const sandbox = auditedSandbox(
      fakeSandbox(() => (files = many), { stdout: "", stderr: "", exitCode: 0, stopped: "timeout" }),
      { files: async () => files, record: async (entry) => void logged.push(entry) },
    );
    await sandbox.run("x".repeat(SANDBOX_LOG_COMMAND_MAX + 10));
    const [entry] = logged;
    expect(entry?.command).toHaveLength(SANDBOX_LOG_COMMAND_MAX);
    expect(entry?.truncated).toBe(true);
    expect(entry?.stopped).toBe("timeout");
    expect(entry?.files_changed).toHaveLength(SANDBOX_LOG_FILES_MAX);
    expect(entry?.files_more).toBe(5);
  });
});

describe("fileChanges", () => {
  it("finds nothing when the files are the same", () => {
    const files = [{ path: "/mnt/user-data/workspace/a", sha256: "1" }];
    expect(fileChanges(files, [...files])).toEqual([]);
  });
});
