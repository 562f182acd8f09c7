import { describe, expect, it } from "vitest";
import { parseSkillMarkdown } from "./skill-frontmatter.ts";
import { PUBLIC_SKILL_FILES, publicSkills } from "./public-skills.ts";

describe("shipped skills", () => {
  it("ships at least six skills", () => {
    expect(publicSkills().length).toBeGreaterThanOrEqual(6);
  });

  it("bundles every file by '<dir>/<path>'", () => {
    expect(PUBLIC_SKILL_FILES["data-analysis/SKILL.md"]).toMatch(/^---\nname: data-analysis\n/);
    expect(Object.keys(PUBLIC_SKILL_FILES)).toContain("chart-visualization/scripts/svg_chart.py");
    expect(Object.keys(PUBLIC_SKILL_FILES).every((key) => /^[a-z0-9-]+\/.+/.test(key))).toBe(true);
  });

  it("gives each skill its files by path inside its folder", () => {
    const chart = publicSkills().find((skill) => skill.dir === "chart-visualization");
    expect(Object.keys(chart?.files ?? {}).sort()).toEqual(["SKILL.md", "scripts/svg_chart.py"]);
  });

  it("skips none of the shipped folders", () => {
    const dirs = new Set(Object.keys(PUBLIC_SKILL_FILES).map((key) => key.slice(0, key.indexOf("/"))));
    expect(publicSkills().map((skill) => skill.dir)).toEqual([...dirs].sort());
  });

  it.each(publicSkills().map((skill) => [skill.dir, skill] as const))(
    "%s passes the strict install rules and is named after its folder",
    (dir, skill) => {
      const parsed = parseSkillMarkdown(skill.files["SKILL.md"] ?? "");
      expect(parsed.ok ? "" : parsed.message).toBe("");
      expect(parsed.ok && parsed.metadata.name).toBe(dir);
      expect(skill.metadata.name).toBe(dir);
      expect(skill.metadata.description).toMatch(/^Use when /);
    },
  );

  it("names only bundled files and folders where a SKILL.md points under /mnt/skills/public", () => {
    const keys = Object.keys(PUBLIC_SKILL_FILES);
    for (const skill of publicSkills()) {
      for (const [, path = ""] of (skill.files["SKILL.md"] ?? "").matchAll(
        /\/mnt\/skills\/public\/([a-z0-9-]+\/[\w./-]+\w)/g,
      )) {
        const exists = keys.includes(path) || keys.some((key) => key.startsWith(`${path}/`));
        expect(exists, `${skill.dir} mentions /mnt/skills/public/${path}`).toBe(true);
      }
    }
  });

  it("returns copies, so a caller cannot change the bundled skills", () => {
    const [first] = publicSkills();
    if (!first) throw new Error("no skills");
    first.files["SKILL.md"] = "changed";
    expect(publicSkills()[0]?.files["SKILL.md"]).not.toBe("changed");
  });
});
