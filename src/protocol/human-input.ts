// The agent's questions to the user (ask_clarification) as plain data: the request a tool result carries in its
// `artifact.human_input`.

/** The tool the agent asks with; its result carries the request as `artifact.human_input`. */
export const CLARIFICATION_TOOL_NAME = "ask_clarification";

/** Why the agent asks; each has its own icon in the question's text. */
export const CLARIFICATION_TYPES = [
  "missing_info",
  "ambiguous_requirement",
  "approach_choice",
  "risk_confirmation",
  "suggestion",
] as const;

export type ClarificationType = (typeof CLARIFICATION_TYPES)[number];

/** The controls a form field can be. */
export const HUMAN_INPUT_FIELD_TYPES = [
  "text",
  "textarea",
  "number",
  "select",
  "multi_select",
  "checkbox",
  "date",
] as const;

export type HumanInputFieldType = (typeof HUMAN_INPUT_FIELD_TYPES)[number];

/** One choice; `label` is what the user sees, `value` what the answer says (the same text today). */
export interface HumanInputOption {
  /** `option-<n>` for a question's options, `<field name>-option-<n>` for a field's; n counts from 1. */
  id: string;
  label: string;
  value: string;
}

export interface HumanInputField {
  /** Unique in its form; never a name Object.prototype has (`constructor`, `__proto__`, …). */
  name: string;
  label: string;
  type: HumanInputFieldType;
  required: boolean;
  /** Only for `select` and `multi_select`, and never empty there. */
  options?: HumanInputOption[];
  placeholder?: string;
}

interface HumanInputRequestBase {
  kind: "human_input_request";
  source: "ask_clarification";
  /** `clarification:<tool_call_id>`: the same question retried keeps its id. */
  request_id: string;
  tool_call_id?: string;
  clarification_type: ClarificationType;
  question: string;
  context?: string;
}

/** A question answered in words (`free_text`), or by picking an option or writing another answer. */
export interface HumanInputChoiceRequest extends HumanInputRequestBase {
  version: 1;
  input_mode: "free_text" | "choice_with_other";
  /** Present, and not empty, exactly when `input_mode` is `choice_with_other`. */
  options?: HumanInputOption[];
}

/** A question answered by filling in typed fields. */
export interface HumanInputFormRequest extends HumanInputRequestBase {
  version: 2;
  input_mode: "form";
  fields: HumanInputField[];
}

export type HumanInputRequest = HumanInputChoiceRequest | HumanInputFormRequest;

const RESERVED_FIELD_NAMES = new Set(["prototype", ...Object.getOwnPropertyNames(Object.prototype)]);

/** Names no field may have: Object.prototype's own (`__proto__`, `constructor`, `toString`, …) and `prototype`. */
export function isReservedFieldName(name: string): boolean {
  return RESERVED_FIELD_NAMES.has(name);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isOptionalString(value: unknown): boolean {
  return value === undefined || typeof value === "string";
}

function isOptionList(value: unknown): value is HumanInputOption[] {
  return (
    Array.isArray(value) &&
    value.length > 0 &&
    value.every(
      (option) =>
        isRecord(option) &&
        typeof option.id === "string" &&
        typeof option.label === "string" &&
        typeof option.value === "string",
    )
  );
}

function isField(value: unknown): value is HumanInputField {
  if (!isRecord(value)) return false;
  const { name, label, type, required, options, placeholder } = value;
  return (
    typeof name === "string" &&
    name.length > 0 &&
    !isReservedFieldName(name) &&
    typeof label === "string" &&
    (HUMAN_INPUT_FIELD_TYPES as readonly unknown[]).includes(type) &&
    typeof required === "boolean" &&
    (type === "select" || type === "multi_select" ? isOptionList(options) : options === undefined) &&
    isOptionalString(placeholder)
  );
}

/**
 * The request a tool result's `artifact` carries under `human_input`, or undefined when it carries none or a
 * malformed one (stored data is read as untrusted).
 */
export function humanInputRequestOf(artifact: unknown): HumanInputRequest | undefined {
  const request = isRecord(artifact) ? artifact.human_input : undefined;
  if (!isRecord(request)) return undefined;
  const base =
    request.kind === "human_input_request" &&
    request.source === "ask_clarification" &&
    typeof request.request_id === "string" &&
    isOptionalString(request.tool_call_id) &&
    (CLARIFICATION_TYPES as readonly unknown[]).includes(request.clarification_type) &&
    typeof request.question === "string" &&
    isOptionalString(request.context);
  if (!base) return undefined;
  if (request.version === 1 && request.input_mode === "free_text" && request.options === undefined) {
    return request as unknown as HumanInputChoiceRequest;
  }
  if (request.version === 1 && request.input_mode === "choice_with_other" && isOptionList(request.options)) {
    return request as unknown as HumanInputChoiceRequest;
  }
  if (request.version === 2 && request.input_mode === "form" && Array.isArray(request.fields)) {
    const fields: unknown[] = request.fields;
    const names = new Set(fields.map((field) => (isRecord(field) ? field.name : undefined)));
    if (fields.length > 0 && fields.every(isField) && names.size === fields.length) {
      return request as unknown as HumanInputFormRequest;
    }
  }
  return undefined;
}
