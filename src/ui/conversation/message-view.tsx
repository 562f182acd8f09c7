// One message of the conversation: the user's text, or the assistant's Markdown with its reasoning, tool steps and
// subtask cards.
import { createMemo, For, Match, Show, Switch } from "solid-js";
import {
  CLARIFICATION_TOOL_NAME,
  contentText,
  type AiWireMessage,
  type HumanWireMessage,
  type ToolWireMessage,
  type UsageMetadata,
  type WireMessage,
} from "../../protocol/index.ts";
import { requestOfToolMessage } from "./clarification-form.ts";
import { formatBytes, t } from "../i18n/index.ts";
import { formatTokens, usageDetail } from "./message-usage.ts";
import { subtaskOfCall, TASK_TOOL_NAME, type Subtasks } from "../state/subtasks.ts";
import type { ToolResults } from "./tool-step-content.ts";
import { ClarificationCard } from "./clarification-card.tsx";
import { SubtaskCards } from "./subtask-cards.tsx";
import { Markdown } from "../markdown/lazy-markdown.tsx";
import { ToolSteps } from "./tool-steps.tsx";
import { EditableUserText, MessageActionBar, type MessageActions } from "./message-actions.tsx";
import { CopyMessageButton } from "./copy-message-button.tsx";

const NO_RESULTS: ToolResults = new Map();

function AssistantMessage(props: {
  message: AiWireMessage;
  streaming?: boolean | undefined;
  stopped?: boolean | undefined;
  subtasks?: Subtasks | undefined;
  toolResults?: ToolResults | undefined;
  awaited?: ReadonlySet<string> | undefined;
  actions?: MessageActions | undefined;
  usage?: UsageMetadata | undefined;
}) {
  const text = () => contentText(props.message.content);
  // The question shows as a Clarification card with the tool's result (below), which carries its request; each
  // `task` call shows as a subtask card.
  const otherCalls = () =>
    props.message.tool_calls?.filter((call) => call.name !== CLARIFICATION_TOOL_NAME && call.name !== TASK_TOOL_NAME) ??
    [];
  const subtasks = createMemo(() =>
    (props.message.tool_calls ?? [])
      .filter((call) => call.name === TASK_TOOL_NAME)
      .map((call) => props.subtasks?.get(call.id) ?? subtaskOfCall(call)),
  );
  // A finished message that only called ask_clarification has nothing to show but its card.
  const onlyAsks = () =>
    !props.streaming &&
    !props.stopped &&
    !props.message.reasoning &&
    text().length === 0 &&
    otherCalls().length === 0 &&
    subtasks().length === 0 &&
    (props.message.tool_calls?.length ?? 0) > 0;
  return (
    <Show when={!onlyAsks()}>
      <article
        class="message assistant"
        aria-label={t("conversation.assistantMessage")}
        aria-busy={props.streaming ? "true" : "false"}
      >
        <Show when={props.message.reasoning}>
          {(reasoning) => (
            <details class="reasoning" open={props.streaming && text().length === 0}>
              <summary>{t("message.reasoning")}</summary>
              <div class="reasoning-text">{reasoning()}</div>
            </details>
          )}
        </Show>
        <Show
          when={text().length > 0}
          fallback={
            <Show when={props.streaming}>
              <span class="typing" role="img" aria-label={t("conversation.thinking")} />
            </Show>
          }
        >
          <Markdown source={text()} />
        </Show>
        <SubtaskCards subtasks={subtasks()} live={props.streaming === true} />
        <Show when={otherCalls().length > 0}>
          <ToolSteps
            calls={otherCalls()}
            results={props.toolResults ?? NO_RESULTS}
            streaming={props.streaming === true}
            awaited={props.awaited}
          />
        </Show>
        <Show when={props.stopped}>
          <p class="stopped-note">{t("message.stopped")}</p>
        </Show>
        <Show when={!props.streaming && (props.actions || text().length > 0)}>
          <MessageActionBar actions={props.actions ?? {}}>
            <Show when={text().length > 0}>
              <CopyMessageButton content={props.message.content} />
            </Show>
          </MessageActionBar>
        </Show>
      </article>
      {/* Beside the article, not in it: the message's text stays the model's alone. */}
      <Show when={props.usage}>
        {(usage) => (
          <p class="token-usage" title={usageDetail(usage())}>
            {formatTokens(usage().total_tokens)}
          </p>
        )}
      </Show>
    </Show>
  );
}

