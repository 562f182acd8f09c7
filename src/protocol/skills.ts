// Skills as the UI sees them: the ones shipped with Fawn (public) and the ones the user installed (custom).

/** Where a skill comes from: shipped in the app's `skills/` folder, or installed by the user from an archive. */
export type SkillCategory = "public" | "custom";

/** What a SKILL.md's frontmatter says about its skill. */
export interface SkillMetadata {
  /** Hyphen-case, at most 64 characters; unique across both categories. */
  name: string;
  /** When to use the skill; at most 1,024 characters, no `<` or `>`. */
  description: string;
  license?: string;
  /** The tools the skill may use; absent means no restriction, `[]` means none. */
  allowedTools?: string[];
  version?: string;
  author?: string;
  compatibility?: string;
}

export interface SkillInfo extends SkillMetadata {
  category: SkillCategory;
  enabled: boolean;
  /** The user may delete it (custom skills only). */
  editable: boolean;
  /** Its SKILL.md in the sandbox, e.g. `/mnt/skills/public/data-analysis/SKILL.md`. */
  path: string;
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
