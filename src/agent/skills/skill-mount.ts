// What the sandbox mounts read-only at /mnt/skills: the enabled skills' files, by absolute virtual path.
import type { SkillCategory } from "../../protocol/skills.ts";

/** Where skills appear in the sandbox. */
export const SKILLS_MOUNT_ROOT = "/mnt/skills";

/** The SKILL.md of a skill in the sandbox: `/mnt/skills/<category>/<dir>/SKILL.md` (a custom skill's dir is its name). */
export function skillPath(category: SkillCategory, dirOrName: string): string {
  return `${SKILLS_MOUNT_ROOT}/${category}/${dirOrName}/SKILL.md`;
}

/** The skills to mount: shipped ones by folder (text or bytes), installed ones by name. */
export interface SkillMountInput {
  public: readonly { dir: string; files: Readonly<Record<string, string | Uint8Array>> }[];
  custom: readonly { name: string; files: Readonly<Record<string, Uint8Array>> }[];
}

/**
 * The files of every enabled skill by absolute path: public ones at `/mnt/skills/public/<dir>/<path>`, custom ones at
 * `/mnt/skills/custom/<name>/<path>`; text is encoded as UTF-8. `enabled` is asked with the folder of a public skill
 * and the name of a custom one. Disabled skills are left out entirely, so the agent cannot read them.
 */
export function skillMountFiles(
  input: SkillMountInput,
  enabled: (category: SkillCategory, name: string) => boolean,
): Record<string, Uint8Array> {
  const encoder = new TextEncoder();
  const mounted: Record<string, Uint8Array> = {};
  const add = (category: SkillCategory, dir: string, files: Readonly<Record<string, string | Uint8Array>>) => {
    if (!enabled(category, dir)) return;
    for (const [path, data] of Object.entries(files)) {
      mounted[`${SKILLS_MOUNT_ROOT}/${category}/${dir}/${path}`] =
        typeof data === "string" ? encoder.encode(data) : data;
    }
  };
  for (const skill of input.public) add("public", skill.dir, skill.files);
  for (const skill of input.custom) add("custom", skill.name, skill.files);
  return mounted;
}
