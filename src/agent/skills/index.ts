// The skills core's public surface: SKILL.md rules, archives, the prompt section, `/skill-name`, shipped skills.
export {
  parseSkillMarkdown,
  readSkillMetadata,
  skillNameProblem,
  SKILL_FRONTMATTER_KEYS,
  MAX_SKILL_NAME_LENGTH,
  MAX_SKILL_DESCRIPTION_LENGTH,
  type SkillMetadata,
  type SkillMarkdownParse,
} from "./skill-frontmatter.ts";
export { readSkillArchive, SkillArchiveError, type SkillArchive } from "./skill-archive.ts";
export { parseSlashSkill, slashSkillActivation, RESERVED_SLASH_COMMANDS, type ActivatedSkill } from "./slash-skill.ts";
export { skillsPromptSection, escapeXml } from "./skills-prompt.ts";
export { PUBLIC_SKILL_FILES, publicSkills, type PublicSkill } from "./public-skills.ts";
export { skillMountFiles, skillPath, SKILLS_MOUNT_ROOT, type SkillMountInput } from "./skill-mount.ts";
export { mountedSkillFiles } from "./mounted-skills.ts";
