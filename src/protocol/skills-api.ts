// The skills domain's contract (`gateway.skills`): Settings → Skills, and a skill installed from a thread's file.
import type { SkillInfo } from "./skills.ts";

export interface SkillsApi {
  /** Shipped and installed skills, shipped first, each sorted by name. */
  list(): Promise<SkillInfo[]>;
  /** Turns a skill on or off; threads see the change at their next command and run. */
  setEnabled(name: string, enabled: boolean): Promise<SkillInfo>;
  /**
   * Installs a skill from a `.skill` or `.zip` archive (enabled). The archive is checked whole first (paths, sizes,
   * SKILL.md frontmatter, name not taken); a bad one is refused with a readable message and nothing is written.
   */
  install(archive: { name: string; bytes: Uint8Array }): Promise<SkillInfo>;
  /** Installs a `.skill` archive from one of the thread's files (e.g. one the agent made in outputs). */
  installFromThread(threadId: string, path: string): Promise<SkillInfo>;
  /** Deletes an installed skill (shipped skills can only be disabled). */
  delete(name: string): Promise<void>;
}
