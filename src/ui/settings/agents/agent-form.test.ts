import { describe, expect, it } from "vitest";
import { AGENT_TOOL_GROUPS, type AgentDraft } from "../../../protocol/index.ts";
import { agentFormProblems, blankAgentForm, fromAgentForm, toAgentForm, type AgentForm } from "./agent-form.ts";

const FULL: AgentDraft = {
  name: "reviewer",
  description: "Reviews code",
  soul: "You review code carefully.",
  model: "@mock:mock-model",
  tool_groups: ["file:read", "web"],
  skills: ["deep-research"],
  memory: "own",
  guardrail: { allow: ["read_file", "web_search"], deny: ["bash"] },
  model_settings: { temperature: 0.2, max_tokens: 2048 },
};

const filled = (changes: Partial<AgentForm>): AgentForm => ({
  ...blankAgentForm(),
  name: "writer",
  soul: "Edit prose.",
  ...changes,
});

describe("the agent editor's form", () => {
  it("gives back the agent it showed, every setting kept", () => {
    expect(fromAgentForm(toAgentForm(FULL))).toEqual(FULL);
  });

  it("keeps no limit when every tool group is ticked and every skill is allowed, and clears unset options", () => {
    const draft = fromAgentForm(filled({ name: " Writer ", description: "  Edits  " }));
    expect(draft).toMatchObject({ name: "writer", description: "Edits", tool_groups: null, skills: null });
    expect(draft.model).toBeUndefined();
    expect(draft.guardrail).toBeUndefined();
    expect(draft.model_settings).toBeUndefined();
    // Present though undefined: an update with it clears what the kept agent had.
    expect(Object.keys(draft)).toEqual(expect.arrayContaining(["model", "guardrail", "model_settings"]));
  });

  it("keeps the groups ticked in their order, none when none is ticked, and the chosen skills", () => {
    expect(fromAgentForm(filled({ toolGroups: ["web", "bash"] })).tool_groups).toEqual(["bash", "web"]);
    expect(fromAgentForm(filled({ toolGroups: [] })).tool_groups).toEqual([]);
    expect(fromAgentForm(filled({ skillsMode: "chosen", skills: [] })).skills).toEqual([]);
    expect(toAgentForm({ ...FULL, tool_groups: null }).toolGroups).toEqual([...AGENT_TOOL_GROUPS]);
  });

  it("reads the guardrail's tools from commas, dropping blanks and repeats", () => {
    expect(fromAgentForm(filled({ allow: " read_file, ,read_file,web_search ", deny: "" })).guardrail).toEqual({
      allow: ["read_file", "web_search"],
    });
  });

  it("has no problem with a good agent", () => {
    expect(agentFormProblems(filled({ temperature: "0.7", maxTokens: "1000" }), ["other"])).toEqual([]);
  });

  it("places each problem at its field, in the order the editor shows them", () => {
    const problems = agentFormProblems(
      filled({ name: "no spaces", soul: " ", temperature: "hot", maxTokens: "1.5", allow: "bash", deny: "bash" }),
      [],
    );
    expect(problems.map((problem) => problem.id)).toEqual([
      "agent-name",
      "agent-soul",
      "agent-allow",
      "agent-temperature",
      "agent-max-tokens",
    ]);
    expect(problems[0]!.message).toBe("An agent's name uses only letters, digits and dashes.");
    expect(problems[3]!.message).toBe("Temperature is a number from 0 to 2.");
  });

  it("refuses a new agent's name another agent has, whatever its case", () => {
    expect(agentFormProblems(filled({ name: "Writer" }), ["writer"])).toEqual([
      { id: "agent-name", message: "Another agent is named writer." },
    ]);
  });
});
