import { describe, expect, it } from "vitest";
import { skillMountFiles, skillPath, type SkillMountInput } from "./skill-mount.ts";

const text = (bytes: Uint8Array | undefined) => (bytes === undefined ? undefined : new TextDecoder().decode(bytes));

describe("skillPath", () => {
  it("points at the SKILL.md of a skill in its category", () => {
    expect(skillPath("public", "data-analysis")).toBe("/mnt/skills/public/data-analysis/SKILL.md");
    expect(skillPath("custom", "my-tool")).toBe("/mnt/skills/custom/my-tool/SKILL.md");
  });
});

describe("skillMountFiles", () => {
  const input: SkillMountInput = {
    public: [
      { dir: "data-analysis", files: { "SKILL.md": "# é", "scripts/a.py": "print(1)" } },
      { dir: "web-page", files: { "SKILL.md": "# web" } },
    ],
    custom: [{ name: "my-tool", files: { "SKILL.md": new Uint8Array([35, 32, 109]) } }],
  };

  it("mounts enabled public skills by folder and custom skills by name, text as UTF-8", () => {
    const files = skillMountFiles(input, () => true);
    expect(Object.keys(files).sort()).toEqual([
      "/mnt/skills/custom/my-tool/SKILL.md",
      "/mnt/skills/public/data-analysis/SKILL.md",
      "/mnt/skills/public/data-analysis/scripts/a.py",
      "/mnt/skills/public/web-page/SKILL.md",
    ]);
    expect(files["/mnt/skills/public/data-analysis/SKILL.md"]).toEqual(new Uint8Array([35, 32, 0xc3, 0xa9]));
    expect(text(files["/mnt/skills/custom/my-tool/SKILL.md"])).toBe("# m");
  });

  it("leaves out every file of a disabled skill", () => {
    const files = skillMountFiles(input, (category, name) => !(category === "public" && name === "data-analysis"));
    expect(Object.keys(files).some((path) => path.includes("data-analysis"))).toBe(false);
    expect(files["/mnt/skills/public/web-page/SKILL.md"]).toBeDefined();
  });

  it("asks about public skills by folder and custom skills by name, with their category", () => {
    const asked: string[] = [];
    skillMountFiles(input, (category, name) => {
      asked.push(`${category}:${name}`);
      return false;
    });
    expect(asked).toEqual(["public:data-analysis", "public:web-page", "custom:my-tool"]);
  });
});
