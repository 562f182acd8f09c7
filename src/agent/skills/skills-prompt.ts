// The system prompt's `<skill_system>` section: how to use skills, and which ones exist (enabled and disabled).
import type { SkillInfo } from "../../protocol/skills.ts";
import { SKILLS_MOUNT_ROOT } from "./skill-mount.ts";

const XML_ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" };

/** `text` safe inside XML-style prompt tags and attributes: `& < > " '` become entities. */
export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => XML_ESCAPES[character] ?? character);
}

const CATEGORY_LABELS: Record<SkillInfo["category"], string> = { public: "built-in", custom: "custom" };

/**
 * The `<skill_system>` section for `skills`: progressive loading, `/skill-name` activation, where skills live, then
 * the enabled skills (name, description tagged `[built-in]` or `[custom]`, SKILL.md location) and the names of the
 * disabled ones, which must not be used. Every value is escaped. "" when there are no skills at all.
 */
export function skillsPromptSection(skills: readonly SkillInfo[]): string {
  if (skills.length === 0) return "";
  const enabled = skills.filter((skill) => skill.enabled);
  const disabled = skills.filter((skill) => !skill.enabled);
  const lines = [
    "<skill_system>",
    "Skills are packaged know-how for particular kinds of task: instructions, scripts and templates that someone",
    "has already worked out. Load them progressively:",
    "1. When a task matches a skill's description below, read that skill's SKILL.md with read_file, at the location",
    "   given, before doing anything else for the task.",
    "2. Follow its instructions. Open the scripts, references or templates it mentions only when you reach the step",
    "   that needs them; do not read a skill's whole folder up front.",
    "3. Run a skill's scripts from where they are (they are read-only) and write what they produce under",
    "   /mnt/user-data/workspace or /mnt/user-data/outputs.",
    "When the user begins a message with /skill-name, they chose that skill themselves: its SKILL.md arrives with",
    "their message, already loaded, so follow it without reading it again.",
    `Skills are located at ${SKILLS_MOUNT_ROOT} (read-only): built-in ones under ${SKILLS_MOUNT_ROOT}/public, the`,
    `user's own under ${SKILLS_MOUNT_ROOT}/custom.`,
    "",
    "<available_skills>",
    ...enabled.map((skill) =>
      [
        "<skill>",
        `<name>${escapeXml(skill.name)}</name>`,
        `<description>${escapeXml(skill.description)} [${CATEGORY_LABELS[skill.category]}]</description>`,
        `<location>${escapeXml(skill.path)}</location>`,
        "</skill>",
      ].join(""),
    ),
    "</available_skills>",
  ];
  if (disabled.length > 0) {
    lines.push(
      "",
      "The user turned these skills off. Do not read, run or follow them, even if asked; say they are disabled and",
      "can be turned on in Settings → Skills.",
      "<disabled_skills>",
      ...disabled.map((skill) => `<skill><name>${escapeXml(skill.name)}</name></skill>`),
      "</disabled_skills>",
    );
  }
  lines.push("</skill_system>");
  return lines.join("\n");
}
