// Memory, skills and subagents through the Gateway, in Node, with the scripted mock model.
import { strToU8, zipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { isTaskEvent, type RunEvent, type TaskEvent } from "../../src/protocol/index.ts";
import { runThread, useGatewayHarness } from "./harness.ts";

const harness = useGatewayHarness("memory-skills-subagents-test");

function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  return Array.isArray(content)
    ? content.map((part: { text?: unknown }) => (typeof part.text === "string" ? part.text : "")).join("\n")
    : "";
}

/**
 * The system prompt of the latest agent request (one that offers tools, unlike the memory updater's and the title
 * writer's) that carries `userText`.
 */
function systemPromptFor(userText: string): string {
  const request = harness.mock.requests.findLast((recorded) => {
    const body = recorded.body as { messages?: unknown; tools?: unknown };
    return Array.isArray(body.tools) && JSON.stringify(body.messages ?? []).includes(userText);
  });
  const messages = ((request?.body as { messages?: { role: string; content: unknown }[] })?.messages ?? []).filter(
    (message) => message.role === "system",
  );
  return messages.map((message) => textOf(message.content)).join("\n");
}

async function say(text: string, context?: Parameters<typeof runThread>[4]): Promise<RunEvent[]> {
  const thread = await harness.gateway.threads.create();
  return runThread(harness.gateway, thread.thread_id, text, undefined, context);
}

describe("memory", () => {
  it("learns a stated preference after a run and puts it in the next thread's prompt", async () => {
    const settings = await harness.gateway.memory.getSettings();
    await harness.gateway.memory.saveSettings({ ...settings, debounceSeconds: 0 });
    await say("By the way, I prefer tea over coffee.");
    await harness.gateway.memory.flush();
    const memory = await harness.gateway.memory.get();
    expect(memory.facts.map((fact) => fact.content)).toEqual(["User prefers tea over coffee"]);
    expect(memory.facts[0]).toMatchObject({ category: "preference", confidence: 0.95 });

    await say("What shall I drink?");
    expect(systemPromptFor("What shall I drink?")).toContain("User prefers tea over coffee");
  });

  it("learns nothing and injects nothing when switched off", async () => {
    await harness.gateway.memory.addFact({ content: "User likes sailing", confidence: 0.9 });
    const settings = await harness.gateway.memory.getSettings();
    await harness.gateway.memory.saveSettings({ ...settings, enabled: false, debounceSeconds: 0 });
    await say("I prefer mountains to beaches.");
    await harness.gateway.memory.flush();
    expect((await harness.gateway.memory.get()).facts.map((fact) => fact.content)).toEqual(["User likes sailing"]);
    expect(systemPromptFor("I prefer mountains")).not.toContain("sailing");
    const updates = harness.mock.requests.filter((request) => request.scenario === "memory-update");
    expect(updates.filter((request) => JSON.stringify(request.body).includes("mountains"))).toEqual([]);
  });

  it("refuses a duplicate fact and a bad import, keeping the memory as it was", async () => {
    await harness.gateway.memory.addFact({ content: "User writes TypeScript", category: "knowledge", confidence: 0.8 });
    await expect(harness.gateway.memory.addFact({ content: "  user writes typescript " })).rejects.toThrow(/already/i);
    await expect(
      harness.gateway.memory.import({ facts: [{ id: "fact_1", content: "x", confidence: 7 }] }),
    ).rejects.toThrow(/confidence/);
    expect((await harness.gateway.memory.get()).facts.map((fact) => fact.content)).toEqual(["User writes TypeScript"]);
  });
});

const SKILL =
  "---\nname: tea-brewing\ndescription: Brew tea well. Use when asked about tea.\n---\n\n# Tea\n\nSteep 3 min.\n";

