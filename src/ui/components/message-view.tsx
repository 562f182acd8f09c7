// One message of the conversation: the user's text, or the assistant's Markdown with its reasoning and tool steps.
import { createMemo, For, Match, Show, Switch } from "solid-js";
import { contentText, type AiWireMessage, type ToolWireMessage, type WireMessage } from "../../protocol/index.ts";
import { renderMarkdown } from "../markdown.ts";

function Markdown(props: { source: string }) {
  const html = createMemo(() => renderMarkdown(props.source));
  return <div class="markdown" innerHTML={html()} />;
}

function AssistantMessage(props: { message: AiWireMessage; streaming?: boolean; stopped?: boolean }) {
  const text = () => contentText(props.message.content);
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
      <Show when={props.message.tool_calls?.length}>
        <ul class="tool-calls" aria-label="Tool calls">
          <For each={props.message.tool_calls}>
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

export function MessageView(props: { message: WireMessage; streaming?: boolean; stopped?: boolean }) {
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
        />
      </Match>
      <Match when={props.message.type === "tool"}>
        <ToolResult message={props.message as ToolWireMessage} />
      </Match>
    </Switch>
  );
}
