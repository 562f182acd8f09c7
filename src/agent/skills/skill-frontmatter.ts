// SKILL.md frontmatter: the strict check an archive must pass to be installed, and the lenient read the runtime uses.
import { isMap, parseDocument } from "yaml";
import type { SkillMetadata } from "../../protocol/index.ts";

/** What a skill says about itself in the YAML frontmatter of its SKILL.md. */
export type { SkillMetadata };

/** The outcome of the strict parse: the metadata and the Markdown after the frontmatter, or why it was refused. */
export type SkillMarkdownParse = { ok: true; metadata: SkillMetadata; body: string } | { ok: false; message: string };

/** The only keys a SKILL.md frontmatter may hold (DeerFlow's list). */
export const SKILL_FRONTMATTER_KEYS: readonly string[] = [
  "name",
  "description",
  "license",
  "allowed-tools",
  "required-secrets",
  "secrets-autonomous",
  "metadata",
  "compatibility",
  "version",
  "author",
];

export const MAX_SKILL_NAME_LENGTH = 64;
export const MAX_SKILL_DESCRIPTION_LENGTH = 1024;

const NAME_PATTERN = /^[a-z0-9-]+$/;
/** `---`, the YAML, then `---` alone on its line; the YAML may be empty. */
const FRONTMATTER = /^---[ \t]*\n(?:([\s\S]*?)\n)?---[ \t]*(?:\n|$)/;

/** Why `name` is not a valid skill name, or undefined when it is. */
export function skillNameProblem(name: string): string | undefined {
  if (name === "") return "The skill's name must not be empty.";
  if (!NAME_PATTERN.test(name)) {
    return `The skill name '${name}' must be hyphen-case: lowercase letters, digits and hyphens only.`;
  }
  if (name.startsWith("-") || name.endsWith("-") || name.includes("--")) {
    return `The skill name '${name}' must not start or end with a hyphen or contain two hyphens in a row.`;
  }
  if (name.length > MAX_SKILL_NAME_LENGTH) {
    return `The skill name '${name}' is too long (${name.length} characters; at most ${MAX_SKILL_NAME_LENGTH}).`;
  }
  return undefined;
}

type Frontmatter = { ok: true; data: Map<unknown, unknown>; body: string } | { ok: false; message: string };

/** Splits off and parses the frontmatter, keeping keys as YAML typed them (so `42:` stays a number). */
function readFrontmatter(text: string): Frontmatter {
  const normalized = text.replace(/^\uFEFF/, "").replace(/\r\n?/g, "\n");
  const match = FRONTMATTER.exec(normalized);
  if (!match) {
    return {
      ok: false,
      message: "SKILL.md must start with YAML frontmatter: a line '---', the fields, then another line '---'.",
    };
  }
  const yaml = match[1] ?? "";
  const body = normalized.slice(match[0].length);
  const document = parseDocument(yaml, { uniqueKeys: true, prettyErrors: true });
  const [error] = document.errors;
  if (error) return { ok: false, message: yamlErrorMessage(yaml, error) };
  if (document.contents === null) return { ok: false, message: "SKILL.md frontmatter is empty." };
  if (!isMap(document.contents)) {
    return { ok: false, message: "SKILL.md frontmatter must be a YAML mapping of fields (key: value)." };
  }
  // mapAsMap keeps keys as YAML typed them, so a key `42:` is reported as such rather than as the string "42".
  let data: Map<unknown, unknown>;
  try {
    data = document.toJS({ mapAsMap: true }) as Map<unknown, unknown>;
  } catch {
    // toJS refuses alias bombs (too many aliases) and unresolved aliases.
    return { ok: false, message: "SKILL.md frontmatter is not valid YAML: it uses aliases that cannot be resolved." };
  }
  return { ok: true, data, body };
}

/**
 * The YAML error as one sentence: the parser's reason, the offending line (numbered as in SKILL.md, after the opening
 * `---`) and, for an unquoted `key: a: b`, how to fix it.
 */
