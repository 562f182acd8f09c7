import { describe, expect, it } from "vitest";
import { threadFileName } from "./thread-file-name.ts";

describe("threadFileName", () => {
  it.each([
    [
      "call tools write_file { description Write the pa…",
      ".fawn",
      "call-tools-write-file-description-Write-the-pa.fawn",
    ],
    ['Say "hi" to {everyone}: <now>!', ".md", "Say-hi-to-everyone-now.md"],
    ["季度销售报告：东区领先", ".thread.json", "季度销售报告-东区领先.thread.json"],
    ["Café déjà vu — naïve résumé", ".fawn", "Café-déjà-vu-naïve-résumé.fawn"],
    ["hello", ".md", "hello.md"],
    ["  ../../etc/passwd  ", ".fawn", "etc-passwd.fawn"],
    ["{ } \" ' … 🙂", ".fawn", "thread.fawn"],
    ["", ".md", "thread.md"],
    ["CON", ".fawn", "CON-thread.fawn"],
  ])("%j%s → %s", (title, extension, name) => {
    expect(threadFileName(title, extension)).toBe(name);
  });

  it("keeps a long title to 60 characters, cut at a word where it can", () => {
    const name = threadFileName("word ".repeat(40), ".fawn");
    expect(name).toBe(`${"word-".repeat(11)}word.fawn`);
    const base = threadFileName("a".repeat(100), "");
    expect(base).toBe("a".repeat(60));
    // Characters outside the BMP count as one and are never split.
    expect([...threadFileName("𠀀".repeat(80), "")]).toHaveLength(60);
  });
});
