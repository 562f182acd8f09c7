import { strToU8, zipSync, type Zippable } from "fflate";
import { describe, expect, it } from "vitest";
import { SKILL_ARCHIVE_LIMITS } from "../../protocol/skills.ts";
import { readSkillArchive, SkillArchiveError } from "./skill-archive.ts";

const SKILL_MD = "---\nname: my-skill\ndescription: Does one thing well.\n---\n# My skill\n";

function zip(entries: Record<string, string | Uint8Array>): Uint8Array {
  const zippable: Zippable = {};
  for (const [name, data] of Object.entries(entries)) zippable[name] = typeof data === "string" ? strToU8(data) : data;
  return zipSync(zippable);
}

function refusal(fileName: string, bytes: Uint8Array): string {
  try {
    readSkillArchive(fileName, bytes);
  } catch (error) {
    expect(error).toBeInstanceOf(SkillArchiveError);
    return (error as Error).message;
  }
  throw new Error("expected the archive to be refused");
}

/** Rewrites the declared uncompressed size of every member (local header and central directory) to `size`. */
function declareSize(bytes: Uint8Array, size: number): Uint8Array {
  const copy = bytes.slice();
  const view = new DataView(copy.buffer);
  for (let offset = 0; offset + 4 <= copy.length; offset++) {
    const signature = view.getUint32(offset, true);
    if (signature === 0x04034b50) view.setUint32(offset + 22, size, true);
    if (signature === 0x02014b50) view.setUint32(offset + 24, size, true);
  }
  return copy;
}

