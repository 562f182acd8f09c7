// DeerFlow's agents layout as a zip: `agents/<name>/config.yaml` (its fields) and `agents/<name>/SOUL.md` (its
// instructions) per agent. Writing one or all agents, and reading such a zip checked whole — its paths, sizes, YAML
// and every agent's fields — before anything is kept. Loaded on use (export and import only).
import { zipSync } from "fflate";
import { parse, stringify } from "yaml";
import { AGENT_LIST_MAX, AGENT_SOUL_MAX, type AgentDraft } from "../../protocol/index.ts";
import { hasZipMagic, unzipWithinLimits } from "../../shared/zip-safety.ts";
import { AgentConfigError, readAgentDraft } from "./agent-config.ts";

const encoder = new TextEncoder();

/** The limits an imported agents zip is held to. */
export const AGENTS_ZIP_LIMITS = {
  maxArchiveBytes: 8 * 1024 * 1024,
  maxEntries: AGENT_LIST_MAX * 3 + 10,
  maxMemberBytes: AGENT_SOUL_MAX * 4 + 1024,
  maxTotalBytes: 8 * 1024 * 1024,
};

const CONFIG_FILE = "config.yaml";
const SOUL_FILE = "SOUL.md";
const MEMBER = /^agents\/([^/]+)\/(config\.yaml|SOUL\.md)$/;

/** An agent's config.yaml: DeerFlow's keys (name, description, model, tool_groups, skills, model_settings) and Fawn's. */
function configOf(draft: AgentDraft): Record<string, unknown> {
  return {
    name: draft.name,
    description: draft.description,
    ...(draft.model !== undefined && { model: draft.model }),
    ...(draft.tool_groups && { tool_groups: draft.tool_groups }),
    ...(draft.skills && { skills: draft.skills }),
    ...(draft.model_settings && { model_settings: draft.model_settings }),
    // Fawn's own keys; DeerFlow ignores keys it does not know.
    memory: draft.memory,
    ...(draft.guardrail && { guardrail: draft.guardrail }),
  };
}

/** A zip of `agents` in DeerFlow's layout. */
export function writeAgentsZip(agents: readonly AgentDraft[]): Uint8Array {
  const files: Record<string, Uint8Array> = {};
  for (const agent of agents) {
    files[`agents/${agent.name}/${CONFIG_FILE}`] = encoder.encode(stringify(configOf(agent)));
    files[`agents/${agent.name}/${SOUL_FILE}`] = encoder.encode(agent.soul);
  }
  return zipSync(files, { level: 6 });
}

function text(bytes: Uint8Array, fileName: string, path: string): string {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new AgentConfigError(`'${fileName}' holds '${path}', which is not UTF-8 text.`);
  }
}

/** macOS's resource forks and Finder files, which zips made there carry beside the real files. */
function isMacMetadata(name: string): boolean {
  return name.startsWith("__MACOSX/") || name.split("/").at(-1) === ".DS_Store";
}

/**
 * The agents of a DeerFlow-layout zip named `fileName`, checked whole: a path outside the layout, a file too large, a
 * bad YAML or field, an agent without its SOUL.md, or a name held twice refuses the archive with one sentence.
 */
export function readAgentsZip(fileName: string, bytes: Uint8Array): AgentDraft[] {
  const fail = (message: string): never => {
    throw new AgentConfigError(message);
  };
  if (bytes.length > AGENTS_ZIP_LIMITS.maxArchiveBytes)
    fail(`'${fileName}' is larger than an agents archive may be (8 MB).`);
  if (!hasZipMagic(bytes)) fail(`'${fileName}' is not a zip archive.`);
  const members = unzipWithinLimits(
    bytes,
    {
      maxEntries: AGENTS_ZIP_LIMITS.maxEntries,
      maxMemberBytes: AGENTS_ZIP_LIMITS.maxMemberBytes,
      maxTotalBytes: AGENTS_ZIP_LIMITS.maxTotalBytes,
    },
    {
      tooManyEntries: `'${fileName}' holds more files than ${AGENT_LIST_MAX} agents would.`,
      unsafeName: (name) => `'${fileName}' contains an unsafe path '${name}'.`,
      memberTooLarge: (name) => `'${fileName}' holds '${name}', which is too large for an agent's file.`,
      totalTooLarge: `'${fileName}' unpacks to more than an agents archive may (8 MB).`,
      notZip: `'${fileName}' is not a zip archive.`,
      duplicateName: (name) => `'${fileName}' holds '${name}' twice.`,
      damaged: (name) => `'${fileName}' is damaged: the bytes of '${name}' do not match the checksum it records.`,
    },
    fail,
    { skip: isMacMetadata },
  );
  const byFolder = new Map<string, { config?: string; soul?: string }>();
  for (const [path, content] of Object.entries(members)) {
    const match = MEMBER.exec(path);
    if (!match) fail(`'${fileName}' holds '${path}', which is not an agent's config.yaml or SOUL.md under agents/.`);
    const [, folder, file] = match as RegExpExecArray;
    const entry = byFolder.get(folder!) ?? {};
    entry[file === CONFIG_FILE ? "config" : "soul"] = text(content, fileName, path);
    byFolder.set(folder!, entry);
  }
  if (byFolder.size === 0) fail(`'${fileName}' holds no agents (agents/<name>/config.yaml and SOUL.md).`);
  if (byFolder.size > AGENT_LIST_MAX) fail(`'${fileName}' holds more than ${AGENT_LIST_MAX} agents.`);
  const drafts: AgentDraft[] = [];
  const names = new Set<string>();
  for (const [folder, files] of byFolder) {
    if (files.config === undefined) fail(`'${fileName}' has no config.yaml for the agent '${folder}'.`);
    if (files.soul === undefined) fail(`'${fileName}' has no SOUL.md for the agent '${folder}'.`);
    let config: unknown;
    try {
      config = parse(files.config!, { maxAliasCount: 10 });
    } catch {
      fail(`'${fileName}': the config.yaml of '${folder}' is not valid YAML.`);
    }
    if (config === null || config === undefined) config = {};
    if (typeof config !== "object" || Array.isArray(config))
      fail(`'${fileName}': the config.yaml of '${folder}' is not a mapping of an agent's fields.`);
    const fields = config as Record<string, unknown>;
    const name = typeof fields.name === "string" ? fields.name : folder;
    if (name.toLowerCase() !== folder.toLowerCase())
      fail(`'${fileName}': the agent in folder '${folder}' is named '${name}'; they must be the same.`);
    let draft: AgentDraft;
    try {
      draft = readAgentDraft({ ...fields, name, soul: files.soul }, `'${fileName}', agent '${folder}'`);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new AgentConfigError(
        reason.startsWith(`'${fileName}'`) ? reason : `'${fileName}', agent '${folder}': ${reason}`,
      );
    }
    if (names.has(draft.name)) fail(`'${fileName}' holds the agent '${draft.name}' twice.`);
    names.add(draft.name);
    drafts.push(draft);
  }
  return drafts.sort((a, b) => a.name.localeCompare(b.name));
}
