// Service-worker status: offers the new version when one is waiting, and says when Fawn can work offline.
import { createEffect, Show } from "solid-js";
import { useRegisterSW } from "virtual:pwa-register/solid";

export function UpdatePrompt() {
  const {
    needRefresh: [needRefresh, setNeedRefresh],
    offlineReady: [offlineReady, setOfflineReady],
    updateServiceWorker,
  } = useRegisterSW({ immediate: true });

  createEffect(() => {
    if (offlineReady()) setTimeout(() => setOfflineReady(false), 6000);
  });

  return (
    <>
      <Show when={needRefresh()}>
        <div class="toast" role="alert">
          <span>A new version of Fawn is ready.</span>
          <button type="button" class="primary" onClick={() => void updateServiceWorker(true)}>
            Reload
          </button>
          <button type="button" class="ghost" onClick={() => setNeedRefresh(false)}>
            Later
          </button>
        </div>
      </Show>
      <Show when={offlineReady()}>
        <div class="toast" role="status">
          Fawn is installed in this browser and now works offline.
        </div>
      </Show>
    </>
  );
}
