// The composer: the message box, the Mode, the model, attached files, Send, and Stop while a run is active.
// Enter sends; Shift+Enter adds a line. Files are checked against the upload limits when chosen and uploaded when
// the message is sent.
import { createSignal, For, Show } from "solid-js";
import { AGENT_MODES, uploadLimitProblem, type AgentMode } from "../../protocol/index.ts";
import { formatBytes } from "../../shared/text.ts";
import type { AppState } from "../app-state.ts";

const MODE_INFO: Record<AgentMode, { name: string; hint: string }> = {
  flash: { name: "Flash", hint: "Fast answers, no reasoning or plan" },
  thinking: { name: "Thinking", hint: "Reasons before answering (models marked Thinking)" },
  pro: { name: "Pro", hint: "Reasons and keeps a plan of the steps" },
  ultra: { name: "Ultra", hint: "Reasons, plans, and may split work among subagents" },
};

export function Composer(props: { state: AppState }) {
  const [text, setText] = createSignal("");
  const [files, setFiles] = createSignal<File[]>([]);
  const [sending, setSending] = createSignal(false);
  let box!: HTMLTextAreaElement;
  let picker!: HTMLInputElement;
  const running = () => Boolean(props.state.run()) || sending();

  const attach = (chosen: readonly File[]) => {
    if (chosen.length === 0) return;
    const next = [...files(), ...chosen];
    const problem = uploadLimitProblem(next);
    if (problem) {
      props.state.setNotice(`${problem} Nothing was attached.`);
      return;
    }
    setFiles(next);
  };

  const submit = async () => {
    const value = text();
    if (value.trim().length === 0 || running()) return;
    const attached = files();
    setSending(true);
    try {
      const sent = await props.state.sendWithFiles(value, attached);
      if (!sent) return;
      setText("");
      setFiles([]);
      box.style.height = "";
    } finally {
      setSending(false);
    }
  };

  const onKeyDown = (event: KeyboardEvent) => {
    // While an IME composes (Chinese, Japanese…), Enter confirms the composition and must not send.
    if (event.key !== "Enter" || event.shiftKey || event.isComposing || event.keyCode === 229) return;
    event.preventDefault();
    void submit();
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
        void submit();
      }}
      onDragOver={(event) => event.preventDefault()}
      onDrop={(event) => {
        event.preventDefault();
        attach([...(event.dataTransfer?.files ?? [])]);
      }}
    >
      <Show when={files().length > 0}>
        <ul class="attachments" aria-label="Attached files">
          <For each={files()}>
            {(file, index) => (
              <li class="chip">
                <span>{file.name}</span> <span class="size">{formatBytes(file.size)}</span>
                <button
                  type="button"
                  class="ghost"
                  aria-label={`Remove ${file.name}`}
                  onClick={() => setFiles(files().filter((_, i) => i !== index()))}
                >
                  ×
                </button>
              </li>
            )}
          </For>
        </ul>
      </Show>
      <textarea
        ref={box}
        id="composer-input"
        aria-label="Message"
        placeholder="Ask anything…  (Enter to send, Shift+Enter for a new line)"
        rows={1}
        value={text()}
        onInput={onInput}
        onKeyDown={onKeyDown}
        onPaste={(event) => {
          const pasted = [...(event.clipboardData?.files ?? [])];
          if (pasted.length > 0) {
            event.preventDefault();
            attach(pasted);
          }
        }}
      />
      <div class="composer-bar">
        <input
          ref={picker}
          type="file"
          multiple
          hidden
          aria-label="Attach files"
          onChange={(event) => {
            attach([...(event.currentTarget.files ?? [])]);
            event.currentTarget.value = "";
          }}
        />
        <button type="button" class="ghost" onClick={() => picker.click()} title="Attach files (up to 10, 50 MB each)">
          Attach files
        </button>
        <div class="modes" role="radiogroup" aria-label="Mode">
          <For each={AGENT_MODES}>
            {(mode) => (
              <label class="mode" title={MODE_INFO[mode].hint}>
                <input
                  type="radio"
                  name="mode"
                  value={mode}
                  checked={props.state.mode() === mode}
                  onChange={() => props.state.setMode(mode)}
                />
                <span>{MODE_INFO[mode].name}</span>
              </label>
            )}
          </For>
        </div>
        <Show when={props.state.modelEntries().length > 1}>
          <select
            class="model-choice"
            aria-label="Model for this message"
            value={props.state.model()?.id ?? ""}
            onChange={(event) => props.state.setModel(event.currentTarget.value)}
          >
            <For each={props.state.modelEntries()}>{(entry) => <option value={entry.id}>{entry.id}</option>}</For>
          </select>
        </Show>
        <span class="spacer" />
        <Show
          when={props.state.run()}
          fallback={
            <button type="submit" class="primary" disabled={text().trim().length === 0 || sending()}>
              {sending() ? "Uploading…" : "Send"}
            </button>
          }
        >
          <button type="button" class="danger" onClick={() => void props.state.stop()}>
            Stop
          </button>
        </Show>
      </div>
    </form>
  );
}
