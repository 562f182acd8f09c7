// The composer: the message box, the Mode (with a line saying what the chosen one does), the agent, the model,
// attached files, Send, and Stop while a run is active. Enter sends; Shift+Enter adds a line. Files are checked against the upload
// limits when chosen and uploaded when the message is sent; once chosen, the message box has the focus again, so
// Enter sends. A `/` at the start opens the slash menu (commands and skills); follow-up suggestions show above the
// box after a reply, and the context gauge in the bar. The layout (composer.css) is one grid at every width: the
// box over the bar on a wide screen, the box between the paperclip and Send on a phone.
import { createEffect, createMemo, createSignal, For, on, onCleanup, Show } from "solid-js";
import {
  AGENT_MODES,
  uploadLimitProblem,
  type AgentMode,
  type ModelChoice,
  type SkillInfo,
} from "../../protocol/index.ts";
import {
  useComposerExtras,
  useGateway,
  useModelChoice,
  useNotices,
  useOpenThread,
  useRuns,
  useWorkspace,
} from "../state/stores.tsx";
import { formatBytes, rich, t, type TextKey } from "../i18n/index.ts";
import { AgentPicker } from "./agent-picker.tsx";
import { ContextMeter } from "./context-meter.tsx";
import { ATTACH_ICON_PATH } from "./attach-icon.ts";
import { FollowUpSuggestions } from "./follow-up-suggestions.tsx";
import {
  commandOf,
  completeSkill,
  filterSlashItems,
  SLASH_COMMANDS,
  slashMenuKey,
  slashQuery,
  type SlashCommand,
  type SlashItem,
} from "./slash-commands.ts";
import {
  ClearMemoryConfirm,
  COMMAND_TEXT,
  CommandsHelp,
  SLASH_MENU_ID,
  SlashMenuList,
  slashOptionId,
} from "./slash-menu.tsx";

const MODE_INFO: Record<AgentMode, { name: TextKey; hint: TextKey }> = {
  flash: { name: "composer.mode.flash", hint: "composer.mode.flashHint" },
  thinking: { name: "composer.mode.thinking", hint: "composer.mode.thinkingHint" },
  pro: { name: "composer.mode.pro", hint: "composer.mode.proHint" },
  ultra: { name: "composer.mode.ultra", hint: "composer.mode.ultraHint" },
};

/** The id of the line saying what the chosen mode does (the Mode group's description). */
const MODE_ABOUT_ID = "mode-about";

/** Whether the primary pointer is a finger (a phone, a tablet): there is no Enter or Shift key to speak of. */
function createCoarsePointer(): () => boolean {
  const query = window.matchMedia("(pointer: coarse)");
  const [coarse, setCoarse] = createSignal(query.matches);
  const changed = (event: MediaQueryListEvent) => setCoarse(event.matches);
  query.addEventListener("change", changed);
  onCleanup(() => query.removeEventListener("change", changed));
  return coarse;
}

/** The choices grouped by endpoint; `several` when there is more than one endpoint, to label each group. */
function endpointGroups(choices: readonly ModelChoice[]): { name: string; several: boolean; choices: ModelChoice[] }[] {
  const groups = new Map<string, ModelChoice[]>();
  for (const choice of choices) groups.set(choice.endpointName, [...(groups.get(choice.endpointName) ?? []), choice]);
  return [...groups].map(([name, grouped]) => ({ name, several: groups.size > 1, choices: grouped }));
}

