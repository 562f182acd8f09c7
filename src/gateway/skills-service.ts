// DeerFlow's skills routes as a service: the shipped (public) and installed (custom) skills, their on/off state,
// installing archives, what the sandbox mounts at /mnt/skills, and `/skill-name` activation.
import {
  mountedSkillFiles,
  parseSlashSkill,
  publicSkills,
  readSkillArchive,
  skillPath,
  slashSkillActivation,
} from "../agent/index.ts";
import type { SkillInfo, SkillMetadata, SkillsApi } from "../protocol/index.ts";
import { UserError } from "../shared/user-error.ts";
import type { SkillStorage } from "../storage/index.ts";
import { writing } from "./writes.ts";

const decoder = new TextDecoder();

/** What `/skill-name` at the start of a message resolved to (a run's context reads it once). */
export type SkillActivation =
  | { kind: "none" }
  | { kind: "activate"; text: string; skill: Pick<SkillInfo, "name" | "allowedTools"> }
  | { kind: "disabled"; skill: Pick<SkillInfo, "name"> };

export interface SkillsServiceOptions {
  /** Told after the skills changed: open sandboxes mount them anew, other tabs refresh. */
  onChange?: () => Promise<void> | void;
  /** Reads a thread's file (ThreadsService.readFile), for installing a skill from it. */
  readThreadFile?: (threadId: string, path: string) => Promise<{ bytes: Uint8Array }>;
}

export class SkillsService implements SkillsApi {
  constructor(
    private readonly repository: SkillStorage,
    private readonly options: SkillsServiceOptions = {},
  ) {}

  /** A change written (a full storage refused readably), then announced. */
  private async changed<T>(change: () => Promise<T>): Promise<T> {
    const result = await writing(change);
    await this.options.onChange?.();
    return result;
  }

  /** Shipped skills first, then installed ones, each sorted by name. */
  async list(): Promise<SkillInfo[]> {
    const [states, custom] = await Promise.all([this.repository.publicEnabledStates(), this.repository.listCustom()]);
    const shipped: SkillInfo[] = publicSkills().map(({ dir, metadata }) => ({
      ...metadata,
      category: "public",
      enabled: states[metadata.name] ?? true,
      editable: false,
      path: skillPath("public", dir),
    }));
    const installed: SkillInfo[] = custom.map((record) => ({
      ...record.metadata,
      name: record.name,
      category: "custom",
      enabled: record.enabled,
      editable: true,
      path: skillPath("custom", record.name),
    }));
    const byName = (a: SkillInfo, b: SkillInfo) => a.name.localeCompare(b.name);
    return [...shipped.sort(byName), ...installed.sort(byName)];
  }

  setEnabled(name: string, enabled: boolean): Promise<SkillInfo> {
    return this.changed(() => this.writeEnabled(name, enabled));
  }

  private async writeEnabled(name: string, enabled: boolean): Promise<SkillInfo> {
    if (typeof enabled !== "boolean") throw new UserError("Say whether the skill is enabled: true or false.");
    const skill = (await this.list()).find((item) => item.name === name);
    if (!skill) throw new UserError(`There is no skill named ${JSON.stringify(name)}.`);
    if (skill.category === "public") await this.repository.setPublicEnabled(name, enabled);
    else await this.repository.setCustomEnabled(name, enabled);
    return { ...skill, enabled };
  }

  /** Checks the whole archive, then stores it in one transaction; a bad archive writes nothing. */
  install(archive: { name: string; bytes: Uint8Array }): Promise<SkillInfo> {
    const fileName = archive?.name;
    const bytes = archive?.bytes;
    if (typeof fileName !== "string" || !(bytes instanceof Uint8Array)) {
      return Promise.reject(new UserError("A skill archive is a file name and its bytes."));
    }
    return this.changed(() => this.writeInstall(fileName, bytes));
  }

  private async writeInstall(fileName: string, bytes: Uint8Array): Promise<SkillInfo> {
    const { metadata, files } = readSkillArchive(fileName, bytes);
    if (publicSkills().some((skill) => skill.metadata.name === metadata.name)) {
      throw new UserError(`Fawn already ships a skill named '${metadata.name}'; rename yours.`, "conflict");
    }
    // A name already installed is refused with a SkillExistsError (user-facing, a conflict).
    await this.repository.installCustom({
      name: metadata.name,
      enabled: true,
      files,
      installed_at: Date.now(),
      metadata: withoutName(metadata),
    });
    const installed = (await this.list()).find((skill) => skill.category === "custom" && skill.name === metadata.name);
    if (!installed) throw new Error(`The skill ${metadata.name} was stored but cannot be read back.`);
    return installed;
  }

  /** Installs a `.skill` archive from one of the thread's files (named by the file's name). */
  async installFromThread(threadId: string, path: string): Promise<SkillInfo> {
    if (!this.options.readThreadFile) throw new Error("This Gateway reads no thread files.");
    const file = await this.options.readThreadFile(threadId, path);
    return this.install({ name: path.split("/").at(-1) ?? path, bytes: file.bytes });
  }

  delete(name: string): Promise<void> {
    return this.changed(() => this.writeDelete(name));
  }

  private async writeDelete(name: string): Promise<void> {
    const skill = (await this.list()).find((item) => item.name === name);
    if (!skill) throw new UserError(`There is no skill named ${JSON.stringify(name)}.`);
    if (skill.category !== "custom") throw new UserError("Skills that ship with Fawn can be turned off, not deleted.");
    await this.repository.deleteCustom(name);
  }

  /** The enabled skills' files as the sandbox mounts them, by absolute path under /mnt/skills. */
  mountFiles(): Promise<Record<string, Uint8Array>> {
    return mountedSkillFiles(this.repository);
  }

  /** `/skill-name rest`: the activation of an enabled skill, a disabled one named, or none (ordinary text). */
  async activation(text: string): Promise<SkillActivation> {
    const slash = parseSlashSkill(text);
    if (!slash) return { kind: "none" };
    const skill = (await this.list()).find((item) => item.name === slash.name);
    if (!skill) return { kind: "none" };
    if (!skill.enabled) return { kind: "disabled", skill };
    const content = await this.skillMarkdown(skill);
    if (content === undefined) return { kind: "none" };
    return {
      kind: "activate",
      skill,
      text: slashSkillActivation({ name: skill.name, category: skill.category, path: skill.path, content }, slash.rest),
    };
  }

  private async skillMarkdown(skill: SkillInfo): Promise<string | undefined> {
    if (skill.category === "public") {
      return publicSkills().find((item) => item.metadata.name === skill.name)?.files["SKILL.md"];
    }
    const bytes = (await this.repository.getCustom(skill.name))?.files["SKILL.md"];
    return bytes === undefined ? undefined : decoder.decode(bytes);
  }
}

/** The frontmatter without the name (the record's key). */
function withoutName({ name: _name, ...rest }: SkillMetadata): Omit<SkillMetadata, "name"> {
  return rest;
}
