// Settings: Models (the endpoints, models-tab.tsx), Web, Skills, Memory, Subagents, Sandbox, Appearance and Data, one
// tab at a time; everything is stored in this browser only.
import { createEffect, createSignal, For, Match, Show, Switch } from "solid-js";
import { AppearanceTab } from "./appearance-tab.tsx";
import { DataTab } from "./data-tab.tsx";
import { MemoryTab } from "./memory-tab.tsx";
import { SkillsTab } from "./skills-tab.tsx";
import { SubagentsTab } from "./subagents-tab.tsx";
import { SandboxTab } from "./sandbox-tab.tsx";
import { ModelsTab } from "./models-tab.tsx";
import { WebTab } from "./web-tab.tsx";
import { ToolsTab } from "./tools-tab.tsx";
import type { AppState } from "../app-state.ts";
import { t, type TextKey } from "../i18n/index.ts";

const TABS = [
  { id: "models", name: "settings.tab.models" },
  { id: "web", name: "settings.tab.web" },
  { id: "tools", name: "settings.tab.tools" },
  { id: "skills", name: "settings.tab.skills" },
  { id: "memory", name: "settings.tab.memory" },
  { id: "subagents", name: "settings.tab.subagents" },
  { id: "sandbox", name: "settings.tab.sandbox" },
  { id: "appearance", name: "settings.tab.appearance" },
  { id: "data", name: "settings.tab.data" },
] as const satisfies readonly { id: string; name: TextKey }[];

export function SettingsDialog(props: { state: AppState }) {
  let dialog!: HTMLDialogElement;
  const [selected, setSelected] = createSignal<(typeof TABS)[number]["id"]>("models");
  createEffect(() => {
    if (props.state.settingsOpen()) {
      if (!dialog.open) dialog.showModal();
    } else if (dialog.open) dialog.close();
  });
  return (
    <dialog
      ref={dialog}
      class="settings"
      aria-labelledby="settings-title"
      onClose={() => props.state.setSettingsOpen(false)}
    >
      <header>
        <h2 id="settings-title">{t("settings.title")}</h2>
        <button
          type="button"
          class="ghost icon"
          aria-label={t("settings.close")}
          onClick={() => props.state.setSettingsOpen(false)}
        >
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
              aria-controls={`panel-${tab.id}`}
              tabIndex={selected() === tab.id ? 0 : -1}
              onClick={() => setSelected(tab.id)}
            >
              {t(tab.name)}
            </button>
          )}
        </For>
      </div>
      <Show when={props.state.settingsOpen()}>
        <section role="tabpanel" id={`panel-${selected()}`} aria-labelledby={`tab-${selected()}`}>
          <Switch fallback={<DataTab />}>
            <Match when={selected() === "models"}>
              {/* Once the stored settings are read, so that the form starts from them. */}
              <Show when={props.state.settings()}>
                <ModelsTab state={props.state} />
              </Show>
            </Match>
            <Match when={selected() === "web"}>
              <WebTab
                load={async () => {
                  const { client } = props.state;
                  const [web, proxy] = await Promise.all([client.getWebToolSettings(), client.getProxySettings()]);
                  return { web, proxy };
                }}
                save={async ({ web, proxy }) => {
                  const { client } = props.state;
                  // The proxy first: whether a search service is reachable depends on it.
                  const savedProxy = await client.saveProxySettings(proxy);
                  return { proxy: savedProxy, web: await client.saveWebToolSettings(web) };
                }}
              />
            </Match>
            <Match when={selected() === "tools"}>
              <ToolsTab client={props.state.client} />
            </Match>
            <Match when={selected() === "skills"}>
              <SkillsTab client={props.state.client} />
            </Match>
            <Match when={selected() === "memory"}>
              <MemoryTab client={props.state.client} />
            </Match>
            <Match when={selected() === "subagents"}>
              <SubagentsTab client={props.state.client} />
            </Match>
            <Match when={selected() === "appearance"}>
              <AppearanceTab />
            </Match>
            <Match when={selected() === "sandbox"}>
              <SandboxTab client={props.state.client} starter={props.state.webContainer} />
            </Match>
          </Switch>
        </section>
      </Show>
    </dialog>
  );
}