function ToolResult(props: { message: ToolWireMessage }) {
  return (
    <details class="tool-result">
      <summary>
        {t(props.message.status === "error" ? "message.toolFailed" : "message.toolResult", {
          tool: props.message.name ?? props.message.tool_call_id,
        })}
      </summary>
      <pre>{contentText(props.message.content)}</pre>
    </details>
  );
}

export function MessageView(props: {
  message: WireMessage;
  streaming?: boolean;
  stopped?: boolean;
  /** Answers a clarification this message asks, when it may still be answered. */
  onAnswer?: ((text: string) => void) | undefined;
  /** How a later message answered the clarification this message asks. */
  answer?: string | undefined;
  /** The conversation's subtasks by `task` call id: an AI message shows a card for each of its `task` calls. */
  subtasks?: Subtasks | undefined;
  /**
   * The conversation's tool results by call id, and the ids of the calls its messages make: a call shows as a step
   * with its result, and a result whose call is shown is not shown again on its own.
   */
  tools?: { results: ToolResults; calls: ReadonlySet<string>; awaited?: ReadonlySet<string> } | undefined;
  /** Edit, Regenerate and versions; absent for the live run's messages and in threads that take no message. */
  actions?: MessageActions | undefined;
  /** What the answer this message ends cost: shown after it (only an answer's last message has it). */
  usage?: UsageMetadata | undefined;
}) {
  // A `task` result shows on its subtask card, and any other result on its call's step, not on its own.
  const shownElsewhere = () => {
    const message = props.message;
    return (
      message.type === "tool" &&
      (message.name === TASK_TOOL_NAME ||
        props.subtasks?.has(message.tool_call_id) ||
        props.tools?.calls.has(message.tool_call_id))
    );
  };
  return (
    <Switch>
      <Match when={props.message.type === "human"}>
        <article class="message user" aria-label={t("message.user")}>
          <Show when={(props.message as HumanWireMessage).files}>
            {(files) => (
              <ul class="message-files" aria-label={t("message.files")}>
                <For each={files()}>
                  {(file) => (
                    <li class="chip" title={file.virtual_path}>
                      <span>{file.filename}</span> <span class="size">{formatBytes(file.size)}</span>
                    </li>
                  )}
                </For>
              </ul>
            )}
          </Show>
          <EditableUserText text={contentText(props.message.content)} actions={props.actions} />
        </article>
      </Match>
      <Match when={props.message.type === "ai"}>
        <AssistantMessage
          message={props.message as AiWireMessage}
          streaming={props.streaming}
          stopped={props.stopped}
          subtasks={props.subtasks}
          toolResults={props.tools?.results}
          awaited={props.tools?.awaited}
          actions={props.actions}
          usage={props.usage}
        />
      </Match>
      <Match
        when={props.message.type === "tool" && (props.message as ToolWireMessage).name === CLARIFICATION_TOOL_NAME}
      >
        <article class="message assistant" aria-label={t("conversation.assistantMessage")}>
          <ClarificationCard
            request={requestOfToolMessage(props.message as ToolWireMessage)}
            answer={props.answer}
            onAnswer={props.onAnswer}
          />
        </article>
      </Match>
      <Match when={props.message.type === "tool" && !shownElsewhere()}>
        <ToolResult message={props.message as ToolWireMessage} />
      </Match>
    </Switch>
  );
}