export function Composer() {
  const client = useGateway();
  const openThread = useOpenThread();
  const runs = useRuns();
  const modelChoice = useModelChoice();
  const notices = useNotices();
  const [text, setText] = createSignal("");
  // Each option says whether it is chosen: the list may be built after the select's value was set (new settings).
  const option = (choice: ModelChoice) => (
    <option value={choice.key} selected={choice.key === modelChoice.modelChoice()?.key}>
      {choice.entry.id}
    </option>
  );
  const [files, setFiles] = createSignal<File[]>([]);
  const [sending, setSending] = createSignal(false);
  let box!: HTMLTextAreaElement;
  let picker!: HTMLInputElement;
  const running = () => Boolean(runs.run()) || sending();
  const extras = useComposerExtras();
  const workspace = useWorkspace();
  /** Why files cannot be attached: the server workspace's server takes no uploads. */
  const uploadsOff = () => {
    const server = workspace?.server();
    return server?.features.uploads === false ? t("workspace.uploadsOff", { name: server.name }) : undefined;
  };
  const coarsePointer = createCoarsePointer();
  /** The model the next message goes to, when it is not marked for reasoning and the mode asks for reasoning. */
  const reasonless = () => {
    const model = modelChoice.model();
    return modelChoice.mode() !== "flash" && model && !model.thinking ? model.id : undefined;
  };
  // The line saying what the mode does speaks up while the choice is being made: on the welcome screen, and from a
  // change of mode or model until the next message goes. In a conversation a phone gives that line to the messages
  // (composer.css); a wide screen keeps the mode's words and drops only the model's.
  const [touched, setTouched] = createSignal(false);
  createEffect(
    on(
      () => Boolean(runs.run()),
      (active) => {
        if (active) setTouched(false);
      },
    ),
  );
  const explaining = () => touched() || (openThread.thread()?.entries.length ?? 0) === 0;

  // ---- The slash menu ----
  const [skills, setSkills] = createSignal<readonly SkillInfo[]>([]);
  /** The text Escape closed the menu on: it stays closed until the text changes. */
  const [dismissed, setDismissed] = createSignal<string | undefined>();
  const [active, setActive] = createSignal(0);
  const [helpOpen, setHelpOpen] = createSignal(false);
  const [confirmingClear, setConfirmingClear] = createSignal(false);
  const query = () => (dismissed() === text() ? undefined : slashQuery(text()));
  const skillItems = createMemo((): SlashItem[] =>
    skills()
      .filter((skill) => skill.enabled)
      .map((skill) => ({ kind: "skill", name: skill.name, description: skill.description })),
  );
  const items = createMemo((): SlashItem[] => [
    ...SLASH_COMMANDS.map((name): SlashItem => ({ kind: "command", name, description: t(COMMAND_TEXT[name]) })),
    ...skillItems(),
  ]);
  const matches = createMemo(() => {
    const typed = query();
    return typed === undefined ? [] : filterSlashItems(items(), typed);
  });
  const menuOpen = () => matches().length > 0;
  // Each time the menu opens, the skills are read again: they may have been turned on or off meanwhile.
  createEffect(
    on(
      () => query() !== undefined,
      (opened) => {
        if (opened) void client.skills.list().then(setSkills, () => undefined);
      },
    ),
  );
  createEffect(on(query, () => setActive(0)));

  const setBoxText = (value: string) => {
    setText(value);
    box.value = value;
    box.focus();
    box.setSelectionRange(value.length, value.length);
    box.style.height = "";
    if (value) box.style.height = `${Math.min(box.scrollHeight, 240)}px`;
  };

  const runCommand = (command: SlashCommand) => {
    setBoxText("");
    if (command === "new") void openThread.newThread().then(() => box.focus());
    else if (command === "compact") void extras.compact();
    else if (command === "clear-memory") setConfirmingClear(true);
    else setHelpOpen(true);
  };

  const choose = (item: SlashItem) => {
    if (item.kind === "skill") setBoxText(completeSkill(item.name));
    else runCommand(item.name);
  };

  // Another model may have another window: the gauge reads the thread's use again.
  createEffect(
    on(
      () => modelChoice.modelChoice()?.key,
      () => void extras.refreshUsage(),
      { defer: true },
    ),
  );

  // A welcome example fills the box, ready to edit.
  createEffect(
    on(extras.fill, (fill) => {
      if (fill) setBoxText(fill.text);
    }),
  );

  /** Adds `chosen` to the attached files; the message box has the focus afterwards, so Enter sends. */
  const attach = (chosen: readonly File[]) => {
    if (chosen.length === 0) return;
    if (uploadsOff()) {
      notices.setNotice(uploadsOff(), { kind: "info" });
      return;
    }
    box.focus();
    const next = [...files(), ...chosen];
    const problem = uploadLimitProblem(next);
    if (problem) {
      notices.setNotice(t("composer.notAttached", { problem }));
      return;
    }
    setFiles(next);
  };

  const submit = async () => {
    const value = text();
    // A command typed whole (the menu closed with Escape) still runs: it is never sent to the model.
    const command = commandOf(value);
    if (command) return runCommand(command);
    if (value.trim().length === 0 || running()) return;
    const attached = files();
    setSending(true);
    try {
      const sent = await runs.sendWithFiles(value, attached);
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
    if (event.isComposing || event.keyCode === 229) return;
    if (menuOpen() && !event.shiftKey && !event.altKey && !event.ctrlKey && !event.metaKey) {
      const action = slashMenuKey(event.key, active(), matches().length);
      if (action.kind !== "none") event.preventDefault();
      if (action.kind === "move") return void setActive(action.active);
      if (action.kind === "close") return void setDismissed(text());
      if (action.kind === "choose") {
        const item = matches()[action.index];
        return item && choose(item);
      }
    }
    if (event.key !== "Enter" || event.shiftKey) return;
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
      <FollowUpSuggestions
        questions={running() ? [] : extras.suggestions()}
        onChoose={(question) => void runs.send(question)}
      />
      <Show when={confirmingClear()}>
        <ClearMemoryConfirm
          onAnswer={(clear) => {
            setConfirmingClear(false);
            box.focus();
            if (clear) void extras.clearMemory();
          }}
        />
      </Show>
      <Show when={menuOpen()}>
        <SlashMenuList items={matches()} active={active()} onActive={setActive} onChoose={choose} />
      </Show>
      <textarea
        ref={box}
        id="composer-input"
        aria-label={t("composer.message")}
        aria-autocomplete="list"
        aria-controls={menuOpen() ? SLASH_MENU_ID : undefined}
        aria-activedescendant={menuOpen() ? slashOptionId(active()) : undefined}
        placeholder={t(coarsePointer() ? "composer.placeholderTouch" : "composer.placeholder")}
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
        aria-disabled={uploadsOff() ? "true" : undefined}
        onClick={() => (uploadsOff() ? notices.setNotice(uploadsOff(), { kind: "info" }) : picker.click())}
        title={uploadsOff() ?? t("composer.attachTitle")}
      >
        {/* A paperclip on a phone, the words elsewhere (composer.css). */}
        <svg class="attach-icon" aria-hidden="true" viewBox="0 0 24 24" width="18" height="18">
          <path d={ATTACH_ICON_PATH} fill="none" stroke="currentColor" stroke-width="1.8" stroke-linecap="round" />
        </svg>
        <span class="attach-label">{t("composer.attach")}</span>
      </button>
      <div class="composer-bar">
        <div class="modes" role="radiogroup" aria-label={t("composer.mode")} aria-describedby={MODE_ABOUT_ID}>
          <For each={AGENT_MODES}>
            {(mode) => (
              <label class="mode" title={t(MODE_INFO[mode].hint)}>
                <input
                  type="radio"
                  name="mode"
                  value={mode}
                  checked={modelChoice.mode() === mode}
                  onChange={() => {
                    modelChoice.setMode(mode);
                    setTouched(true);
                  }}
                />
                <span>{t(MODE_INFO[mode].name)}</span>
              </label>
            )}
          </For>
        </div>
        <AgentPicker />
        <Show when={modelChoice.modelChoices().length > 1}>
          <select
            class="model-choice"
            aria-label={t("composer.model")}
            value={modelChoice.modelChoice()?.key ?? ""}
            onChange={(event) => {
              modelChoice.setModel(event.currentTarget.value);
              setTouched(true);
            }}
          >
            <For each={endpointGroups(modelChoice.modelChoices())}>
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
        <Show when={extras.compacting()}>
          <span class="compacting" role="status">
            {t("slash.compacting")}
          </span>
        </Show>
        <ContextMeter usage={openThread.thread() ? extras.usage() : undefined} />
      </div>
      <Show
        when={runs.run()}
        fallback={
          <button type="submit" class="primary send-button" disabled={text().trim().length === 0 || sending()}>
            {sending() && files().length > 0 ? t("composer.uploading") : t("composer.send")}
          </button>
        }
      >
        <button type="button" class="danger send-button" onClick={() => void runs.stop()}>
          {t("composer.stop")}
        </button>
      </Show>
      {/* What the chosen mode does, in words a finger can reach too (the modes' titles show only on hover), and
          whether the model it goes to reasons at all. Spoken when it changes, after the radio's own name; the Mode
          group's description even while it is quiet. */}
      <p class="mode-about" id={MODE_ABOUT_ID} aria-live="polite" data-quiet={explaining() ? undefined : ""}>
        <strong>{t(MODE_INFO[modelChoice.mode()].name)}</strong>
        {" — "}
        {t(MODE_INFO[modelChoice.mode()].hint)}
        <Show when={reasonless()}>
          {(model) => (
            <span class="mode-warning">
              {rich("composer.mode.noReasoning", {
                model: <strong>{model()}</strong>,
                link: (
                  <button type="button" class="link-button" onClick={() => notices.setSettingsOpen(true)}>
                    {t("composer.mode.noReasoningLink")}
                  </button>
                ),
              })}
            </span>
          )}
        </Show>
      </p>
      <CommandsHelp
        open={helpOpen()}
        skills={skillItems()}
        onClose={() => {
          setHelpOpen(false);
          box.focus();
        }}
      />
    </form>
  );
}
