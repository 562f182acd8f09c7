// Messages for the model only: reminders and context the middlewares add to a request. The user never wrote them
// and never sees them, so they do not count as the user's turn.
import { HumanMessage, type BaseMessage, type MessageContent } from "@langchain/core/messages";

/** Messages with `additional_kwargs[HIDDEN_MESSAGE_KWARG] === true` are for the model only. */
export const HIDDEN_MESSAGE_KWARG = "fawn_hidden";

/** A human message the model reads and the user never sees. */
export function hiddenMessage(content: MessageContent): HumanMessage {
  return new HumanMessage({ content, additional_kwargs: { [HIDDEN_MESSAGE_KWARG]: true } });
}

/** True for a message the user never wrote or sees: reminders and context injected for the model. */
export function isHiddenMessage(message: BaseMessage): boolean {
  return message.additional_kwargs?.[HIDDEN_MESSAGE_KWARG] === true;
}

/** True for a message the user wrote. */
export function isUserMessage(message: BaseMessage): boolean {
  return message.type === "human" && !isHiddenMessage(message);
}
