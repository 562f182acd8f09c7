// Settings → Appearance: the theme (Light, Dark, or System, which follows the device), the language (System, which
// follows the browser, English or Simplified Chinese), permission to notify when a reply is ready while Fawn's
// tab is hidden, the web hosts whose images show without asking (chosen with "Always" on a remote image), and
// whether follow-up suggestions are offered after a reply.
import { createSignal, For, onCleanup, onMount, Show } from "solid-js";
import {
  LANGUAGE_CHOICES,
  LANGUAGE_NAMES,
  language,
  parseLanguage,
  setLanguage,
  t,
  type TextKey,
} from "../../i18n/index.ts";
import { notificationState, requestNotifications, type NotificationState } from "../../shared/notifications.ts";
import { imageHosts, stopLoadingImagesFrom } from "../../markdown/remote-images.ts";
import { setTheme, theme, THEME_CHOICES } from "../../shared/theme.ts";
import { setSuggestionsEnabled, suggestionsEnabled } from "../../state/suggestions-setting.ts";

const PERMISSION_TEXT: Record<NotificationState, TextKey> = {
  default: "appearance.permission.default",
  granted: "appearance.permission.granted",
  denied: "appearance.permission.denied",
  unsupported: "appearance.permission.unsupported",
};

export function AppearanceTab() {
  const [permission, setPermission] = createSignal<NotificationState>(notificationState());
  // The user may change the permission in the browser's own UI while the tab is open.
  onMount(() => {
    let status: PermissionStatus | undefined;
    const update = () => setPermission(notificationState());
    void navigator.permissions
      ?.query({ name: "notifications" })
      .then((result) => {
        status = result;
        status.addEventListener("change", update);
      })
      .catch(() => undefined);
    onCleanup(() => status?.removeEventListener("change", update));
  });
  const allow = async () => setPermission(await requestNotifications().catch(() => notificationState()));

  return (
    <div class="settings-form appearance-tab">
      <div class="field">
        <span class="field-label" id="appearance-theme">
          {t("appearance.theme")}
        </span>
        <div class="theme-choices" role="radiogroup" aria-labelledby="appearance-theme">
          <For each={THEME_CHOICES}>
            {(choice) => (
              <label class="theme-choice">
                <input
                  type="radio"
                  name="theme"
                  value={choice.value}
                  checked={theme() === choice.value}
                  onChange={() => setTheme(choice.value)}
                />
                <span>{t(`theme.${choice.value}`)}</span>
              </label>
            )}
          </For>
        </div>
        <p class="hint">{t("appearance.themeHint")}</p>
      </div>
      <div class="field">
        <label for="appearance-language">{t("appearance.language")}</label>
        <select
          id="appearance-language"
          value={language()}
          onChange={(event) => void setLanguage(parseLanguage(event.currentTarget.value))}
        >
          <For each={LANGUAGE_CHOICES}>
            {(choice) => (
              // Each language by its own name, so that a reader of the other one still finds theirs.
              <option value={choice} lang={choice === "system" ? undefined : choice}>
                {choice === "system" ? t("appearance.languageSystem") : LANGUAGE_NAMES[choice]}
              </option>
            )}
          </For>
        </select>
        <p class="hint">{t("appearance.languageHint")}</p>
      </div>
      <div class="field">
        <span class="field-label" id="appearance-notifications">
          {t("appearance.notifications")}
        </span>
        <p class="hint">{t("appearance.notificationsHint")}</p>
        <div class="inline notification-permission">
          <button
            type="button"
            class="ghost"
            disabled={permission() !== "default"}
            aria-describedby="appearance-notification-state"
            onClick={() => void allow()}
          >
            {t("appearance.allowNotifications")}
          </button>
          <p
            class={`status ${permission() === "granted" ? "ok" : ""}`}
            id="appearance-notification-state"
            role="status"
          >
            {t(PERMISSION_TEXT[permission()])}
          </p>
        </div>
      </div>
      <div class="field">
        <label class="check">
          <input
            type="checkbox"
            role="switch"
            aria-describedby="appearance-suggestions-hint"
            checked={suggestionsEnabled()}
            onChange={(event) => setSuggestionsEnabled(event.currentTarget.checked)}
          />
          {t("suggestions.setting")}
        </label>
        <p class="hint" id="appearance-suggestions-hint">
          {t("suggestions.settingHint")}
        </p>
      </div>
      <div class="field">
        <span class="field-label" id="appearance-image-hosts">
          {t("appearance.imageHosts")}
        </span>
        <p class="hint">{t("appearance.imageHostsHint")}</p>
        <Show when={imageHosts().length > 0} fallback={<p class="hint">{t("appearance.imageHostsNone")}</p>}>
          <ul class="image-hosts" aria-labelledby="appearance-image-hosts">
            <For each={imageHosts()}>
              {(host) => (
                <li>
                  <span>{host}</span>
                  <button
                    type="button"
                    class="ghost"
                    aria-label={t("appearance.imageHostRemove", { host })}
                    onClick={() => stopLoadingImagesFrom(host)}
                  >
                    {t("appearance.imageHostRemoveShort")}
                  </button>
                </li>
              )}
            </For>
          </ul>
        </Show>
      </div>
    </div>
  );
}
