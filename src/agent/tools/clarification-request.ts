// ask_clarification's arguments made into a human-input request (protocol/human-input.ts) and its text. Models
// send options and fields in many shapes; they are normalized here, and a form that breaks a rule is dropped
// whole, so the user never sees half a form.
import {
  CLARIFICATION_TYPES,
  HUMAN_INPUT_FIELD_TYPES,
  isReservedFieldName,
  type ClarificationType,
  type HumanInputField,
  type HumanInputFieldType,
  type HumanInputOption,
  type HumanInputRequest,
} from "../../protocol/index.ts";

/** Limits of a form; one broken limit drops the whole form. */
export const FORM_LIMITS = { fields: 16, options: 24, textLength: 200, bytes: 16 * 1024 } as const;

/** ask_clarification's arguments as the model sent them, after only the `question` was checked. */
export interface ClarificationArgs {
  question: string;
  clarification_type?: unknown;
  context?: unknown;
  options?: unknown;
  fields?: unknown;
}

const ICONS: Record<ClarificationType, string> = {
  missing_info: "❓",
  ambiguous_requirement: "🤔",
  approach_choice: "🔀",
  risk_confirmation: "⚠️",
  suggestion: "💡",
};

/** A sequence of XML-ish elements, e.g. `<option>A</option><option>B</option>`: one item per element. */
const ELEMENT = /<([A-Za-z][\w.:-]*)(?:\s[^<>]*)?>([\s\S]*?)<\/\1\s*>/g;
/** Anything that looks like a tag (`<b>`, `</option>`, `<br/>`); `a < b` is left alone. */
const TAG = /<\/?[A-Za-z][^<>]*>/g;

function stripTags(text: string): string {
  return text.replace(TAG, "").trim();
}

/** The items of a string made only of elements (recursively), or the string itself. */
function elementItems(text: string): string[] {
  const matches = [...text.matchAll(ELEMENT)];
  if (matches.length === 0 || text.replace(ELEMENT, "").trim().length > 0) return [text];
  return matches.flatMap((match) => elementItems(match[2] ?? ""));
}

/**
 * Every scalar in `value` as text, in order: arrays and objects (e.g. XML parsed into a dict) are flattened;
 * scalars are spelled as JavaScript spells them (`2` → "2", `true` → "true", `null` → "null").
 */
function flattenTexts(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(flattenTexts);
  if (typeof value === "object" && value !== null) return Object.values(value).flatMap(flattenTexts);
  if (typeof value === "string") return elementItems(value);
  if (value === undefined || typeof value === "function" || typeof value === "symbol") return [];
  return [String(value)];
}

/** A top-level string may be JSON: an array (`'["dev","prod"]'`), or a scalar (`'"prod"'`, `'42'`). */
function parseJsonString(value: unknown): unknown {
  if (typeof value !== "string") return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value;
  }
}

/**
 * Options as the user sees them, in order: from a list, a JSON string of a list or of a scalar, a plain string,
 * a dict or XML-ish elements; tags stripped, trimmed, blanks and repeats dropped. Missing or `null` → none.
 */
export function optionTexts(raw: unknown): string[] {
  const value = parseJsonString(raw);
  if (value === null || value === undefined) return [];
  const texts = flattenTexts(value)
    .map(stripTags)
    .filter((text) => text.length > 0);
  return [...new Set(texts)];
}

/** A question's own options: as {@link optionTexts}, each cut to 200 characters, at most 24. */
export function normalizeOptions(raw: unknown): string[] {
  const cut = optionTexts(raw).map((text) => text.slice(0, FORM_LIMITS.textLength).trimEnd());
  return [...new Set(cut)].slice(0, FORM_LIMITS.options);
}

/** `required` as models write it: true, 1, "true", "yes" and "1" mean required; anything else does not. */
export function isRequired(value: unknown): boolean {
  if (value === true || value === 1) return true;
  return typeof value === "string" && ["true", "yes", "1"].includes(value.trim().toLowerCase());
}

function fieldType(value: unknown): HumanInputFieldType {
  const type =
    typeof value === "string"
      ? value
          .trim()
          .toLowerCase()
          .replace(/[\s-]+/g, "_")
      : "";
  return (HUMAN_INPUT_FIELD_TYPES as readonly string[]).includes(type) ? (type as HumanInputFieldType) : "text";
}

/** Optional text of a field: absent (undefined/null/blank) → "", a string → tags stripped; else undefined (invalid). */
function optionalText(value: unknown): string | undefined {
  if (value === undefined || value === null) return "";
  return typeof value === "string" ? stripTags(value) : undefined;
}

function toOptions(texts: readonly string[], idPrefix: string): HumanInputOption[] {
  return texts.map((text, index) => ({ id: `${idPrefix}option-${index + 1}`, label: text, value: text }));
}

