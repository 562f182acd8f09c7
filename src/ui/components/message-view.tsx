// One message of the conversation: the user's text, or the assistant's Markdown with its reasoning and tool steps.
import { createMemo, createSignal, For, Match, Show, Switch } from "solid-js";
import { contentText, type AiWireMessage, type ToolWireMessage, type WireMessage } from "../../protocol/index.ts";
import { renderMarkdown } from "../markdown.ts";

function Markdown(props: { source: string }) {
  const html = createMemo(() => renderMarkdown(props.source));
  return <div class="markdown" innerHTML={html()} />;
}

const CLARIFICATION_TOOL = "ask_clarification";

/** The agent's question (ask_clarification): options as buttons, or the user's own words. */
function ClarificationCard(props: { args: Record<string, unknown>; onAnswer?: ((text: string) => void) | undefined }) {
  const [answer, setAnswer] = createSignal("");
  const question = () => (typeof props.args.question === "string" ? props.args.question : "");
  const context = () => (typeof props.args.context === "string" ? props.args.context : "");
  const options = () =>
    Array.isArray(props.args.options)
      ? [...new Set(props.args.options.filter((option): option is string => typeof option === "string"))]
      : [];
  return (
    <div class="clarification" role="group" aria-label="Clarification">
      <Show when={context()}>
        <p class="clarification-context">{context()}</p>
      </Show>
      <p class="clarification-question">{question()}</p>
      <Show when={options().length > 0}>
        <div class="clarification-options">
          <For each={options()}>
            {(option) => (
              <button type="button" class="chip" disabled={!props.onAnswer} onClick={() => props.onAnswer?.(option)}>
                {option}
              </button>
            )}
          </For>
        </div>
      </Show>
      <Show when={props.onAnswer}>
        <form
          class="clarification-answer"
          onSubmit={(event) => {
            event.preventDefault();
            const text = answer().trim();
            if (text) props.onAnswer?.(text);
          }}
        >
          <input
            type="text"
            aria-label="Your answer"
            placeholder={options().length > 0 ? "Or write your own answer" : "Your answer"}
            value={answer()}
            onInput={(event) => setAnswer(event.currentTarget.value)}
          />
          <button type="submit" class="primary">
            Answer
          </button>
        </form>
      </Show>
    </div>
  );
}

function AssistantMessage(props: {
  message: AiWireMessage;
  streaming?: boolean;
  stopped?: boolean;
  onAnswer?: ((text: string) => void) | undefined;
}) {
  const text = () => contentText(props.message.content);
  const clarification = () => props.message.tool_calls?.find((call) => call.name === CLARIFICATION_TOOL);
  const otherCalls = () => props.message.tool_calls?.filter((call) => call.name !== CLARIFICATION_TOOL) ?? [];
  return (
    <article class="message assistant" aria-label="Assistant message" aria-busy={props.streaming ? "true" : "false"}>
      <Show when={props.message.reasoning}>
        {(reasoning) => (
          <details class="reasoning" open={props.streaming && text().length === 0}>
            <summary>Reasoning</summary>
            <div class="reasoning-text">{reasoning()}</div>
          </details>
        )}
      </Show>
      <Show
        when={text().length > 0}
        fallback={
          <Show when={props.streaming}>
            <span class="typing" aria-label="Thinking" />
          </Show>
        }
      >
        <Markdown source={text()} />
      </Show>
      <Show when={clarification()}>{(call) => <ClarificationCard args={call().args} onAnswer={props.onAnswer} />}</Show>
      <Show when={otherCalls().length > 0}>
        <ul class="tool-calls" aria-label="Tool calls">
          <For each={otherCalls()}>
            {(call) => (
              <li>
                <span class="tool-name">{call.name}</span> <code>{JSON.stringify(call.args)}</code>
              </li>
            )}
          </For>
        </ul>
      </Show>
      <Show when={props.stopped}>
        <p class="stopped-note">Stopped</p>
      </Show>
    </article>
  );
}

function ToolResult(props: { message: ToolWireMessage }) {
  return (
    <details class="tool-result">
      <summary>
        {props.message.status === "error" ? "Tool failed" : "Tool result"}:{" "}
        {props.message.name ?? props.message.tool_call_id}
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
}) {
  return (
    <Switch>
      <Match when={props.message.type === "human"}>
        <article class="message user" aria-label="User message">
          <p class="user-text">{contentText(props.message.content)}</p>
        </article>
      </Match>
      <Match when={props.message.type === "ai"}>
        <AssistantMessage
          message={props.message as AiWireMessage}
          streaming={props.streaming}
          stopped={props.stopped}
          onAnswer={props.onAnswer}
        />
      </Match>
      <Match when={props.message.type === "tool" && (props.message as ToolWireMessage).name !== CLARIFICATION_TOOL}>
        <ToolResult message={props.message as ToolWireMessage} />
      </Match>
    </Switch>
  );
}
