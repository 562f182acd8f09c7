import { describe, expect, it } from "vitest";
import { parseSkillMarkdown, readSkillMetadata } from "./skill-frontmatter.ts";

const skill = (frontmatter: string, body = "# Title\n\nDo the thing.\n") => `---\n${frontmatter}\n---\n${body}`;

function problem(text: string): string {
  const result = parseSkillMarkdown(text);
  if (result.ok) throw new Error(`expected ${JSON.stringify(text)} to be refused`);
  return result.message;
}

describe("parseSkillMarkdown (install-time validation)", () => {
  it("accepts a minimal SKILL.md and returns its name, description and body", () => {
    const result = parseSkillMarkdown(skill("name: my-skill\ndescription: A valid skill"));
    expect(result).toEqual({
      ok: true,
      metadata: { name: "my-skill", description: "A valid skill" },
      body: "# Title\n\nDo the thing.\n",
    });
  });

  it("accepts every allowed key", () => {
    const result = parseSkillMarkdown(
      skill(
        [
          "name: my-skill",
          "description: A valid skill",
          "license: MIT",
          "allowed-tools: [bash, read_file]",
          "required-secrets: [API_TOKEN, {name: OTHER, optional: true}]",
          "secrets-autonomous: false",
          "metadata: {argument-hint: '<file>'}",
          "compatibility: needs python3",
          "version: 1.2.0",
          "author: Someone",
        ].join("\n"),
      ),
    );
    expect(result.ok && result.metadata).toEqual({
      name: "my-skill",
      description: "A valid skill",
      license: "MIT",
      allowedTools: ["bash", "read_file"],
      compatibility: "needs python3",
      version: "1.2.0",
      author: "Someone",
    });
  });

  it("accepts an empty allowed-tools list, meaning the skill may use no tools", () => {
    const result = parseSkillMarkdown(skill("name: my-skill\ndescription: d\nallowed-tools: []"));
    expect(result.ok && result.metadata.allowedTools).toEqual([]);
  });

  it("leaves allowedTools out when the key is absent, meaning no restriction", () => {
    const result = parseSkillMarkdown(skill("name: my-skill\ndescription: d"));
    expect(result.ok && "allowedTools" in result.metadata).toBe(false);
  });

  it("stringifies a numeric version", () => {
    const result = parseSkillMarkdown(skill("name: my-skill\ndescription: d\nversion: 2"));
    expect(result.ok && result.metadata.version).toBe("2");
  });

  it("accepts Windows line endings and a byte-order mark", () => {
    const result = parseSkillMarkdown("\uFEFF---\r\nname: my-skill\r\ndescription: d\r\n---\r\nbody\r\n");
    expect(result).toEqual({ ok: true, metadata: { name: "my-skill", description: "d" }, body: "body\n" });
  });

  it.each([
    ["a plain string", "allowed-tools: bash"],
    ["a list with a number", "allowed-tools: [bash, 1]"],
    ["a list with an empty name", 'allowed-tools: [bash, ""]'],
  ])("refuses allowed-tools given as %s, naming the key and SKILL.md", (_case, line) => {
    const message = problem(skill(`name: my-skill\ndescription: d\n${line}`));
    expect(message).toContain("allowed-tools");
    expect(message).toContain("SKILL.md");
  });

  it("refuses a file without frontmatter", () => {
    expect(problem("# Just a heading\n\nname: my-skill\n")).toMatch(/frontmatter/);
  });

  it("refuses frontmatter that is never closed", () => {
    expect(problem("---\nname: my-skill\ndescription: d\n")).toMatch(/frontmatter/);
  });

  it("refuses a closing marker that is not alone on its line", () => {
    expect(problem("---\nname: my-skill---\ndescription: d\n")).toMatch(/frontmatter/);
  });

  it("refuses invalid YAML, saying so", () => {
    expect(problem(skill("name: [my-skill\ndescription: d"))).toContain("YAML");
  });

  it("names the offending line and asks for quotes when a value contains ': '", () => {
    const message = problem(skill("name: my-skill\ndescription: Use when: the user uploads a CSV"));
    expect(message).toContain("YAML");
    expect(message).toContain("description: Use when: the user uploads a CSV");
    expect(message).toMatch(/quote/i);
  });

  it("refuses frontmatter that is not a mapping", () => {
    expect(problem(skill("- name\n- description"))).toMatch(/mapping/);
  });

  it("refuses empty frontmatter", () => {
    expect(problem("---\n---\nbody")).toMatch(/empty/);
  });

  it("refuses a missing name", () => {
    expect(problem(skill("description: d"))).toMatch(/'name'/);
  });

  it("refuses a missing description", () => {
    expect(problem(skill("name: my-skill"))).toMatch(/'description'/);
  });

  it("refuses an unexpected key, naming it", () => {
    expect(problem(skill("name: my-skill\ndescription: d\ncustom-field: x"))).toContain(
      "unexpected key 'custom-field' in SKILL.md frontmatter",
    );
  });

  it("reports a non-string key such as 42 as unexpected", () => {
    expect(problem(skill("name: my-skill\ndescription: d\n42: x"))).toContain("'42'");
  });

  it("refuses a name that is not hyphen-case", () => {
    expect(problem(skill("name: MySkill\ndescription: d"))).toContain("hyphen-case");
  });

  it.each(["-my-skill", "my-skill-", "my--skill", "my_skill", "my skill"])("refuses the name %j", (name) => {
    expect(problem(skill(`name: "${name}"\ndescription: d`))).toContain(name);
  });

  it("refuses a name longer than 64 characters as too long", () => {
    expect(problem(skill(`name: ${"a".repeat(65)}\ndescription: d`))).toContain("too long");
    expect(parseSkillMarkdown(skill(`name: ${"a".repeat(64)}\ndescription: d`)).ok).toBe(true);
  });

  it("refuses a name that is not a string", () => {
    expect(problem(skill("name: 123\ndescription: d"))).toMatch(/'name'.*string/);
  });

  it("refuses a description containing angle brackets", () => {
    expect(problem(skill("name: my-skill\ndescription: Renders <html> pages"))).toMatch(/'<' or '>'/);
  });

  it("refuses a description longer than 1024 characters", () => {
    expect(problem(skill(`name: my-skill\ndescription: ${"d".repeat(1025)}`))).toContain("too long");
    expect(parseSkillMarkdown(skill(`name: my-skill\ndescription: ${"d".repeat(1024)}`)).ok).toBe(true);
  });

  it("refuses an optional field that is not a string", () => {
    expect(problem(skill("name: my-skill\ndescription: d\nlicense: [MIT]"))).toContain("'license'");
  });
});

