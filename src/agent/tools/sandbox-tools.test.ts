import "fake-indexeddb/auto";
import { describe, expect, it } from "vitest";
import { BrowserSandbox } from "../../sandbox/browser/browser-sandbox.ts";
import { openFawnDb, ThreadFiles } from "../../storage/index.ts";
import { IndexedDbThreadFileStore } from "../../sandbox/indexed-db-thread-file-store.ts";
import { createSandboxTools, formatCommandOutput, selectLines, WRITE_FILE_MAX_BYTES } from "./sandbox-tools.ts";

let dbCount = 0;
async function tools() {
  const files = new ThreadFiles(await openFawnDb(`sandbox-tools-${dbCount++}`));
  const sandbox = await BrowserSandbox.open({ threadId: "t", files: new IndexedDbThreadFileStore(files) });
  /** The tools as the agent calls them: by name, with JSON arguments. */
  type Invocable = { name: string; invoke(input: Record<string, unknown>): Promise<unknown> };
  const byName = new Map(
    (createSandboxTools(async () => sandbox) as unknown as Invocable[]).map((tool) => [tool.name, tool]),
  );
  const call = async (name: string, args: Record<string, unknown>): Promise<string> =>
    String(await byName.get(name)!.invoke({ description: "test", ...args }));
  return { sandbox, call };
}

const W = "/mnt/user-data/workspace";

describe("read_file", () => {
  it("reads line ranges with DeerFlow's rules", async () => {
    const { call } = await tools();
    await call("write_file", { path: `${W}/five.txt`, content: "1\n2\n3\n4\n5\n" });
    const read = (range: Record<string, unknown>) => call("read_file", { path: `${W}/five.txt`, ...range });
    expect(await read({ start_line: 3 })).toBe("3\n4\n5");
    expect(await read({ end_line: 2 })).toBe("1\n2");
    expect(await read({ start_line: 2, end_line: 4 })).toBe("2\n3\n4");
    expect(await read({ start_line: 4, end_line: 99 })).toBe("4\n5");
    expect(await read({ start_line: 0 })).toBe("(start_line must be >= 1)");
    expect(await read({ end_line: -1 })).toBe("(end_line must be >= 1)");
    expect(await read({ start_line: 4, end_line: 2 })).toBe("(start_line > end_line — no lines in range)");
    expect(await read({ start_line: 9 })).toBe("(start_line exceeds file length)");
  });

  it("says (empty), refuses binary files with advice, and head-truncates long files", async () => {
    const { call, sandbox } = await tools();
    await sandbox.writeFile(`${W}/empty.txt`, "");
    expect(await call("read_file", { path: `${W}/empty.txt` })).toBe("(empty)");
    await sandbox.writeFile(`${W}/blob.bin`, new Uint8Array([1, 0, 2]));
    expect(await call("read_file", { path: `${W}/blob.bin` })).toMatch(/^Error: .* is a binary file\. .*python3/);
    await sandbox.writeFile(`${W}/big.txt`, "x".repeat(60_000));
    const big = await call("read_file", { path: `${W}/big.txt` });
    expect(big.length).toBeLessThanOrEqual(50_000);
    expect(big).toMatch(/of 60000 chars\. Use start_line\/end_line/);
    expect(await call("read_file", { path: `${W}/none.txt` })).toBe(`Error: No such file: ${W}/none.txt`);
  });

  it("selects lines of text without a trailing newline too", () => {
    expect(selectLines("a\nb", 2)).toBe("b");
    expect(selectLines("a\nb\n")).toBe("a\nb\n");
  });
});

