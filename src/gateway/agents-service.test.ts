// The agents service over in-memory storage: create, check, update, delete, the examples, an agent's own memory,
// and DeerFlow's agents zip out and back in — a bad archive refused whole with nothing written.
import { strToU8, unzipSync, zipSync } from "fflate";
import { beforeEach, describe, expect, it } from "vitest";
import type { AgentDraft, ChangeNotice } from "../protocol/index.ts";
import { memoryStorage } from "../storage/memory/index.ts";
import { DEFAULT_MEMORY_SETTINGS } from "../protocol/index.ts";
import { AgentsService, AGENTS_KEY } from "./agents-service.ts";

const draft = (fields: Partial<AgentDraft> = {}): AgentDraft => ({
  name: "Researcher",
  description: "Finds sources.",
  soul: "Cite everything.",
  memory: "shared",
  ...fields,
});

let service: AgentsService;
let notices: ChangeNotice[];
let settings: ReturnType<typeof memoryStorage>["settings"];

beforeEach(() => {
  settings = memoryStorage().settings;
  notices = [];
  let now = 1000;
  service = new AgentsService(settings, {
    notify: (notice) => notices.push(notice),
    memorySettings: async () => DEFAULT_MEMORY_SETTINGS,
    createModel: async () => undefined,
    now: () => now++,
  });
});

describe("AgentsService", () => {
  it("creates an agent under its lowercase name, lists and gets it, and tells the tabs", async () => {
    const created = await service.create(draft());
    expect(created).toMatchObject({ name: "researcher", soul: "Cite everything.", created_at: 1000, updated_at: 1000 });
    expect((await service.list()).map((agent) => agent.name)).toEqual(["researcher"]);
    expect(await service.get("RESEARCHER")).toEqual(created);
    expect(notices).toContainEqual({ type: "settings-changed" });
  });

  it("refuses a bad draft with one sentence per problem, and a taken name", async () => {
    await expect(service.create(draft({ name: "no spaces", soul: " " }))).rejects.toThrow(
      "An agent's name uses only letters, digits and dashes. Write the agent's instructions.",
    );
    await expect(service.create(draft({ model_settings: { temperature: 3 } }))).rejects.toThrow(
      "Temperature is a number from 0 to 2.",
    );
    await expect(service.create(draft({ guardrail: { allow: ["bash"], deny: ["bash"] } }))).rejects.toThrow(
      "A tool cannot be both allowed and denied.",
    );
    await service.create(draft());
    await expect(service.create(draft({ name: "researcher" }))).rejects.toThrow(
      "An agent named 'researcher' already exists.",
    );
    expect(await service.list()).toHaveLength(1);
  });

  it("checks a name as DeerFlow's /api/agents/check does", async () => {
    expect(await service.checkName("New-Agent")).toEqual({ available: true, name: "new-agent" });
    await service.create(draft());
    expect(await service.checkName("researcher")).toMatchObject({ available: false, name: "researcher" });
    expect((await service.checkName("bad/name")).available).toBe(false);
  });

  it("updates only the fields given; null clears tool groups and skills; the name stays", async () => {
    await service.create(draft({ tool_groups: ["web"], skills: [] }));
    const updated = await service.update("researcher", { description: "Reads papers.", tool_groups: null });
    expect(updated).toMatchObject({ name: "researcher", description: "Reads papers.", soul: "Cite everything." });
    expect(updated.tool_groups).toBeUndefined();
    expect(updated.skills).toEqual([]);
    expect(updated.updated_at).toBeGreaterThan(updated.created_at);
    await expect(service.update("researcher", { soul: "" })).rejects.toThrow("Write the agent's instructions.");
    await expect(service.update("ghost", { description: "x" })).rejects.toThrow("There is no agent named 'ghost'.");
  });

  it("deletes an agent and its own memory", async () => {
    await service.create(draft({ memory: "own" }));
    await settings.put("agents.memory.researcher", { facts: [{ id: "f1", content: "Likes tea", confidence: 0.9 }] });
    expect((await service.getMemory("researcher")).facts).toHaveLength(1);
    await service.delete("researcher");
    expect(await service.list()).toEqual([]);
    await service.create(draft({ memory: "own" }));
    expect((await service.getMemory("researcher")).facts).toEqual([]);
  });

  it("reads a damaged stored list without the damaged records", async () => {
    await settings.put(AGENTS_KEY, [
      { ...draft({ name: "good" }), created_at: 1, updated_at: 1 },
      { name: "../evil", soul: "x", created_at: 1, updated_at: 1 },
      "not an agent",
    ]);
    expect((await service.list()).map((agent) => agent.name)).toEqual(["good"]);
  });

  it("offers example agents that can be added as they are", async () => {
    const examples = await service.examples();
    expect(examples.map((example) => example.name)).toEqual(["researcher", "code-reviewer", "writing-editor"]);
    for (const example of examples) await service.create(example);
    expect(await service.list()).toHaveLength(3);
  });
});

