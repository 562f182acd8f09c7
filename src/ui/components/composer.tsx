// The composer: the message box, Send, and Stop while a run is active. Enter sends; Shift+Enter adds a line.
import { createSignal, Show } from "solid-js";
import type { AppState } from "../app-state.ts";

export function Composer(props: { state: AppState }) {
  const [text, setText] = createSignal("");
  let box!: HTMLTextAreaElement;
  const running = () => Boolean(props.state.run());

  const submit = () => {
    const value = text();
    if (value.trim().length === 0 || running()) return;
    setText("");
    box.style.height = "";
    void props.state.send(value);
  };

  const onKeyDown = (event: KeyboardEvent) => {
    // While an IME composes (Chinese, Japanese…), Enter confirms the composition and must not send.
    if (event.key !== "Enter" || event.shiftKey || event.isComposing || event.keyCode === 229) return;
    event.preventDefault();
    submit();
  };

  const onInput = (event: InputEvent & { currentTarget: HTMLTextAreaElement }) => {
    setText(event.currentTarget.value);
    box.style.height = "";
    box.style.height = `${Math.min(box.scrollHeight, 240)}px`;
  };

  return (
    <form
      class="composer"
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <textarea
        ref={box}
        id="composer-input"
        aria-label="Message"
        placeholder="Ask anything…  (Enter to send, Shift+Enter for a new line)"
        rows={1}
        value={text()}
        onInput={onInput}
        onKeyDown={onKeyDown}
      />
      <Show
        when={running()}
        fallback={
          <button type="submit" class="primary" disabled={text().trim().length === 0}>
            Send
          </button>
        }
      >
        <button type="button" class="danger" onClick={() => void props.state.stop()}>
          Stop
        </button>
      </Show>
    </form>
  );
}
