// Settings → Memory's own settings: whether Fawn learns and uses memory, how long it waits after a run before
// learning, and how much of it goes into a prompt.
import { createSignal, onMount, Show } from "solid-js";
import type { GatewayApi, MemorySettings } from "../../../protocol/index.ts";
import { errorMessage } from "../../gateway-client.ts";
import { t } from "../../i18n/index.ts";
import { NumberField } from "../fields/number-field.tsx";
import { announceRefused, announceSaved } from "../settings-saved.ts";
import { AreaStatus, type MemoryStatus } from "./memory-status.tsx";
import { fromMemorySettingsForm, toMemorySettingsForm, type MemorySettingsForm } from "./memory-view.ts";

/** The form "Memory settings", loaded when it mounts; its messages go to the tab's status, area "settings". */
export function MemorySettingsSection(props: {
  client: { memory: Pick<GatewayApi["memory"], "getSettings" | "saveSettings"> };
  status: MemoryStatus | undefined;
  onStatus: (status: MemoryStatus) => void;
}) {
  const [savedSettings, setSavedSettings] = createSignal<MemorySettings | undefined>();
  const [settingsForm, setSettingsForm] = createSignal<MemorySettingsForm | undefined>();

  onMount(() => {
    props.client.memory
      .getSettings()
      .then((settings) => {
        setSavedSettings(settings);
        setSettingsForm(toMemorySettingsForm(settings));
      })
      .catch((error: unknown) => props.onStatus({ kind: "error", text: errorMessage(error), area: "settings" }));
  });

  const saveSettings = async (event: SubmitEvent) => {
    event.preventDefault();
    const element = event.currentTarget as HTMLFormElement;
    const form = settingsForm();
    const base = savedSettings();
    if (!form || !base) {
      announceRefused(element);
      return;
    }
    const read = fromMemorySettingsForm(form, base);
    if ("error" in read) {
      props.onStatus({ kind: "error", text: read.error, area: "settings" });
      announceRefused(element);
      return;
    }
    props.onStatus({ kind: "busy", text: t("common.saving"), area: "settings" });
    try {
      const saved = await props.client.memory.saveSettings(read.settings);
      setSavedSettings(saved);
      setSettingsForm(toMemorySettingsForm(saved));
      announceSaved(element);
      props.onStatus({ kind: "ok", text: t("common.saved"), area: "settings" });
    } catch (error) {
      props.onStatus({ kind: "error", text: errorMessage(error), area: "settings" });
      announceRefused(element);
    }
  };

  const setSetting = <K extends keyof MemorySettingsForm>(key: K, value: MemorySettingsForm[K]) => {
    const form = settingsForm();
    if (form) setSettingsForm({ ...form, [key]: value });
  };

  return (
    <form
      class="memory-settings"
      aria-label={t("memory.settings")}
      noValidate
      onSubmit={(event) => void saveSettings(event)}
    >
      <p class="hint">{t("memory.intro")}</p>
      <label class="check">
        <input
          type="checkbox"
          checked={settingsForm()?.enabled ?? false}
          disabled={!settingsForm()}
          onChange={(event) => setSetting("enabled", event.currentTarget.checked)}
        />
        {t("memory.use")}
      </label>
      <label class="check">
        <input
          type="checkbox"
          checked={settingsForm()?.injectionEnabled ?? false}
          disabled={!settingsForm()}
          onChange={(event) => setSetting("injectionEnabled", event.currentTarget.checked)}
        />
        {t("memory.inject")}
      </label>
      <Show when={settingsForm()?.enabled === false}>
        <p class="hint">{t("memory.off")}</p>
      </Show>
      <div class="memory-numbers">
        <NumberField
          id="memory-debounce"
          label={t("memory.debounce")}
          min={0}
          max={3600}
          value={settingsForm()?.debounceSeconds ?? ""}
          disabled={!settingsForm()}
          onInput={(value) => setSetting("debounceSeconds", value)}
          hint={t("memory.debounceHint")}
        />
        <NumberField
          id="memory-budget"
          label={t("memory.budget")}
          min={100}
          max={20000}
          step={100}
          value={settingsForm()?.maxInjectionTokens ?? ""}
          disabled={!settingsForm()}
          onInput={(value) => setSetting("maxInjectionTokens", value)}
          hint={t("memory.budgetHint")}
        />
      </div>
      <AreaStatus status={props.status} area="settings" />
      <div class="actions">
        <button type="submit" class="primary" disabled={!settingsForm()}>
          {t("memory.saveSettings")}
        </button>
      </div>
    </form>
  );
}
