// `/skill-name task`: the skill the user named is loaded for that message. Its SKILL.md goes to the model as a
// hidden message just before the user's message, in every model call of the run (never into the thread's state).
import type { BaseMessage } from "@langchain/core/messages";
import { createMiddleware } from "langchain";
import { hiddenMessage, isUserMessage } from "../hidden-messages.ts";

/** The request's messages with `activation` placed just before the user's latest message (read first, as context). */
export function withSkillActivation(messages: readonly BaseMessage[], activation: string): BaseMessage[] {
  const at = messages.findLastIndex(isUserMessage);
  const hidden = hiddenMessage(activation);
  return at < 0 ? [...messages, hidden] : [...messages.slice(0, at), hidden, ...messages.slice(at)];
}

/** Adds the activation text (see agent/skills `slashSkillActivation`) to each model call of this run. */
export function skillActivationMiddleware(activation: string) {
  return createMiddleware({
    name: "SkillActivationMiddleware",
    wrapModelCall: (request, handler) =>
      handler({ ...request, messages: withSkillActivation(request.messages, activation) }),
  });
}
