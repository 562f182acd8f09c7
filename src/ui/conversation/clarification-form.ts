// The Clarification card's logic, free of the DOM: which request a tool result asks, what a form still lacks, and
// the reply the user's answer becomes (the thread's next message, which is what the model reads).
import {
  contentText,
  humanInputRequestOf,
  type HumanInputField,
  type HumanInputFormRequest,
  type HumanInputOption,
  type HumanInputRequest,
  type ToolWireMessage,
} from "../../protocol/index.ts";

/** A field's value as its control holds it: text (also numbers and dates), the options ticked, or a tick. */
export type FieldValue = string | readonly string[] | boolean;

/** A form's values by field name. A Map, so no field name can reach Object.prototype. */
export type FormValues = ReadonlyMap<string, FieldValue>;

/** What the user answered: an option, their own words, or a filled-in form. */
export type HumanInputAnswer =
  { kind: "option"; option: HumanInputOption } | { kind: "text"; text: string } | { kind: "form"; values: FormValues };

/**
 * The request an ask_clarification result asks: its `artifact.human_input`, or, for a result without one (threads
 * from before it existed), a free-text question made of the result's text.
 */
export function requestOfToolMessage(message: ToolWireMessage): HumanInputRequest {
  return (
    humanInputRequestOf(message.artifact) ?? {
      version: 1,
      kind: "human_input_request",
      source: "ask_clarification",
      request_id: `clarification:${message.tool_call_id}`,
      tool_call_id: message.tool_call_id,
      clarification_type: "missing_info",
      question: contentText(message.content),
      input_mode: "free_text",
    }
  );
}

/** Every field empty: text "", nothing ticked; a checkbox starts as an explicit "no". */
export function emptyFormValues(request: HumanInputFormRequest): Map<string, FieldValue> {
  return new Map(
    request.fields.map((field): [string, FieldValue] => [
      field.name,
      field.type === "multi_select" ? [] : field.type === "checkbox" ? false : "",
    ]),
  );
}

/** The value as the answer spells it: trimmed text, ticked options joined by ", ", a tick as "yes" or "no". */
export function fieldValueText(field: HumanInputField, value: FieldValue | undefined): string {
  if (field.type === "checkbox") return value === true ? "yes" : "no";
  if (Array.isArray(value)) return value.join(", ");
  return typeof value === "string" ? value.trim() : "";
}

/** Why the field's value cannot be sent yet, or undefined when it can. */
export function fieldProblem(field: HumanInputField, value: FieldValue | undefined): string | undefined {
  const text = fieldValueText(field, value);
  if (field.type === "checkbox") return undefined;
  if (text.length === 0) return field.required ? `${field.label} is required.` : undefined;
  if (field.type === "number" && !Number.isFinite(Number(text))) return `${field.label} must be a number.`;
  if (field.type === "date" && !/^\d{4}-\d{2}-\d{2}$/.test(text)) return `${field.label} must be a date.`;
  const choices = new Set(field.options?.map((option) => option.value));
  if (field.type === "select" && !choices.has(text)) return `Choose one of the options for ${field.label}.`;
  const ticked: readonly string[] = Array.isArray(value) ? value : [];
  if (field.type === "multi_select" && ticked.some((item) => !choices.has(item))) {
    return `Choose among the options for ${field.label}.`;
  }
  return undefined;
}

/** The form's problems by field name, in field order; empty when it can be sent. */
export function formProblems(request: HumanInputFormRequest, values: FormValues): Map<string, string> {
  const problems = new Map<string, string>();
  for (const field of request.fields) {
    const problem = fieldProblem(field, values.get(field.name));
    if (problem) problems.set(field.name, problem);
  }
  return problems;
}

/** The form as one readable line, `Label: value; Label2: value2`, leaving out optional fields left empty. */
export function formSummary(request: HumanInputFormRequest, values: FormValues): string {
  return request.fields
    .map((field) => [field.label, fieldValueText(field, values.get(field.name))] as const)
    .filter(([, text]) => text.length > 0)
    .map(([label, text]) => `${label}: ${text}`)
    .join("; ");
}

/** The message that answers `question` with `value`. */
export function clarificationReplyText(question: string, value: string): string {
  return `For your clarification "${question}", my answer is: ${value}`;
}

/** The answer `text` gives to `question`, or undefined when it does not answer that question. */
export function clarificationAnswerIn(text: string, question: string): string | undefined {
  const prefix = clarificationReplyText(question, "");
  return text.startsWith(prefix) ? text.slice(prefix.length) : undefined;
}

/**
 * The reply to send for `answer`: the message text the model reads. An answer with nothing in it (blank words, a form
 * that still has problems or no value at all) has no reply.
 */
export function humanInputReply(request: HumanInputRequest, answer: HumanInputAnswer): string | undefined {
  let value: string;
  if (answer.kind === "option") value = answer.option.value;
  else if (answer.kind === "text") value = answer.text.trim();
  else if (request.input_mode !== "form" || formProblems(request, answer.values).size > 0) return undefined;
  else value = formSummary(request, answer.values);
  return value.length === 0 ? undefined : clarificationReplyText(request.question, value);
}

/**
 * How the conversation answered `request`, given the first user message after it (undefined when there is none
 * yet): the value of a reply made with the card, or the words of any other message, which answers it too.
 */
export function answerOf(request: HumanInputRequest, nextUserText: string | undefined): string | undefined {
  if (nextUserText === undefined) return undefined;
  return clarificationAnswerIn(nextUserText, request.question) ?? nextUserText;
}
