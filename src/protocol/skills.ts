// Skills as the UI sees them: the ones shipped with Fawn (public) and the ones the user installed (custom).

/** Where a skill comes from: shipped in the app's `skills/` folder, or installed by the user from an archive. */
export type SkillCategory = "public" | "custom";

export interface SkillInfo {
  /** Hyphen-case, unique across both categories. */
  name: string;
  description: string;
  category: SkillCategory;
  enabled: boolean;
  /** The user may delete it (custom skills only). */
  editable: boolean;
  /** Its SKILL.md in the sandbox, e.g. `/mnt/skills/public/data-analysis/SKILL.md`. */
  path: string;
  license?: string;
  /** The tools the skill may use; absent means no restriction. */
  allowedTools?: string[];
  version?: string;
  author?: string;
  compatibility?: string;
}

/** Limits on an installed skill archive (.skill or .zip). */
export const SKILL_ARCHIVE_LIMITS = {
  /** The archive file itself. */
  maxArchiveBytes: 50 * 1024 * 1024,
  /** Entries in the archive. */
  maxEntries: 4096,
  /** One file, uncompressed. */
  maxFileBytes: 10 * 1024 * 1024,
  /** All files, uncompressed. */
  maxTotalBytes: 100 * 1024 * 1024,
} as const;
