// The skills shipped with Fawn: every file under the repository's skills/public/, bundled as text at build time.
import { readSkillMetadata, type SkillMetadata } from "./skill-frontmatter.ts";
import { PUBLIC_SKILL_FILES, publicSkillFilesByDir } from "./public-skill-files.ts";

export { PUBLIC_SKILL_FILES };

/** A shipped skill: its folder under skills/public, its metadata, and its files by path inside that folder. */
export interface PublicSkill {
  dir: string;
  metadata: SkillMetadata;
  files: Record<string, string>;
}

let cached: PublicSkill[] | undefined;

/**
 * The shipped skills, sorted by folder. A folder whose SKILL.md is missing or fails the runtime's lenient read is
 * skipped (a test holds every shipped skill to the strict install rules, so none should be).
 */
export function publicSkills(): PublicSkill[] {
  if (!cached) {
    cached = [...publicSkillFilesByDir().entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .flatMap(([dir, files]) => {
        const skillFile = files["SKILL.md"];
        const metadata = skillFile === undefined ? undefined : readSkillMetadata(skillFile);
        return metadata ? [{ dir, metadata, files }] : [];
      });
  }
  return cached.map((skill) => ({ ...skill, files: { ...skill.files } }));
}
