// The files the sandbox shows at /mnt/skills: every enabled skill, shipped or installed, read from IndexedDB. Used by
// the gateway (WebContainer) and by the sandbox worker (browser sandbox), which opens the database itself.
import type { SkillStorage } from "../../storage/index.ts";
import { publicSkillFilesByDir } from "./public-skill-files.ts";
import { skillMountFiles } from "./skill-mount.ts";

/** The enabled skills' files by absolute path under /mnt/skills (a shipped skill is on unless turned off). */
export async function mountedSkillFiles(
  repository: Pick<SkillStorage, "publicEnabledStates" | "listCustom">,
): Promise<Record<string, Uint8Array>> {
  const [states, custom] = await Promise.all([repository.publicEnabledStates(), repository.listCustom()]);
  const enabledCustom = new Set(custom.filter((record) => record.enabled).map((record) => record.name));
  return skillMountFiles(
    {
      public: [...publicSkillFilesByDir()].map(([dir, files]) => ({ dir, files })),
      custom: custom.map(({ name, files }) => ({ name, files })),
    },
    (category, name) => (category === "public" ? (states[name] ?? true) : enabledCustom.has(name)),
  );
}