/** One field, or undefined when the entry breaks a rule (which drops the whole form). */
function normalizeField(entry: unknown, seen: Set<string>): HumanInputField | undefined {
  if (typeof entry !== "object" || entry === null || Array.isArray(entry)) return undefined;
  const raw = entry as Record<string, unknown>;
  const name = typeof raw.name === "string" ? raw.name.trim() : "";
  if (name.length === 0 || name.length > FORM_LIMITS.textLength || isReservedFieldName(name) || seen.has(name)) {
    return undefined;
  }
  seen.add(name);
  const label = optionalText(raw.label);
  const placeholder = optionalText(raw.placeholder);
  if (label === undefined || placeholder === undefined) return undefined;
  if (label.length > FORM_LIMITS.textLength || placeholder.length > FORM_LIMITS.textLength) return undefined;
  const options = optionTexts(raw.options);
  if (options.length > FORM_LIMITS.options || options.some((text) => text.length > FORM_LIMITS.textLength)) {
    return undefined;
  }
  let type = fieldType(raw.type);
  const choice = type === "select" || type === "multi_select";
  if (choice && options.length === 0) type = "text";
  return {
    name,
    label: label || name,
    type,
    required: isRequired(raw.required),
    ...(choice && options.length > 0 && { options: toOptions(options, `${name}-`) }),
    ...(placeholder.length > 0 && { placeholder }),
  };
}

/**
 * The form's fields, or undefined when there is no form or it breaks a rule: not a list of objects, more than 16
 * fields or 24 options to a field, a name, label, placeholder or option over 200 characters, a missing, repeated
 * or reserved (Object.prototype) name, or more than 16 KB as JSON. Unknown types, and choices without options,
 * become `text`.
 */
export function normalizeFields(raw: unknown): HumanInputField[] | undefined {
  let value = parseJsonString(raw);
  if (typeof value === "object" && value !== null && !Array.isArray(value) && "name" in value) value = [value];
  if (!Array.isArray(value) || value.length === 0 || value.length > FORM_LIMITS.fields) return undefined;
  const seen = new Set<string>();
  const fields: HumanInputField[] = [];
  for (const entry of value) {
    const field = normalizeField(entry, seen);
    if (!field) return undefined;
    fields.push(field);
  }
  const bytes = new TextEncoder().encode(JSON.stringify(fields)).length;
  return bytes > FORM_LIMITS.bytes ? undefined : fields;
}

function clarificationType(value: unknown): ClarificationType {
  const type = typeof value === "string" ? value.trim().toLowerCase() : "";
  return (CLARIFICATION_TYPES as readonly string[]).includes(type) ? (type as ClarificationType) : "missing_info";
}

function contextText(value: unknown): string {
  if (value === undefined || value === null) return "";
  return (typeof value === "string" ? value : flattenTexts(value).join(" ")).trim();
}

/**
 * The request for ask_clarification's arguments: a form (version 2) when the fields are valid, which takes
 * precedence over options; else a choice among the options with room for another answer; else free text.
 * An unknown clarification type counts as `missing_info`.
 */
export function humanInputRequest(
  args: ClarificationArgs,
  ids: { requestId: string; toolCallId?: string | undefined },
): HumanInputRequest {
  const context = contextText(args.context);
  const base = {
    kind: "human_input_request" as const,
    source: "ask_clarification" as const,
    request_id: ids.requestId,
    ...(ids.toolCallId !== undefined && { tool_call_id: ids.toolCallId }),
    clarification_type: clarificationType(args.clarification_type),
    question: args.question.trim(),
    ...(context.length > 0 && { context }),
  };
  const fields = normalizeFields(args.fields);
  if (fields) return { version: 2, ...base, input_mode: "form", fields };
  const options = normalizeOptions(args.options);
  if (options.length === 0) return { version: 1, ...base, input_mode: "free_text" };
  return { version: 1, ...base, input_mode: "choice_with_other", options: toOptions(options, "") };
}

function fieldLine(field: HumanInputField, index: number): string {
  const required = field.required ? " (required)" : "";
  const options = field.options ? ` — options: ${field.options.map((option) => option.label).join(" / ")}` : "";
  const multiple = field.type === "multi_select" ? " (multiple allowed)" : "";
  return `  ${index + 1}. ${field.label}${required}${options}${multiple}`;
}

/**
 * The request as text, for the model and for any reader without the card: the type's icon with the context then
 * the question (or the icon with the question), then numbered options, or numbered fields and a request to fill
 * them in.
 */
export function humanInputText(request: HumanInputRequest): string {
  const icon = ICONS[request.clarification_type];
  const head = request.context ? `${icon} ${request.context}\n\n${request.question}` : `${icon} ${request.question}`;
  if (request.input_mode === "form") {
    const lines = request.fields.map(fieldLine).join("\n");
    return `${head}\n\n${lines}\n\nPlease reply with a value for each field.`;
  }
  if (!request.options) return head;
  return `${head}\n\n${request.options.map((option, index) => `  ${index + 1}. ${option.label}`).join("\n")}`;
}
