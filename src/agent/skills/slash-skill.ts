// `/skill-name request`: recognizing a message that names a skill, and the hidden text that loads it for that turn.
import type { SkillCategory } from "../../protocol/skills.ts";
import { MAX_SKILL_NAME_LENGTH } from "./skill-frontmatter.ts";
import { escapeXml } from "./skills-prompt.ts";

/** Slash commands that belong to the app (or to DeerFlow's channels), never to a skill of the same name. */
export const RESERVED_SLASH_COMMANDS: ReadonlySet<string> = new Set([
  "help",
  "new",
  "clear",
  "settings",
  "bootstrap",
  "status",
  "models",
  "memory",
  "compact",
  "goal",
]);

/** The message starts with `/`, a hyphen-case name, then whitespace or the end. */
const SLASH_SKILL = /^\/([a-z0-9]+(?:-[a-z0-9]+)*)(?:\s+([\s\S]*))?$/;

/**
 * The skill a message names with `/skill-name`, and the rest of the message (trimmed, "" when there is none).
 * Undefined unless the message starts exactly with `/` and a hyphen-case name followed by whitespace or the end (so
 * `/DataAnalysis`, `/data_analysis`, ` /x` and `/x分析` are ordinary text), or when the name is a reserved command.
 */
export function parseSlashSkill(text: string): { name: string; rest: string } | undefined {
  const match = SLASH_SKILL.exec(text);
  const name = match?.[1];
  if (name === undefined || name.length > MAX_SKILL_NAME_LENGTH || RESERVED_SLASH_COMMANDS.has(name)) return undefined;
  return { name, rest: (match?.[2] ?? "").trim() };
}

/** A skill to activate: where it lives and its SKILL.md as text. */
export interface ActivatedSkill {
  name: string;
  category: SkillCategory;
  /** Its SKILL.md in the sandbox. */
  path: string;
  content: string;
}

/**
 * The hidden text sent with a `/skill-name` message: a `<skill_activation>` block telling the model the skill is
 * already loaded (so it does not read SKILL.md again), the user's request, and the SKILL.md itself, all XML-escaped.
 */
export function slashSkillActivation(skill: ActivatedSkill, request: string): string {
  const task =
    request.trim() === ""
      ? "The user gave no task beyond the command: briefly say what this skill does and ask what they would like done."
      : "Carry out the user's request below by following the skill's instructions.";
  return [
    `<skill_activation name="${escapeXml(skill.name)}" category="${skill.category}" path="${escapeXml(skill.path)}">`,
    `The user chose the skill "${escapeXml(skill.name)}" for this message by typing /${escapeXml(skill.name)}.`,
    "Its SKILL.md is included below and is already loaded: do not read it again with read_file. Files it refers to",
    `(scripts, templates, references) are next to it under ${escapeXml(skill.path.replace(/\/SKILL\.md$/, ""))};`,
    `open them only when a step needs them. ${task}`,
    `<user_request>${escapeXml(request.trim())}</user_request>`,
    `<skill_content encoding="xml-escaped">`,
    escapeXml(skill.content),
    "</skill_content>",
    "</skill_activation>",
  ].join("\n");
}