describe("readSkillArchive", () => {
  it("reads a flat archive: metadata and files relative to the skill root", () => {
    const archive = readSkillArchive(
      "my-skill.skill",
      zip({ "SKILL.md": SKILL_MD, "scripts/run.py": "print('hi')\n", "templates/page.html": "<p></p>" }),
    );
    expect(archive.metadata).toEqual({ name: "my-skill", description: "Does one thing well." });
    expect(Object.keys(archive.files).sort()).toEqual(["SKILL.md", "scripts/run.py", "templates/page.html"]);
    expect(new TextDecoder().decode(archive.files["scripts/run.py"])).toBe("print('hi')\n");
  });

  it("keeps each path in its one canonical form, the one a backup writes and reads back", () => {
    const { files } = readSkillArchive("s.skill", zip({ "SKILL.md": SKILL_MD, "docs/./a.md": "a", "x//y.txt": "y" }));
    expect(Object.keys(files).sort()).toEqual(["SKILL.md", "docs/a.md", "x/y.txt"]);
    expect(refusal("s.skill", zip({ "SKILL.md": SKILL_MD, "a/b.md": "1", "a//b.md": "2" }))).toBe(
      "'s.skill' holds the file 'a/b.md' twice, under two spellings.",
    );
  });

  it("takes a single top-level folder as the skill root", () => {
    const archive = readSkillArchive(
      "my-skill.zip",
      zip({ "my-skill/": new Uint8Array(), "my-skill/SKILL.md": SKILL_MD, "my-skill/scripts/run.py": "pass\n" }),
    );
    expect(Object.keys(archive.files).sort()).toEqual(["SKILL.md", "scripts/run.py"]);
  });

  it("ignores __MACOSX and top-level dotfiles when finding the root", () => {
    const archive = readSkillArchive(
      "my-skill.zip",
      zip({
        "my-skill/SKILL.md": SKILL_MD,
        "my-skill/.hidden": "kept",
        "__MACOSX/my-skill/._SKILL.md": "junk",
        ".DS_Store": "junk",
      }),
    );
    expect(Object.keys(archive.files).sort()).toEqual([".hidden", "SKILL.md"]);
  });

  it("does not take a folder as the root when other members sit beside it", () => {
    const message = refusal("x.skill", zip({ "my-skill/SKILL.md": SKILL_MD, "README.md": "hello" }));
    expect(message).toContain("not found");
  });

  it("accepts upper-case extensions", () => {
    expect(readSkillArchive("MY-SKILL.SKILL", zip({ "SKILL.md": SKILL_MD })).metadata.name).toBe("my-skill");
  });

  it.each(["my-skill.tar.gz", "my-skill", "SKILL.md"])("refuses the file name %j", (name) => {
    expect(refusal(name, zip({ "SKILL.md": SKILL_MD }))).toMatch(/\.skill or \.zip/);
  });

  it("refuses an archive larger than the limit before reading it", () => {
    const bytes = new Uint8Array(SKILL_ARCHIVE_LIMITS.maxArchiveBytes + 1);
    expect(refusal("big.skill", bytes)).toMatch(/too large/);
  });

  it("refuses a file that is not a zip", () => {
    expect(refusal("fake.skill", strToU8("---\nname: x\n---\n"))).toContain("is not a valid zip archive");
  });

  it("refuses a truncated zip", () => {
    const bytes = zip({ "SKILL.md": SKILL_MD });
    expect(refusal("cut.skill", bytes.subarray(0, bytes.length - 30))).toContain("is not a valid zip archive");
  });

  it("refuses more entries than allowed", () => {
    const entries: Record<string, string> = { "SKILL.md": SKILL_MD };
    for (let index = 0; index < SKILL_ARCHIVE_LIMITS.maxEntries; index++) entries[`f/${index}.txt`] = "";
    expect(refusal("many.skill", zip(entries))).toMatch(/more than 4096 entries/);
  });

  it.each(["../evil.txt", "/etc/passwd", "a/../../evil.txt", "a\\evil.txt", "C:/evil.txt", "a/b:c.txt"])(
    "refuses the unsafe member path %j",
    (name) => {
      expect(refusal("evil.skill", zip({ "SKILL.md": SKILL_MD, [name]: "x" }))).toContain(`unsafe path '${name}'`);
    },
  );

  it("refuses a member whose declared size is over the per-file limit, before inflating it", () => {
    const bytes = declareSize(zip({ "SKILL.md": SKILL_MD }), SKILL_ARCHIVE_LIMITS.maxFileBytes + 1);
    expect(refusal("bomb.skill", bytes)).toMatch(/'SKILL.md', which is too large/);
  });

  it("refuses a member over the per-file limit", () => {
    const big = new Uint8Array(SKILL_ARCHIVE_LIMITS.maxFileBytes + 1);
    expect(refusal("big.skill", zip({ "SKILL.md": SKILL_MD, "data.bin": big }))).toMatch(
      /'data.bin', which is too large/,
    );
  });

  it("refuses a stored (uncompressed) member that declares fewer bytes than it holds", () => {
    const big = new Uint8Array(SKILL_ARCHIVE_LIMITS.maxFileBytes + 1);
    const bytes = declareSize(zipSync({ "SKILL.md": strToU8(SKILL_MD), "data.bin": [big, { level: 0 }] }), 10);
    expect(refusal("liar.skill", bytes)).toMatch(/'data.bin', which is too large/);
  });

  it("refuses archives whose files add up to more than the total limit, judged by their declared sizes", () => {
    const entries: Record<string, string> = { "SKILL.md": SKILL_MD };
    const count = SKILL_ARCHIVE_LIMITS.maxTotalBytes / SKILL_ARCHIVE_LIMITS.maxFileBytes;
    for (let index = 0; index < count; index++) entries[`data/${index}.txt`] = "tiny";
    // Every member now claims the per-file maximum: allowed one by one, too much together.
    const bytes = declareSize(zip(entries), SKILL_ARCHIVE_LIMITS.maxFileBytes);
    expect(refusal("total.skill", bytes)).toMatch(/too large once unpacked/);
  });

  it("cannot be fooled by a member that declares fewer bytes than it holds", () => {
    const big = new Uint8Array(SKILL_ARCHIVE_LIMITS.maxFileBytes + 1).fill(65);
    const bytes = declareSize(zip({ "SKILL.md": SKILL_MD, "a.txt": big }), 100);
    // Inflation stops at the declared size, so the lie truncates the member, which then fails its checksum.
    expect(refusal("liar.skill", bytes)).toBe(
      "'liar.skill' is damaged: the bytes of 'a.txt' do not match the checksum it records.",
    );
  });

  it.each([
    ["ELF", [0x7f, 0x45, 0x4c, 0x46, 2, 1, 1]],
    ["PE", [0x4d, 0x5a, 0x90, 0]],
    ["Mach-O", [0xcf, 0xfa, 0xed, 0xfe, 7, 0, 0, 1]],
    ["fat Mach-O", [0xca, 0xfe, 0xba, 0xbe, 0, 0, 0, 2]],
  ])("refuses a %s executable", (_kind, magic) => {
    const message = refusal("bin.skill", zip({ "SKILL.md": SKILL_MD, "scripts/tool": new Uint8Array(magic) }));
    expect(message).toContain("executable");
    expect(message).toContain("scripts/tool");
  });

  it("refuses an archive without SKILL.md at its root", () => {
    expect(refusal("empty.skill", zip({ "README.md": "hello" }))).toContain("not found");
  });

  it("refuses an empty archive", () => {
    expect(refusal("empty.skill", zip({}))).toContain("not found");
  });

  it("refuses a nested SKILL.md", () => {
    const message = refusal("two.skill", zip({ "SKILL.md": SKILL_MD, "extra/SKILL.md": SKILL_MD }));
    expect(message).toContain("nested SKILL.md at 'extra/SKILL.md'");
  });

  it("refuses invalid frontmatter, quoting the validator", () => {
    const bad = "---\nname: MySkill\ndescription: d\n---\n";
    const message = refusal("bad.skill", zip({ "SKILL.md": bad }));
    expect(message).toMatch(/^SKILL\.md: /);
    expect(message).toContain("hyphen-case");
  });
});
