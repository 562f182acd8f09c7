// unzipWithinLimits judges the whole zip directory before it inflates anything: found by test/integration/fuzz-skills
// (a zip bomb of twelve 9 MiB members was inflated up to the 100 MiB limit before it was refused).
import { zipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { quotableName, unzipWithinLimits, type ZipProblems } from "./zip-safety.ts";

const PROBLEMS: ZipProblems = {
  tooManyEntries: "too many",
  unsafeName: (name) => `unsafe: '${name}'.`,
  memberTooLarge: (name) => `too large: ${name}`,
  totalTooLarge: "too large in all",
  notZip: "not a zip",
  duplicateName: () => "twice",
  damaged: (name) => `damaged: ${name}`,
};

function fail(message: string): never {
  throw new Error(message);
}

/** A zip whose first member's deflated data cannot be inflated, followed by `rest`. */
function zipWithBrokenFirst(rest: Record<string, Uint8Array>): Uint8Array {
  const bytes = zipSync({ "a.txt": new Uint8Array(100).fill(7), ...rest }, { level: 6 });
  // The local header is 30 bytes and the name; block type 3 does not exist in deflate.
  bytes[30 + "a.txt".length] = 0xff;
  return bytes;
}

describe("unzipWithinLimits", () => {
  it("refuses a member over the limit before inflating any member", () => {
    const bytes = zipWithBrokenFirst({ "big.bin": new Uint8Array(5000) });
    const limits = { maxEntries: 10, maxMemberBytes: 1000, maxTotalBytes: 10_000 };
    expect(() => unzipWithinLimits(bytes, limits, PROBLEMS, fail)).toThrow("too large: big.bin");
  });

  it("refuses an archive over the total before inflating any member (a zip bomb)", () => {
    const members = Object.fromEntries(Array.from({ length: 8 }, (_, index) => [`z${index}`, new Uint8Array(900)]));
    const limits = { maxEntries: 100, maxMemberBytes: 1000, maxTotalBytes: 5000 };
    expect(() => unzipWithinLimits(zipWithBrokenFirst(members), limits, PROBLEMS, fail)).toThrow("too large in all");
  });

  it("keeps the files of a good archive, folders and skipped members left out", () => {
    const bytes = zipSync({
      "dir/": new Uint8Array(0),
      "dir/a.txt": new Uint8Array([1, 2]),
      "skip.me": new Uint8Array(1),
    });
    const limits = { maxEntries: 10, maxMemberBytes: 1000, maxTotalBytes: 1000 };
    const files = unzipWithinLimits(bytes, limits, PROBLEMS, fail, { skip: (name) => name === "skip.me" });
    expect(files).toEqual({ "dir/a.txt": new Uint8Array([1, 2]) });
  });

  it("quotes a damaged name on one line and briefly (found by fuzz-skills: a name ran into the next header's bytes)", () => {
    const garbage = `\u0000\u0000fuzzed/SKILL.mdPK\u0001\u0002\n|}]${"\u0000x".repeat(200)}`;
    const bytes = zipSync({ [garbage]: new Uint8Array([1]) });
    const limits = { maxEntries: 10, maxMemberBytes: 1000, maxTotalBytes: 1000 };
    let message = "";
    try {
      unzipWithinLimits(bytes, limits, PROBLEMS, fail);
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/^unsafe: '\\u0000\\u0000fuzzed\/SKILL\.mdPK\\u0001\\u0002\\u000a\|\}\].*…'\.$/);
    expect(message).not.toContain("\n");
    expect(quotableName(garbage).length).toBe(80);
    expect(quotableName("docs/a.md")).toBe("docs/a.md");
  });
});
