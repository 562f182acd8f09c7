import "fake-indexeddb/auto";
import { describe, expect, it } from "vitest";
import { openFawnDb, type SkillRecord } from "./fawn-db.ts";
import { PUBLIC_SKILL_STATES_KEY, SkillExistsError, SkillsRepository } from "./skills-repository.ts";

let dbCount = 0;
async function open() {
  const db = await openFawnDb(`skills-repository-test-${dbCount++}`);
  return { db, skills: new SkillsRepository(db) };
}

function record(name: string, overrides: Partial<SkillRecord> = {}): SkillRecord {
  return {
    name,
    enabled: true,
    files: { "SKILL.md": new TextEncoder().encode(`---\nname: ${name}\ndescription: d\n---\n`) },
    installed_at: 1_700_000_000_000,
    metadata: { description: "d" },
    ...overrides,
  };
}

describe("SkillsRepository: custom skills", () => {
  it("installs a skill and reads it back with its files and metadata", async () => {
    const { skills } = await open();
    const skill = record("my-tool", { metadata: { description: "d", allowedTools: ["bash"], version: "1.0" } });
    await skills.installCustom(skill);
    expect(await skills.getCustom("my-tool")).toEqual(skill);
    expect((await skills.listCustom()).map((item) => item.name)).toEqual(["my-tool"]);
  });

  it("refuses to install over an existing skill and keeps the original", async () => {
    const { skills } = await open();
    await skills.installCustom(record("my-tool", { metadata: { description: "first" } }));
    const second = skills.installCustom(record("my-tool", { metadata: { description: "second" } }));
    await expect(second).rejects.toBeInstanceOf(SkillExistsError);
    await expect(second).rejects.toThrow("A skill named 'my-tool' is already installed.");
    expect((await skills.getCustom("my-tool"))?.metadata.description).toBe("first");
  });

  it("lets only one of two simultaneous installs of a name succeed", async () => {
    const { skills } = await open();
    const results = await Promise.allSettled([
      skills.installCustom(record("race")),
      skills.installCustom(record("race")),
    ]);
    expect(results.map((result) => result.status).sort()).toEqual(["fulfilled", "rejected"]);
  });

  it("deletes a skill, saying whether there was one", async () => {
    const { skills } = await open();
    await skills.installCustom(record("my-tool"));
    expect(await skills.deleteCustom("my-tool")).toBe(true);
    expect(await skills.getCustom("my-tool")).toBeUndefined();
    expect(await skills.deleteCustom("my-tool")).toBe(false);
  });

  it("turns an installed skill off and on", async () => {
    const { skills } = await open();
    await skills.installCustom(record("my-tool"));
    expect((await skills.setCustomEnabled("my-tool", false))?.enabled).toBe(false);
    expect((await skills.getCustom("my-tool"))?.enabled).toBe(false);
    await skills.setCustomEnabled("my-tool", true);
    expect((await skills.getCustom("my-tool"))?.enabled).toBe(true);
  });

  it("does not create a skill when toggling an unknown name", async () => {
    const { skills } = await open();
    expect(await skills.setCustomEnabled("ghost", true)).toBeUndefined();
    expect(await skills.listCustom()).toEqual([]);
  });
});

describe("SkillsRepository: public skill states", () => {
  it("has no stored states at first (every public skill is enabled)", async () => {
    const { skills } = await open();
    expect(await skills.publicEnabledStates()).toEqual({});
  });

  it("remembers each public skill's state without touching the others", async () => {
    const { skills } = await open();
    await skills.setPublicEnabled("data-analysis", false);
    await skills.setPublicEnabled("web-page", false);
    await skills.setPublicEnabled("web-page", true);
    expect(await skills.publicEnabledStates()).toEqual({ "data-analysis": false, "web-page": true });
  });

  it("keeps every change when several are made at once", async () => {
    const { skills } = await open();
    await Promise.all(["a", "b", "c", "d"].map((name) => skills.setPublicEnabled(name, false)));
    expect(await skills.publicEnabledStates()).toEqual({ a: false, b: false, c: false, d: false });
  });

  it("ignores a malformed stored value", async () => {
    const { db, skills } = await open();
    await db.put("settings", { key: PUBLIC_SKILL_STATES_KEY, value: { good: false, bad: "no" } });
    expect(await skills.publicEnabledStates()).toEqual({ good: false });
    await db.put("settings", { key: PUBLIC_SKILL_STATES_KEY, value: ["x"] });
    expect(await skills.publicEnabledStates()).toEqual({});
  });
});
