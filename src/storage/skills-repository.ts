// Installed (custom) skills in the `skills` store, and the on/off state of shipped (public) skills in `settings`.
import type { FawnDb, SkillRecord } from "./fawn-db.ts";
import type { SkillStorage } from "./contracts.ts";
import type { UserFacing } from "../shared/user-error.ts";

/** The settings key holding the public skills' enabled state, as `Record<name, boolean>` (absent means enabled). */
export const PUBLIC_SKILL_STATES_KEY = "skills.public.enabled";

/** Installing a skill whose name is already taken; nothing was written. */
export class SkillExistsError extends Error implements UserFacing {
  override readonly name = "SkillExistsError";
  readonly userFacing = "conflict";

  constructor(readonly skillName: string) {
    super(`A skill named '${skillName}' is already installed.`);
  }
}

/** Only the boolean entries of a stored states value (anything else reads as no states). */
export function statesOf(value: unknown): Record<string, boolean> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return {};
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>).filter(
      (entry): entry is [string, boolean] => typeof entry[1] === "boolean",
    ),
  );
}

export class SkillsRepository implements SkillStorage {
  constructor(private readonly db: FawnDb) {}

  /** Every installed skill, by name. */
  listCustom(): Promise<SkillRecord[]> {
    return this.db.getAll("skills");
  }

  getCustom(name: string): Promise<SkillRecord | undefined> {
    return this.db.get("skills", name);
  }

  /**
   * Stores a new skill. The check that the name is free and the write are one transaction, so two installs of the
   * same name cannot both succeed; throws SkillExistsError (and writes nothing) when the name is taken.
   */
  async installCustom(record: SkillRecord): Promise<void> {
    const tx = this.db.transaction("skills", "readwrite");
    if ((await tx.store.getKey(record.name)) !== undefined) {
      tx.abort();
      await tx.done.catch(() => undefined);
      throw new SkillExistsError(record.name);
    }
    await Promise.all([tx.store.add(record), tx.done]);
  }

  /** Removes an installed skill and its files; false when there was none by that name. */
  async deleteCustom(name: string): Promise<boolean> {
    const tx = this.db.transaction("skills", "readwrite");
    const existed = (await tx.store.getKey(name)) !== undefined;
    if (existed) await tx.store.delete(name);
    await tx.done;
    return existed;
  }

  /** Turns an installed skill on or off; returns it as stored, or undefined when there is none by that name. */
  async setCustomEnabled(name: string, enabled: boolean): Promise<SkillRecord | undefined> {
    const tx = this.db.transaction("skills", "readwrite");
    const record = await tx.store.get(name);
    const updated = record && { ...record, enabled };
    if (updated) await tx.store.put(updated);
    await tx.done;
    return updated;
  }

  /** The public skills' stored on/off states by name; a skill missing here is enabled. */
  async publicEnabledStates(): Promise<Record<string, boolean>> {
    return statesOf((await this.db.get("settings", PUBLIC_SKILL_STATES_KEY))?.value);
  }

  /** Turns a public skill on or off, reading and rewriting the states in one transaction. */
  async setPublicEnabled(name: string, enabled: boolean): Promise<void> {
    const tx = this.db.transaction("settings", "readwrite");
    const states = statesOf((await tx.store.get(PUBLIC_SKILL_STATES_KEY))?.value);
    await Promise.all([tx.store.put({ key: PUBLIC_SKILL_STATES_KEY, value: { ...states, [name]: enabled } }), tx.done]);
  }
}