describe("agents zip", () => {
  it("exports DeerFlow's layout and imports it back into another Fawn", async () => {
    await service.create(draft({ tool_groups: ["web"], guardrail: { deny: ["bash"] }, memory: "own" }));
    await service.create(draft({ name: "editor", soul: "Keep the voice.", model_settings: { max_tokens: 500 } }));
    const archive = await service.exportAll();
    expect(archive.name).toBe("agents.zip");
    const files = unzipSync(archive.bytes);
    expect(Object.keys(files).sort()).toEqual([
      "agents/editor/SOUL.md",
      "agents/editor/config.yaml",
      "agents/researcher/SOUL.md",
      "agents/researcher/config.yaml",
    ]);
    expect(new TextDecoder().decode(files["agents/researcher/config.yaml"])).toContain("tool_groups:\n  - web");
    const one = await service.exportOne("editor");
    expect(one.name).toBe("editor.zip");

    const before = await service.list();
    const other = new AgentsService(memoryStorage().settings, {
      notify: () => undefined,
      memorySettings: async () => DEFAULT_MEMORY_SETTINGS,
      createModel: async () => undefined,
    });
    const added = await other.import(archive);
    const strip = ({ created_at: _c, updated_at: _u, ...rest }: (typeof before)[number]) => rest;
    expect(added.map(strip)).toEqual(before.map(strip));
  });

  it("reads a DeerFlow agent's config.yaml (its keys only) and SOUL.md", async () => {
    const bytes = zipSync({
      "agents/Helper/config.yaml": strToU8(
        "name: Helper\ndescription: Helps\nmodel: gpt-4o\nskills: []\nthinking_enabled: true\n",
      ),
      "agents/Helper/SOUL.md": strToU8("You help."),
    });
    const [agent] = await service.import({ name: "deerflow.zip", bytes });
    expect(agent).toMatchObject({
      name: "helper",
      description: "Helps",
      model: "gpt-4o",
      skills: [],
      memory: "shared",
    });
  });

  const refused = async (files: Record<string, Uint8Array>, sentence: string) => {
    await service.create(draft({ name: "keep" }));
    await expect(service.import({ name: "bad.zip", bytes: zipSync(files) })).rejects.toThrow(sentence);
    expect((await service.list()).map((agent) => agent.name)).toEqual(["keep"]);
  };
  const ok = { "agents/a/config.yaml": strToU8("name: a\n"), "agents/a/SOUL.md": strToU8("Be a.") };

  it("refuses a file outside the layout, and writes nothing", () =>
    refused({ ...ok, "agents/a/notes.txt": strToU8("x") }, "'bad.zip' holds 'agents/a/notes.txt', which is not"));

  it("refuses a path that climbs out", () =>
    refused({ ...ok, "agents/../../etc/passwd": strToU8("x") }, "'bad.zip' contains an unsafe path"));

  it("refuses an agent without its SOUL.md", () =>
    refused({ "agents/b/config.yaml": strToU8("name: b\n"), ...ok }, "'bad.zip' has no SOUL.md for the agent 'b'."));

  it("refuses a bad field, naming the agent", () =>
    refused(
      { ...ok, "agents/c/config.yaml": strToU8("tool_groups: [teleport]\n"), "agents/c/SOUL.md": strToU8("c") },
      "'bad.zip', agent 'c': Tool groups are bash, file:read, file:write, web, mcp.",
    ));

  it("refuses bad YAML and a folder named unlike its agent", async () => {
    await refused(
      { ...ok, "agents/d/config.yaml": strToU8("name: [unclosed\n"), "agents/d/SOUL.md": strToU8("d") },
      "the config.yaml of 'd' is not valid YAML.",
    );
    await expect(
      service.import({
        name: "bad.zip",
        bytes: zipSync({ "agents/e/config.yaml": strToU8("name: f\n"), "agents/e/SOUL.md": strToU8("e") }),
      }),
    ).rejects.toThrow("the agent in folder 'e' is named 'f'");
  });

  it("refuses an agent the user already has, adding none of the archive's", () =>
    refused(
      { ...ok, "agents/keep/config.yaml": strToU8("name: keep\n"), "agents/keep/SOUL.md": strToU8("k") },
      "'bad.zip' holds an agent you already have (keep): delete or rename yours first. Nothing was imported.",
    ));

  it("refuses what is not a zip", async () => {
    await expect(service.import({ name: "notes.txt", bytes: strToU8("hello") })).rejects.toThrow(
      "'notes.txt' is not a zip archive.",
    );
  });
});
