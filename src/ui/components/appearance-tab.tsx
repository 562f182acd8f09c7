// Settings → Appearance: the theme (Light, Dark, or System, which follows the device), and permission to notify
// when a reply is ready while Fawn's tab is hidden.
import { createSignal, For, onCleanup, onMount } from "solid-js";
import { notificationState, requestNotifications, type NotificationState } from "../notifications.ts";
import { setTheme, theme, THEME_CHOICES } from "../theme.ts";

const PERMISSION_TEXT: Record<NotificationState, string> = {
  default: "Not allowed yet.",
  granted: "Allowed: Fawn tells you when a reply is ready while its tab is hidden.",
  denied: "Blocked. Allow notifications for this site in the browser's site settings.",
  unsupported: "This browser cannot show notifications.",
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
          Theme
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
                <span>{choice.name}</span>
              </label>
            )}
          </For>
        </div>
        <p class="hint">System follows your device's light or dark setting, and switches when it does.</p>
      </div>
      <div class="field">
        <span class="field-label" id="appearance-notifications">
          Notifications
        </span>
        <p class="hint">A notification when a reply is ready while Fawn's tab is in the background.</p>
        <div class="inline notification-permission">
          <button
            type="button"
            class="ghost"
            disabled={permission() !== "default"}
            aria-describedby="appearance-notification-state"
            onClick={() => void allow()}
          >
            Allow notifications
          </button>
          <p
            class={`status ${permission() === "granted" ? "ok" : ""}`}
            id="appearance-notification-state"
            role="status"
          >
            {PERMISSION_TEXT[permission()]}
          </p>
        </div>
      </div>
    </div>
  );
}
