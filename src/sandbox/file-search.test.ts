import { describe, expect, it } from "vitest";
import { globFiles, grepFiles, GREP_MAX_FILE_BYTES, type SearchableFiles } from "./file-search.ts";

/** A file tree in a Map: paths ending in "/" are folders. */
function tree(files: Record<string, string | Uint8Array>): SearchableFiles {
  const bytes = new Map(
    Object.entries(files).map(([path, content]) => [
      path,
      typeof content === "string" ? new TextEncoder().encode(content) : content,
    ]),
  );
  const dirs = new Set<string>(["/r"]);
  for (const path of bytes.keys()) {
    for (let i = path.indexOf("/", 1); i > 0; i = path.indexOf("/", i + 1)) dirs.add(path.slice(0, i));
  }
  return {
    list: async (dir) =>
      [...dirs, ...bytes.keys()].filter(
        (path) => path.startsWith(`${dir}/`) && !path.slice(dir.length + 1).includes("/"),
      ),
    stat: async (path) =>
      dirs.has(path)
        ? { type: "directory", size: 0 }
        : bytes.has(path)
          ? { type: "file", size: bytes.get(path)!.byteLength }
          : undefined,
    read: async (path) => bytes.get(path)!,
  };
}

const files = tree({
  "/r/a.py": "import os\nprint('Hello')\n",
  "/r/src/b.py": "x = 1 + 2\n",
  "/r/src/c.txt": "a+b\nHELLO there\n",
  "/r/node_modules/dep/index.js": "hello from a dependency\n",
  "/r/long.txt": `${"x".repeat(300)} hello\n`,
  "/r/binary.bin": new Uint8Array([104, 101, 108, 108, 111, 0, 1]),
});

describe("globFiles", () => {
  it("matches relative to the root, sorted, skipping ignored folders", async () => {
    expect(await globFiles(files, "**/*.py", "/r")).toEqual(["/r/a.py", "/r/src/b.py"]);
    expect(await globFiles(files, "*.py", "/r")).toEqual(["/r/a.py"]);
    expect(await globFiles(files, "**/*.js", "/r")).toEqual([]);
    expect(await globFiles(files, "*", "/r/src", { includeDirs: true })).toEqual(["/r/src/b.py", "/r/src/c.txt"]);
    expect(await globFiles(files, "**", "/r", { includeDirs: true })).toContain("/r/src");
    expect(await globFiles(files, "**/*", "/r", { maxResults: 2 })).toHaveLength(2);
  });
});

describe("grepFiles", () => {
  it("finds lines case-insensitively by default, in text files only, outside ignored folders", async () => {
    expect(await grepFiles(files, "hello", "/r")).toEqual([
      { path: "/r/a.py", line: 2, text: "print('Hello')" },
      { path: "/r/long.txt", line: 1, text: `${"x".repeat(200)}…` },
      { path: "/r/src/c.txt", line: 2, text: "HELLO there" },
    ]);
  });

  it("honours case, literal patterns, a glob filter, a single file and the result cap", async () => {
    expect(await grepFiles(files, "Hello", "/r", { caseSensitive: true })).toHaveLength(1);
    expect(await grepFiles(files, "a+b", "/r", { literal: true })).toEqual([
      { path: "/r/src/c.txt", line: 1, text: "a+b" },
    ]);
    expect(await grepFiles(files, "a+b", "/r")).toEqual([]);
    expect(await grepFiles(files, "=", "/r", { glob: "*.py" })).toEqual([
      { path: "/r/src/b.py", line: 1, text: "x = 1 + 2" },
    ]);
    expect(await grepFiles(files, "hello", "/r/src/c.txt")).toHaveLength(1);
    expect(await grepFiles(files, "e", "/r", { maxResults: 1 })).toHaveLength(1);
  });

  it("explains an invalid regular expression", async () => {
    await expect(grepFiles(files, "(", "/r")).rejects.toThrow(/^Invalid regex pattern:/);
  });

  it("skips files over 1 MB", async () => {
    const big = tree({ "/r/big.txt": `${"a".repeat(GREP_MAX_FILE_BYTES)}\nneedle\n`, "/r/small.txt": "needle\n" });
    expect((await grepFiles(big, "needle", "/r")).map((match) => match.path)).toEqual(["/r/small.txt"]);
  });
});
