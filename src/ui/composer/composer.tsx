// The composer: the message box, the Mode, the model, attached files, Send, and Stop while a run is active.
// Enter sends; Shift+Enter adds a line. Files are checked against the upload limits when chosen and uploaded when
// the message is sent.
import { createSignal, For, Show } from "solid-js";
import { AGENT_MODES, uploadLimitProblem, type AgentMode, type ModelChoice } from "../../protocol/index.ts";
import type { AppState } from "../app-state.ts";
import { formatBytes, t, type TextKey } from "../i18n/index.ts";

const MODE_INFO: Record<AgentMode, { name: TextKey; hint: TextKey }> = {
  flash: { name: "composer.mode.flash", hint: "composer.mode.flashHint" },
  thinking: { name: "composer.mode.thinking", hint: "composer.mode.thinkingHint" },
  pro: { name: "composer.mode.pro", hint: "composer.mode.proHint" },
  ultra: { name: "composer.mode.ultra", hint: "composer.mode.ultraHint" },
};

/** The choices grouped by endpoint; `several` when there is more than one endpoint, to label each group. */
function endpointGroups(choices: readonly ModelChoice[]): { name: string; several: boolean; choices: ModelChoice[] }[] {
  const groups = new Map<string, ModelChoice[]>();
  for (const choice of choices) groups.set(choice.endpointName, [...(groups.get(choice.endpointName) ?? []), choice]);
  return [...groups].map(([name, grouped]) => ({ name, several: groups.size > 1, choices: grouped }));
}

export function Composer(props: { state: AppState }) {
  const [text, setText] = createSignal("");
  // Each option says whether it is chosen: the list may be built after the select's value was set (new settings).
  const option = (choice: ModelChoice) => (
    <option value={choice.key} selected={choice.key === props.state.modelChoice()?.key}>
      {choice.entry.id}
    </option>
  );
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
      props.state.setNotice(t("composer.notAttached", { problem }));
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
      // Only what was sent is cleared: text typed while the run was starting stays in the box.
      setText((current) => (current === value ? "" : current));
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
        <ul class="attachments" aria-label={t("composer.attachedFiles")}>
          <For each={files()}>
            {(file, index) => (
              <li class="chip">
                <span>{file.name}</span> <span class="size">{formatBytes(file.size)}</span>
                <button
                  type="button"
                  class="ghost"
                  aria-label={t("composer.remove", { name: file.name })}
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
        aria-label={t("composer.message")}
        placeholder={t("composer.placeholder")}
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
          aria-label={t("composer.attach")}
          onChange={(event) => {
            attach([...(event.currentTarget.files ?? [])]);
            event.currentTarget.value = "";
          }}
        />
        <button
          type="button"
          class="ghost attach-button"
          onClick={() => picker.click()}
          title={t("composer.attachTitle")}
        >
          {/* A paperclip on a phone, the words elsewhere (composer.css). */}
          <svg class="attach-icon" aria-hidden="true" viewBox="0 0 24 24" width="18" height="18">
            <path
              d="M16.5 6.5v10a4.5 4.5 0 0 1-9 0V5a3 3 0 0 1 6 0v10.5a1.5 1.5 0 0 1-3 0V6.5"
              fill="none"
              stroke="currentColor"
              stroke-width="1.8"
              stroke-linecap="round"
            />
          </svg>
          <span class="attach-label">{t("composer.attach")}</span>
        </button>
        <div class="modes" role="radiogroup" aria-label={t("composer.mode")}>
          <For each={AGENT_MODES}>
            {(mode) => (
              <label class="mode" title={t(MODE_INFO[mode].hint)}>
                <input
                  type="radio"
                  name="mode"
                  value={mode}
                  checked={props.state.mode() === mode}
                  onChange={() => props.state.setMode(mode)}
                />
                <span>{t(MODE_INFO[mode].name)}</span>
              </label>
            )}
          </For>
        </div>
        <Show when={props.state.modelChoices().length > 1}>
          <select
            class="model-choice"
            aria-label={t("composer.model")}
            value={props.state.modelChoice()?.key ?? ""}
            onChange={(event) => props.state.setModel(event.currentTarget.value)}
          >
            <For each={endpointGroups(props.state.modelChoices())}>
              {(group) => (
                <Show when={group.several} fallback={<For each={group.choices}>{option}</For>}>
                  <optgroup label={group.name}>
                    <For each={group.choices}>{option}</For>
                  </optgroup>
                </Show>
              )}
            </For>
          </select>
        </Show>
        <span class="spacer" />
        <Show
          when={props.state.run()}
          fallback={
            <button type="submit" class="primary" disabled={text().trim().length === 0 || sending()}>
              {sending() && files().length > 0 ? t("composer.uploading") : t("composer.send")}
            </button>
          }
        >
          <button type="button" class="danger" onClick={() => void props.state.stop()}>
            {t("composer.stop")}
          </button>
        </Show>
      </div>
    </form>
  );
}
