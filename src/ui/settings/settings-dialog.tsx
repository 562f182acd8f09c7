// Settings: Models (the endpoints, models-tab.tsx), Web, Skills, Memory, Agents, Subagents, Sandbox, Appearance, Data
// and Servers, one tab at a time; everything is stored in this browser only. A tab stays mounted (hidden) once opened, so
// edits not yet saved survive a switch to another tab; closing the dialog with such edits asks first (see
// `requestClose`). A tab's edits count as saved only once its Save has stored them (settings-saved.ts): a refused
// Save leaves them unsaved.
// First: the English only Settings shows, added to the dictionary before any tab's module (en.ts's header).
import "../i18n/en-settings.ts";
import "../i18n/en-models-tools.ts";
import { createEffect, createSignal, For, Show, untrack, type JSX } from "solid-js";
import { AgentsTab } from "./agents/agents-tab.tsx";
import { AppearanceTab } from "./appearance/appearance-tab.tsx";
import { DataTab } from "./data/data-tab.tsx";
import { MemoryTab } from "./memory/memory-tab.tsx";
import { SkillsTab } from "./skills/skills-tab.tsx";
import { SubagentsTab } from "./subagents/subagents-tab.tsx";
import { SandboxTab } from "./sandbox/sandbox-tab.tsx";
import { SchedulesTab } from "./schedules/schedules-tab.tsx";
import { ModelsTab } from "./models/models-tab.tsx";
import { SummariesTitlesSection } from "./models/summaries-titles-section.tsx";
import { WebTab } from "./web/web-tab.tsx";
import { ToolsTab } from "./tools/tools-tab.tsx";
import { ServersTab } from "./servers/servers-tab.tsx";
import { connectGateway } from "../gateway-client.ts";
import { useGateway, useModelChoice, useNotices, useWebContainer } from "../state/stores.tsx";
import { t, type TextKey } from "../i18n/index.ts";

const TABS = [
  { id: "models", name: "settings.tab.models" },
  { id: "web", name: "settings.tab.web" },
  { id: "tools", name: "settings.tab.tools" },
  { id: "skills", name: "settings.tab.skills" },
  { id: "memory", name: "settings.tab.memory" },
  { id: "agents", name: "settings.tab.agents" },
  { id: "schedules", name: "settings.tab.schedules" },
  { id: "subagents", name: "settings.tab.subagents" },
  { id: "sandbox", name: "settings.tab.sandbox" },
  { id: "appearance", name: "settings.tab.appearance" },
  { id: "data", name: "settings.tab.data" },
  { id: "servers", name: "settings.tab.servers" },
] as const satisfies readonly { id: string; name: TextKey }[];

type TabId = (typeof TABS)[number]["id"];

/**
 * Whether `event` is the user changing a setting that waits for Save: an edit in one of the tabs' Save forms
 * (`.settings-form`, Memory's settings). Controls that act at once (theme, sandbox choice, skills' switches) do not count.
 */
function editsDraft(event: Event): boolean {
  return event.target instanceof Element && event.target.closest("form.settings-form, form.memory-settings") !== null;
}

