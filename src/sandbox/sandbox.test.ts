import { describe, expect, it } from "vitest";
import { isThreadDataPath, joinPath, resolveSandboxPath, SandboxPathError, stoppedMessage } from "./sandbox.ts";

describe("resolveSandboxPath", () => {
  it("accepts the thread's areas for reading and writing, without a trailing slash", () => {
    expect(resolveSandboxPath("/mnt/user-data/workspace/a.txt", "write")).toBe("/mnt/user-data/workspace/a.txt");
    expect(resolveSandboxPath("/mnt/user-data/outputs/site/", "write")).toBe("/mnt/user-data/outputs/site");
    expect(resolveSandboxPath("/mnt/user-data/uploads", "read")).toBe("/mnt/user-data/uploads");
    expect(resolveSandboxPath("/mnt/user-data//workspace//x", "read")).toBe("/mnt/user-data/workspace/x");
  });

  it("reads /mnt/skills but refuses to write there", () => {
    expect(resolveSandboxPath("/mnt/skills/public/charts/SKILL.md", "read")).toBe("/mnt/skills/public/charts/SKILL.md");
    expect(() => resolveSandboxPath("/mnt/skills/public/charts/SKILL.md", "write")).toThrow(
      "Refused to write /mnt/skills/public/charts/SKILL.md: /mnt/skills is read-only.",
    );
  });

  it("refuses traversal, relative paths, other roots and look-alike siblings, naming what is allowed", () => {
    const refused: [string, RegExp][] = [
      ["/mnt/user-data/../../x", /"\." and "\.\." are not allowed/],
      ["/mnt/user-data/workspace/./a", /"\." and "\.\." are not allowed/],
      ["workspace/a.txt", /use an absolute path under/],
      ["/etc/passwd", /outside the sandbox/],
      ["/mnt/user-data-backup/a", /outside the sandbox/],
      ["/mnt/user-data2/a", /outside the sandbox/],
      ["/mnt/user-data/workspace-old/a", /outside the sandbox/],
      ["/mnt/skillsx/a", /outside the sandbox/],
      ["/mnt/user-data/workspace\\a", /backslashes/],
      ["", /A path is required/],
    ];
    for (const [path, message] of refused) {
      expect(() => resolveSandboxPath(path, "read"), path).toThrow(SandboxPathError);
      expect(() => resolveSandboxPath(path, "read"), path).toThrow(message);
    }
  });

  it("lets the roots be listed, never written", () => {
    expect(resolveSandboxPath("/mnt/user-data", "read")).toBe("/mnt/user-data");
    expect(() => resolveSandboxPath("/mnt/user-data", "write")).toThrow(/outside the sandbox/);
    expect(() => resolveSandboxPath("/mnt/user-data/outputs", "write")).toThrow(/one of the sandbox's own folders/);
  });
});

describe("path helpers", () => {
  it("tells the kept areas from the rest", () => {
    expect(isThreadDataPath("/mnt/user-data/outputs/a.md")).toBe(true);
    expect(isThreadDataPath("/mnt/user-data/outputs")).toBe(false);
    expect(isThreadDataPath("/tmp/a")).toBe(false);
    expect(isThreadDataPath("/mnt/skills/a")).toBe(false);
  });

  it("joins relative paths onto a directory", () => {
    expect(joinPath("/mnt/user-data/workspace", "../outputs/a.md")).toBe("/mnt/user-data/outputs/a.md");
    expect(joinPath("/mnt/user-data/workspace", "/tmp/x")).toBe("/tmp/x");
  });

  it("says why a command was stopped", () => {
    expect(stoppedMessage("timeout", 120_000)).toMatch(/ran longer than 120 s/);
    expect(stoppedMessage("timeout", 1_500)).toMatch(/ran longer than 1.5 s/);
    expect(stoppedMessage("limit", 0)).toMatch(/execution limits/);
    expect(stoppedMessage("cancelled", 0)).toBe("Command cancelled.");
  });
});
