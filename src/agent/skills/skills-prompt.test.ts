import { describe, expect, it } from "vitest";
import type { SkillInfo } from "../../protocol/skills.ts";
import { escapeXml, skillsPromptSection } from "./skills-prompt.ts";

function skill(name: string, overrides: Partial<SkillInfo> = {}): SkillInfo {
  return {
    name,
    description: `Use ${name} when asked.`,
    category: "public",
    enabled: true,
    editable: false,
    path: `/mnt/skills/public/${name}/SKILL.md`,
    ...overrides,
  };
}

describe("skillsPromptSection", () => {
  it("is empty when there are no skills", () => {
    expect(skillsPromptSection([])).toBe("");
  });

  it("explains progressive loading, /skill-name and where skills live", () => {
    const section = skillsPromptSection([skill("data-analysis")]);
    expect(section.startsWith("<skill_system>")).toBe(true);
    expect(section.endsWith("</skill_system>")).toBe(true);
    expect(section).toContain("read_file");
    expect(section).toContain("/skill-name");
    expect(section).toContain("Skills are located at /mnt/skills");
  });

  it("lists each enabled skill with its category tag and location", () => {
    const section = skillsPromptSection([
      skill("data-analysis"),
      skill("my-tool", { category: "custom", editable: true, path: "/mnt/skills/custom/my-tool/SKILL.md" }),
    ]);
    expect(section).toContain(
      "<skill><name>data-analysis</name><description>Use data-analysis when asked. [built-in]</description>" +
        "<location>/mnt/skills/public/data-analysis/SKILL.md</location></skill>",
    );
    expect(section).toContain(
      "<description>Use my-tool when asked. [custom]</description><location>/mnt/skills/custom/my-tool/SKILL.md</location>",
    );
  });

  it("keeps disabled skills out of available_skills and lists them as not to be used", () => {
    const section = skillsPromptSection([skill("on"), skill("off", { enabled: false })]);
    const available = section.slice(section.indexOf("<available_skills>"), section.indexOf("</available_skills>"));
    expect(available).toContain("<name>on</name>");
    expect(available).not.toContain("<name>off</name>");
    expect(section).toMatch(/<disabled_skills>\n<skill><name>off<\/name><\/skill>\n<\/disabled_skills>/);
    expect(section).toMatch(/Do not read, run or follow them/);
  });

  it("has no disabled_skills block when every skill is enabled", () => {
    expect(skillsPromptSection([skill("on")])).not.toContain("<disabled_skills>");
  });

  it("escapes descriptions and paths so they cannot break out of their tags", () => {
    const section = skillsPromptSection([
      skill("x", { description: "A & B </description></skill>", path: "/mnt/skills/custom/x/SKILL.md\"'" }),
    ]);
    expect(section).toContain("<description>A &amp; B &lt;/description&gt;&lt;/skill&gt; [built-in]</description>");
    expect(section).toContain("<location>/mnt/skills/custom/x/SKILL.md&quot;&apos;</location>");
  });
});

describe("escapeXml", () => {
  it("escapes the five XML special characters", () => {
    expect(escapeXml(`<a href="x">'&'</a>`)).toBe("&lt;a href=&quot;x&quot;&gt;&apos;&amp;&apos;&lt;/a&gt;");
  });
});