export function SettingsDialog() {
  const client = useGateway();
  const notices = useNotices();
  const modelChoice = useModelChoice();
  const webContainer = useWebContainer();
  let dialog!: HTMLDialogElement;
  let confirm!: HTMLDialogElement;
  const [selected, setSelected] = createSignal<TabId>("models");
  // The tabs opened since the dialog opened: each keeps its form (and the user's edits) until the dialog closes.
  const [opened, setOpened] = createSignal<ReadonlySet<TabId>>(new Set());
  // Tabs with edits not yet saved: until a Save stores them (a refused Save leaves them unsaved, and closing asks).
  const [unsaved, setUnsaved] = createSignal<ReadonlySet<TabId>>(new Set());
  // Tabs whose Save is under way, and whether a close asked for meanwhile waits for their outcome.
  const [saving, setSaving] = createSignal<ReadonlySet<TabId>>(new Set());
  let closeWhenSaved = false;
  const mark = (tab: TabId, dirty: boolean) =>
    setUnsaved((tabs) => {
      if (tabs.has(tab) === dirty) return tabs;
      const next = new Set(tabs);
      if (dirty) next.add(tab);
      else next.delete(tab);
      return next;
    });
  createEffect(() => {
    if (notices.settingsOpen()) {
      setOpened(new Set([untrack(selected)]));
      if (!dialog.open) dialog.showModal();
    } else {
      setUnsaved(new Set<TabId>());
      setSaving(new Set<TabId>());
      closeWhenSaved = false;
      if (confirm.open) confirm.close();
      if (dialog.open) dialog.close();
    }
  });
  const select = (tab: TabId) => {
    setSelected(tab);
    setOpened((tabs) => (tabs.has(tab) ? tabs : new Set([...tabs, tab])));
  };
  /**
   * Close asked for (×, Escape). Edits left unsaved are asked about rather than dropped or kept silently: the Save
   * buttons say settings apply on Save, so closing is read as "done", and a draft kept out of sight would come back
   * unexpectedly (or be saved over newer settings) the next time Settings opens.
   */
  const requestClose = () => {
    if (unsaved().size === 0) notices.setSettingsOpen(false);
    else if (saving().size > 0 && !closeWhenSaved) closeWhenSaved = true;
    else if (!confirm.open) confirm.showModal();
  };
  /**
   * A tab's Save began (the submit of its Save form, seen on the way down) or ended. A close asked for while a Save
   * was under way (Save, then × at once) waits for it: it closes if that stored everything, and asks if not.
   */
  const saveBegan = (tab: TabId) => setSaving((tabs) => new Set([...tabs, tab]));
  const saveEnded = (tab: TabId, stored: boolean) => {
    setSaving((tabs) => new Set([...tabs].filter((each) => each !== tab)));
    if (stored) mark(tab, false);
    if (!closeWhenSaved || saving().size > 0) return;
    closeWhenSaved = false;
    requestClose();
  };
  const unsavedNames = () =>
    TABS.filter((tab) => unsaved().has(tab.id))
      .map((tab) => t(tab.name))
      .join(", ");
  const panel = (id: TabId, content: () => JSX.Element) => (
    <Show when={opened().has(id)}>
      <section
        role="tabpanel"
        id={`panel-${id}`}
        aria-labelledby={`tab-${id}`}
        hidden={selected() !== id}
        onInput={(event) => editsDraft(event) && mark(id, true)}
        onChange={(event) => editsDraft(event) && mark(id, true)}
        on:submit={{ capture: true, handleEvent: (event: SubmitEvent) => editsDraft(event) && saveBegan(id) }}
        on:fawn-settings-save-end={(event) => saveEnded(id, event.detail.stored)}
      >
        {content()}
      </section>
    </Show>
  );
  return (
    <dialog
      ref={dialog}
      class="settings"
      aria-labelledby="settings-title"
      onCancel={(event) => {
        if (unsaved().size === 0) return;
        event.preventDefault();
        requestClose();
      }}
      onClose={() => notices.setSettingsOpen(false)}
    >
      <header>
        <h2 id="settings-title">{t("settings.title")}</h2>
        <button type="button" class="ghost icon" aria-label={t("settings.close")} onClick={requestClose}>
          ×
        </button>
      </header>
      <div role="tablist" aria-label={t("settings.sections")}>
        <For each={TABS}>
          {(tab) => (
            <button
              type="button"
              role="tab"
              id={`tab-${tab.id}`}
              aria-selected={selected() === tab.id}
              aria-controls={opened().has(tab.id) ? `panel-${tab.id}` : undefined}
              tabIndex={selected() === tab.id ? 0 : -1}
              onClick={() => select(tab.id)}
            >
              {t(tab.name)}
            </button>
          )}
        </For>
      </div>
      <Show when={notices.settingsOpen()}>
        {/* Once the stored settings are read, so that the form starts from them. */}
        {panel("models", () => (
          <Show when={modelChoice.settings()}>
            <ModelsTab />
            <SummariesTitlesSection client={client} />
          </Show>
        ))}
        {panel("web", () => (
          <WebTab
            load={async () => {
              const [web, proxy] = await Promise.all([client.settings.getWebTools(), client.settings.getProxy()]);
              return { web, proxy };
            }}
            save={async ({ web, proxy }) => {
              // The proxy first: whether a search service is reachable depends on it.
              const savedProxy = await client.settings.saveProxy(proxy);
              return { proxy: savedProxy, web: await client.settings.saveWebTools(web) };
            }}
          />
        ))}
        {panel("tools", () => (
          <ToolsTab client={client} />
        ))}
        {panel("skills", () => (
          <SkillsTab client={client} />
        ))}
        {panel("memory", () => (
          <MemoryTab client={client} />
        ))}
        {panel("agents", () => (
          <AgentsTab client={client} />
        ))}
        {panel("schedules", () => (
          <SchedulesTab client={client} />
        ))}
        {panel("subagents", () => (
          <SubagentsTab client={client} />
        ))}
        {panel("sandbox", () => (
          <SandboxTab client={client} starter={webContainer} />
        ))}
        {panel("appearance", () => (
          <AppearanceTab />
        ))}
        {panel("data", () => (
          <DataTab />
        ))}
        {/* This browser's servers, whichever workspace the stores show. */}
        {panel("servers", () => (
          <ServersTab client={connectGateway()} />
        ))}
      </Show>
      <dialog
        ref={confirm}
        class="sheet confirm-dialog"
        aria-labelledby="settings-unsaved-title"
        aria-describedby="settings-unsaved-text"
      >
        <h2 id="settings-unsaved-title">{t("settings.unsavedTitle")}</h2>
        <p id="settings-unsaved-text">{t("settings.unsavedText", { tabs: unsavedNames() })}</p>
        <div class="actions">
          <button type="button" class="ghost" autofocus onClick={() => confirm.close()}>
            {t("settings.keepEditing")}
          </button>
          <button
            type="button"
            class="danger"
            onClick={() => {
              setUnsaved(new Set<TabId>());
              confirm.close();
              notices.setSettingsOpen(false);
            }}
          >
            {t("settings.discard")}
          </button>
        </div>
      </dialog>
    </dialog>
  );
}
