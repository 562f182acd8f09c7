// How a conversation's messages group into answers, free of the DOM: an answer is what the agent said after one user
// message (its model steps and tool results); it ends with one Regenerate and one token count, the sum of its steps.
// A user message that only carries a Clarification card's answer to the model is not shown: the card shows it.
import {
  CLARIFICATION_TOOL_NAME,
  contentText,
  type ThreadEntry,
  type ToolWireMessage,
  type UsageMetadata,
  type WireMessage,
} from "../../protocol/index.ts";
import { clarificationAnswerIn, requestOfToolMessage } from "./clarification-form.ts";
import { sumUsage } from "./message-usage.ts";

function messagesOf(entries: readonly ThreadEntry[]): WireMessage[] {
  return entries.flatMap((entry) => (entry.kind === "message" ? [entry.message] : []));
}

/**
 * Each answer's cost, by the id of its last AI message: the sum of its AI messages' usage. Answers whose provider
 * reported nothing have no entry. An answer runs from one user message to the next.
 */
export function answerUsages(messages: readonly WireMessage[]): Map<string, UsageMetadata> {
  const usages = new Map<string, UsageMetadata>();
  let answer: WireMessage[] = [];
  const close = () => {
    const last = answer.findLast((message) => message.type === "ai");
    const usage = sumUsage(answer);
    if (last && usage) usages.set(last.id, usage);
    answer = [];
  };
  for (const message of messages) {
    if (message.type === "human") close();
    else answer.push(message);
  }
  close();
  return usages;
}

/** The question of the clarification `message` asks, if it is one. */
function questionOf(message: WireMessage): string | undefined {
  return message.type === "tool" && message.name === CLARIFICATION_TOOL_NAME
    ? requestOfToolMessage(message as ToolWireMessage).question
    : undefined;
}

/** The latest clarification question before any user message after it, or undefined (none, or answered already). */
function openQuestion(messages: readonly WireMessage[]): string | undefined {
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index]!;
    if (message.type === "human") return undefined;
    const question = questionOf(message);
    if (question !== undefined) return question;
  }
  return undefined;
}

/**
 * The ids of the user messages that carry a Clarification card's answer ("For your clarification …, my answer is: …",
 * right after the question): the model reads them, the conversation shows the answer on the card instead.
 */
export function clarificationCarriers(entries: readonly ThreadEntry[]): Set<string> {
  const carriers = new Set<string>();
  let question: string | undefined;
  for (const message of messagesOf(entries)) {
    if (message.type === "human") {
      if (question !== undefined && clarificationAnswerIn(contentText(message.content), question) !== undefined) {
        carriers.add(message.id);
      }
      question = undefined;
    } else question = questionOf(message) ?? question;
  }
  return carriers;
}

/** Whether `text`, about to be sent after `entries`, carries the answer to the clarification they end with. */
export function carriesClarificationAnswer(entries: readonly ThreadEntry[], text: string): boolean {
  const question = openQuestion(messagesOf(entries));
  return question !== undefined && clarificationAnswerIn(text, question) !== undefined;
}

/** The ids of the calls `messages` answer: in a replay, the calls whose results a later step shows. */
export function answeredCallIds(messages: Iterable<WireMessage>): Set<string> {
  const ids = new Set<string>();
  for (const message of messages) if (message.type === "tool") ids.add(message.tool_call_id);
  return ids;
}

/**
 * The calls of the last model step that have no result yet: in a cut-off reply, the calls "Continue" runs (they wait
 * for their results; none of them failed).
 */
export function unansweredLastCalls(messages: readonly WireMessage[]): Set<string> {
  const index = messages.findLastIndex((message) => message.type === "ai");
  const step = messages[index];
  if (step?.type !== "ai" || messages.slice(index + 1).some((message) => message.type !== "tool")) return new Set();
  const answered = answeredCallIds(messages.slice(index + 1));
  return new Set((step.tool_calls ?? []).map((call) => call.id).filter((id) => !answered.has(id)));
}