describe("readSkillMetadata (lenient runtime read)", () => {
  it("strips quotes from the name", () => {
    expect(readSkillMetadata(skill("name: \"quoted-skill\"\ndescription: 'd'"))?.name).toBe("quoted-skill");
  });

  it("joins a folded multi-line description", () => {
    const metadata = readSkillMetadata(skill("name: s\ndescription: >\n  First line\n  second line."));
    expect(metadata?.description).toBe("First line second line.");
  });

  it("reads the license", () => {
    expect(readSkillMetadata(skill("name: s\ndescription: d\nlicense: Apache-2.0"))?.license).toBe("Apache-2.0");
  });

  it("tells an absent allowed-tools from a list and from an empty list", () => {
    expect(readSkillMetadata(skill("name: s\ndescription: d"))?.allowedTools).toBeUndefined();
    expect(readSkillMetadata(skill("name: s\ndescription: d\nallowed-tools: [bash]"))?.allowedTools).toEqual(["bash"]);
    expect(readSkillMetadata(skill("name: s\ndescription: d\nallowed-tools: []"))?.allowedTools).toEqual([]);
  });

  it("ignores unknown keys and does not insist on hyphen-case", () => {
    expect(readSkillMetadata(skill("name: Legacy Skill\ndescription: d\ncustom-field: x"))).toEqual({
      name: "Legacy Skill",
      description: "d",
    });
  });

  it.each([
    ["an invalid allowed-tools", skill("name: s\ndescription: d\nallowed-tools: bash")],
    ["a missing name", skill("description: d")],
    ["an empty description", skill('name: s\ndescription: ""')],
    ["no frontmatter", "# heading only"],
    ["bad YAML", skill("name: [s\ndescription: d")],
  ])("gives nothing for %s", (_case, text) => {
    expect(readSkillMetadata(text)).toBeUndefined();
  });

  it("warns with the offending line and a quoting hint for an unquoted ': ' in a value", () => {
    const warnings: string[] = [];
    readSkillMetadata(skill("name: s\ndescription: Use when: asked"), (message) => warnings.push(message));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain("description: Use when: asked");
    expect(warnings[0]).toMatch(/quote/i);
  });
});
