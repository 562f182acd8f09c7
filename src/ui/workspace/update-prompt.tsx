// Service-worker status: offers the new version when one is waiting, and says when Fawn can work offline. Once the
// worker is registered, the lazy groups it leaves out of the install are cached in idle time (lazy-parts-idle.ts).
import { createEffect, Show } from "solid-js";
import { useRegisterSW } from "virtual:pwa-register/solid";
import { t } from "../i18n/index.ts";

export function UpdatePrompt() {
  const {
    needRefresh: [needRefresh, setNeedRefresh],
    offlineReady: [offlineReady, setOfflineReady],
    updateServiceWorker,
  } = useRegisterSW({
    immediate: true,
    onRegisteredSW: () => void import("./lazy-parts-idle.ts").then((idle) => idle.cacheLazyPartsWhenIdle()),
  });

  createEffect(() => {
    if (offlineReady()) setTimeout(() => setOfflineReady(false), 6000);
  });

  // The new worker takes over, then the page loads again from it. workbox-window reloads by itself only when this page
  // was already controlled when it loaded: a first visit left open until an update came would stay on the old version.
  const reload = () => {
    navigator.serviceWorker.addEventListener("controllerchange", () => window.location.reload(), { once: true });
    void updateServiceWorker(true);
  };

  return (
    <>
      <Show when={needRefresh()}>
        <div class="toast" role="alert">
          <span>{t("update.ready")}</span>
          <button type="button" class="primary" onClick={reload}>
            {t("update.reload")}
          </button>
          <button type="button" class="ghost" onClick={() => setNeedRefresh(false)}>
            {t("update.later")}
          </button>
        </div>
      </Show>
      <Show when={offlineReady()}>
        <div class="toast" role="status">
          {t("update.offline")}
        </div>
      </Show>
    </>
  );
}