describe("write_file and str_replace", () => {
  it("refuses a write over 80 KB unless appending, and appends", async () => {
    const { call, sandbox } = await tools();
    const big = "y".repeat(WRITE_FILE_MAX_BYTES + 1);
    expect(await call("write_file", { path: `${W}/big.md`, content: big })).toMatch(
      /over the 81920-byte limit.*append=true/,
    );
    expect(await sandbox.stat(`${W}/big.md`)).toBeUndefined();
    expect(await call("write_file", { path: `${W}/log.md`, content: "a" })).toBe("OK");
    expect(await call("write_file", { path: `${W}/log.md`, content: big, append: true })).toBe("OK");
    expect((await sandbox.readText(`${W}/log.md`)).length).toBe(big.length + 1);
  });

  it("replaces the first occurrence, or all, and says when the text is not there", async () => {
    const { call, sandbox } = await tools();
    await sandbox.writeFile(`${W}/a.py`, "x = 1\nx = 1\n");
    expect(await call("str_replace", { path: `${W}/a.py`, old_str: "x = 1", new_str: "x = $&2" })).toBe("OK");
    expect(await sandbox.readText(`${W}/a.py`)).toBe("x = $&2\nx = 1\n");
    expect(await call("str_replace", { path: `${W}/a.py`, old_str: "x", new_str: "y", replace_all: true })).toBe("OK");
    expect(await sandbox.readText(`${W}/a.py`)).toBe("y = $&2\ny = 1\n");
    expect(await call("str_replace", { path: `${W}/a.py`, old_str: "zzz", new_str: "" })).toBe(
      `Error: String to replace not found in file: ${W}/a.py`,
    );
    await sandbox.writeFile(`${W}/empty.py`, "");
    expect(await call("str_replace", { path: `${W}/empty.py`, old_str: "", new_str: "new" })).toBe("OK");
    expect(await sandbox.readText(`${W}/empty.py`)).toBe("");
  });
});

describe("glob, grep and ls", () => {
  it("list matches in DeerFlow's formats", async () => {
    const { call, sandbox } = await tools();
    await sandbox.writeFile(`${W}/src/a.py`, "import os\n");
    await sandbox.writeFile(`${W}/src/b.py`, "print('hi')\n");
    await sandbox.writeFile(`${W}/node_modules/x/index.js`, "hidden\n");
    expect(await call("glob", { pattern: "**/*.py", path: W })).toBe(
      `Found 2 paths under ${W}\n1. ${W}/src/a.py\n2. ${W}/src/b.py`,
    );
    expect(await call("glob", { pattern: "**/*.py", path: W, max_results: 1 })).toBe(
      `Found 2 paths under ${W} (showing first 1)\n1. ${W}/src/a.py`,
    );
    expect(await call("glob", { pattern: "*.rs", path: W })).toBe(`No files matched under ${W}`);
    expect(await call("grep", { pattern: "print", path: W })).toBe(
      `Found 1 matches under ${W}\n${W}/src/b.py:1: print('hi')`,
    );
    expect(await call("grep", { pattern: "nothing", path: W })).toBe(`No matches found under ${W}`);
    expect(await call("grep", { pattern: "(", path: W })).toMatch(/^Error: Invalid regex pattern:/);
    expect(await call("ls", { path: W })).toBe(`${W}/src/\n${W}/src/a.py\n${W}/src/b.py`);
    expect(await call("ls", { path: "/mnt/user-data/outputs" })).toBe("(empty)");
  });
});

describe("bash", () => {
  it("returns stdout, stderr and a non-zero exit code, middle-truncated at 20,000 characters", async () => {
    const { call } = await tools();
    expect(await call("bash", { command: "echo out; echo err >&2; exit 2" })).toBe("out\nerr\n[exit code 2]");
    expect(await call("bash", { command: "true" })).toBe("(no output)");
    const long = await call("bash", { command: "for i in $(seq 1 3000); do echo line-$i-padding-padding; done" });
    expect(long.length).toBeLessThanOrEqual(20_000);
    expect(long).toContain("[middle truncated:");
    expect(long.startsWith("line-1-")).toBe(true);
    expect(long.endsWith("line-3000-padding-padding")).toBe(true);
  });

  it("formats output the same way everywhere", () => {
    expect(formatCommandOutput({ stdout: "a\n", stderr: "", exitCode: 0 })).toBe("a");
    expect(formatCommandOutput({ stdout: "", stderr: "", exitCode: 1 })).toBe("[exit code 1]");
  });
});