function yamlErrorMessage(
  yaml: string,
  error: { message: string; linePos?: [{ line: number }, ...unknown[]] },
): string {
  const reason = (error.message.split("\n")[0] ?? "").replace(/ at line \d+, column \d+:?$/, "");
  const line = error.linePos?.[0].line;
  const source = line === undefined ? undefined : yaml.split("\n")[line - 1]?.trim();
  if (line === undefined || !source) return `SKILL.md frontmatter is not valid YAML (${reason}).`;
  const separator = source.indexOf(": ");
  const value = separator < 0 ? "" : source.slice(separator + 2).trim();
  const hint =
    value.includes(": ") && !/^["']/.test(value)
      ? ` A value containing ": " must be quoted, e.g. ${source.slice(0, separator)}: "${value.replace(/"/g, '\\"')}".`
      : "";
  return `SKILL.md frontmatter is not valid YAML at line ${line + 1} (${source}): ${reason}.${hint}`;
}

const OPTIONAL_STRING_KEYS = ["license", "version", "author", "compatibility"] as const;

/**
 * The optional string fields `data` holds, trimmed (a numeric `version: 2` as text), and a sentence for each that is
 * not a string: the install refuses those, the runtime drops them.
 */
function optionalStrings(data: Map<unknown, unknown>): {
  fields: Pick<SkillMetadata, (typeof OPTIONAL_STRING_KEYS)[number]>;
  problems: string[];
} {
  const fields: Pick<SkillMetadata, (typeof OPTIONAL_STRING_KEYS)[number]> = {};
  const problems: string[] = [];
  for (const key of OPTIONAL_STRING_KEYS) {
    const value = data.get(key);
    if (value === undefined || value === null) continue;
    if (typeof value === "string") fields[key] = value.trim();
    else if (key === "version" && typeof value === "number") fields[key] = String(value);
    else problems.push(`'${key}' in SKILL.md frontmatter must be a string.`);
  }
  return { fields, problems };
}

/** `allowed-tools` as trimmed tool names: undefined when it is absent, null when it is not a list of non-empty strings. */
function allowedTools(data: Map<unknown, unknown>): string[] | undefined | null {
  const value = data.get("allowed-tools");
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value)) return null;
  const tools: string[] = [];
  for (const item of value) {
    if (typeof item !== "string" || item.trim() === "") return null;
    tools.push(item.trim());
  }
  return tools;
}

/**
 * Validates a SKILL.md the way an install must: frontmatter first, only the known keys, a hyphen-case name, a
 * description without angle brackets, `allowed-tools` as a list of tool names. Returns the metadata and the body, or
 * a message the user can act on.
 */
export function parseSkillMarkdown(text: string): SkillMarkdownParse {
  const frontmatter = readFrontmatter(text);
  if (!frontmatter.ok) return frontmatter;
  const { data, body } = frontmatter;
  const fail = (message: string): SkillMarkdownParse => ({ ok: false, message });

  const unexpected = [...data.keys()].filter((key) => typeof key !== "string" || !SKILL_FRONTMATTER_KEYS.includes(key));
  if (unexpected.length > 0) {
    const keys = unexpected.map((key) => `'${String(key)}'`).join(", ");
    return fail(
      `unexpected key${unexpected.length > 1 ? "s" : ""} ${keys} in SKILL.md frontmatter (allowed: ${SKILL_FRONTMATTER_KEYS.join(", ")}).`,
    );
  }

  const name = data.get("name");
  if (name === undefined || name === null) return fail("SKILL.md frontmatter is missing 'name'.");
  if (typeof name !== "string") return fail("'name' in SKILL.md frontmatter must be a string.");
  const nameProblem = skillNameProblem(name.trim());
  if (nameProblem) return fail(nameProblem);

  const description = data.get("description");
  if (description === undefined || description === null) return fail("SKILL.md frontmatter is missing 'description'.");
  if (typeof description !== "string") return fail("'description' in SKILL.md frontmatter must be a string.");
  if (description.trim() === "") return fail("'description' in SKILL.md frontmatter must not be empty.");
  if (/[<>]/.test(description)) return fail("'description' in SKILL.md frontmatter must not contain '<' or '>'.");
  if (description.trim().length > MAX_SKILL_DESCRIPTION_LENGTH) {
    return fail(
      `'description' in SKILL.md frontmatter is too long (${description.trim().length} characters; at most ${MAX_SKILL_DESCRIPTION_LENGTH}).`,
    );
  }

  const optional = optionalStrings(data);
  if (optional.problems[0] !== undefined) return fail(optional.problems[0]);
  const metadata: SkillMetadata = { name: name.trim(), description: description.trim(), ...optional.fields };
  const tools = allowedTools(data);
  if (tools === null) {
    return fail("'allowed-tools' in SKILL.md frontmatter must be a list of tool names (non-empty strings).");
  }
  if (tools) metadata.allowedTools = tools;
  return { ok: true, metadata, body };
}

/**
 * The runtime's lenient read of a SKILL.md already on disk: it needs only a non-empty string name and description;
 * unknown keys are ignored and malformed optional strings dropped, but a malformed `allowed-tools` skips the skill.
 * Returns undefined for anything it cannot use, telling `warn` why (YAML errors name the line and how to quote).
 */
export function readSkillMetadata(text: string, warn?: (message: string) => void): SkillMetadata | undefined {
  const frontmatter = readFrontmatter(text);
  if (!frontmatter.ok) {
    warn?.(frontmatter.message);
    return undefined;
  }
  const { data } = frontmatter;
  const name = data.get("name");
  const description = data.get("description");
  if (typeof name !== "string" || name.trim() === "" || typeof description !== "string" || description.trim() === "") {
    warn?.("SKILL.md frontmatter needs a non-empty 'name' and 'description'.");
    return undefined;
  }
  const metadata: SkillMetadata = {
    name: name.trim(),
    description: description.trim(),
    ...optionalStrings(data).fields,
  };
  const tools = allowedTools(data);
  // Dropping a malformed restriction would widen what the skill may do: skip the skill instead.
  if (tools === null) {
    warn?.(`Skipping skill '${metadata.name}': its 'allowed-tools' is not a list of tool names.`);
    return undefined;
  }
  if (tools) metadata.allowedTools = tools;
  return metadata;
}