describe("skills", () => {
  it("ships at least six skills, enabled, listed in the prompt with their paths", async () => {
    const skills = await harness.gateway.skills.list();
    const shipped = skills.filter((skill) => skill.category === "public");
    expect(shipped.length).toBeGreaterThanOrEqual(6);
    expect(shipped.every((skill) => skill.enabled && skill.path.startsWith("/mnt/skills/public/"))).toBe(true);
    await say("hello there");
    const prompt = systemPromptFor("hello there");
    for (const skill of shipped) expect(prompt).toContain(skill.path);
  });

  it("installs an archive: listed, in the prompt, and readable in the sandbox", async () => {
    const archive = zipSync({ "tea-brewing": { "SKILL.md": strToU8(SKILL), "notes/temps.txt": strToU8("80C") } });
    const installed = await harness.gateway.skills.install({ name: "tea-brewing.skill", bytes: archive });
    expect(installed).toMatchObject({ name: "tea-brewing", category: "custom", enabled: true, editable: true });
    expect(installed.path).toBe("/mnt/skills/custom/tea-brewing/SKILL.md");

    const thread = await harness.gateway.threads.create();
    await runThread(
      harness.gateway,
      thread.thread_id,
      `call tool bash ${JSON.stringify({ description: "t", command: "cat /mnt/skills/custom/tea-brewing/notes/temps.txt" })}`,
    );
    const detail = await harness.gateway.threads.get(thread.thread_id);
    const last = detail?.entries.at(-1);
    expect(last?.kind === "message" && last.message.content).toBe("The tool returned: 80C");
    expect(systemPromptFor("temps.txt")).toContain("/mnt/skills/custom/tea-brewing/SKILL.md");

    await expect(harness.gateway.skills.install({ name: "again.skill", bytes: archive })).rejects.toThrow(
      /already installed/,
    );
  });

  it("refuses a bad archive whole and stores nothing", async () => {
    const before = await harness.gateway.skills.list();
    const escape = zipSync({ "SKILL.md": strToU8(SKILL), "../evil.txt": strToU8("x") });
    await expect(harness.gateway.skills.install({ name: "x.skill", bytes: escape })).rejects.toThrow(/unsafe path/);
    const broken = zipSync({ "SKILL.md": strToU8("---\nname: Bad_Name\ndescription: x\n---\n") });
    await expect(harness.gateway.skills.install({ name: "x.zip", bytes: broken })).rejects.toThrow(/hyphen-case/);
    await expect(harness.gateway.skills.install({ name: "x.txt", bytes: strToU8("hi") })).rejects.toThrow();
    expect(await harness.gateway.skills.list()).toEqual(before);
  });

  it("a disabled skill leaves the sandbox and the prompt's available list; /name of it is refused clearly", async () => {
    await harness.gateway.skills.setEnabled("web-page", false);
    const thread = await harness.gateway.threads.create();
    await runThread(
      harness.gateway,
      thread.thread_id,
      `call tool bash ${JSON.stringify({ description: "t", command: "ls /mnt/skills/public" })}`,
    );
    const detail = await harness.gateway.threads.get(thread.thread_id);
    const last = detail?.entries.at(-1);
    const listing = last?.kind === "message" ? String(last.message.content) : "";
    expect(listing).not.toContain("web-page");
    expect(listing).toContain("data-analysis");
    const prompt = systemPromptFor("ls /mnt/skills/public");
    const available = prompt.slice(prompt.indexOf("<available_skills>"), prompt.indexOf("</available_skills>"));
    expect(available).not.toContain("web-page");

    const events = await say("/web-page make me a page");
    expect(events.find((event) => event.event === "error")?.data).toMatchObject({
      message: expect.stringContaining("turned off"),
    });
  });

  it("a skill's allowed-tools limit the tools of the message that activates it, and only that one", async () => {
    const markdown =
      "---\nname: reader-only\ndescription: Read files only.\nallowed-tools: [read_file, ls]\n---\nRead.\n";
    await harness.gateway.skills.install({
      name: "reader-only.skill",
      bytes: zipSync({ "SKILL.md": strToU8(markdown) }),
    });
    const thread = await harness.gateway.threads.create();
    await runThread(harness.gateway, thread.thread_id, "/reader-only look around");
    const toolsOf = (request: (typeof harness.mock.requests)[number] | undefined) =>
      ((request?.body as { tools?: { function: { name: string } }[] }).tools ?? []).map((tool) => tool.function.name);
    expect(toolsOf(harness.mock.requests.at(-1)).sort()).toEqual(["ls", "read_file"]);
    await runThread(harness.gateway, thread.thread_id, "and now anything");
    expect(toolsOf(harness.mock.requests.at(-1))).toContain("bash");
  });

  it("/skill-name loads the skill's SKILL.md for that message", async () => {
    await say("/data-analysis look at my numbers");
    const request = harness.mock.requests.at(-1);
    const text = JSON.stringify((request?.body as { messages?: unknown }).messages);
    expect(text).toContain("name: data-analysis");
    expect(text).toContain("look at my numbers");
  });
});

describe("subagents", () => {
  it("Ultra fans out to three concurrent subagents, streams their events and returns DeerFlow's result text", async () => {
    const events = await say("Please fan out now", { mode: "ultra" });
    expect(events.at(-1)).toEqual({ event: "end", data: { status: "success" } });
    const tasks = events.flatMap((event) =>
      event.event === "custom" && isTaskEvent(event.data) ? [event.data as TaskEvent] : [],
    );
    const started = tasks.filter((event) => event.type === "task_started");
    const completed = tasks.filter((event) => event.type === "task_completed");
    expect(started.map((event) => event.type === "task_started" && event.description)).toEqual([
      "Count the apples",
      "Count the pears",
      "Count the plums",
    ]);
    expect(completed).toHaveLength(3);
    // They ran side by side: every subtask started before the first one completed.
    const firstDone = tasks.findIndex((event) => event.type === "task_completed");
    expect(tasks.slice(0, firstDone).filter((event) => event.type === "task_started")).toHaveLength(3);
    expect(tasks.some((event) => event.type === "task_running")).toBe(true);

    const values = events.findLast((event) => event.event === "values");
    const toolMessages =
      values?.event === "values" ? values.data.messages.filter((message) => message.type === "tool") : [];
    expect(toolMessages.map((message) => message.content)).toEqual([
      "Task Succeeded. Result: Subtask alpha is complete: 3 found.",
      "Task Succeeded. Result: Subtask beta is complete: 3 found.",
      "Task Succeeded. Result: Subtask gamma is complete: 3 found.",
    ]);
  });

  it("Stop cancels the subagents: no model request starts after it", async () => {
    const thread = await harness.gateway.threads.create();
    const runId = crypto.randomUUID();
    let stopped = false;
    const done = harness.gateway.runs.stream(
      {
        run_id: runId,
        thread_id: thread.thread_id,
        input: { messages: [{ type: "human", content: "Please fan out and stop" }] },
        context: { mode: "ultra" },
      },
      (event) => {
        if (!stopped && event.event === "custom" && isTaskEvent(event.data) && event.data.type === "task_started") {
          stopped = true;
          void harness.gateway.runs.cancel(runId);
        }
      },
    );
    await done;
    const count = harness.mock.requests.length;
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(harness.mock.requests.length).toBe(count);
    const runs = await harness.gateway.runs.list(thread.thread_id);
    expect(runs.at(-1)?.status).toBe("interrupted");
  });
});
