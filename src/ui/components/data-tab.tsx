// Settings → Data: how much this browser stores for Fawn, how much it allows, and whether it may evict it.
import { createResource, Show } from "solid-js";
import { formatBytes } from "../../shared/text.ts";

interface StorageReport {
  usage: number;
  quota: number;
  persisted: boolean;
}

async function readStorage(): Promise<StorageReport | undefined> {
  if (!navigator.storage?.estimate) return undefined;
  const [estimate, persisted] = await Promise.all([
    navigator.storage.estimate(),
    navigator.storage.persisted?.() ?? Promise.resolve(false),
  ]);
  return { usage: estimate.usage ?? 0, quota: estimate.quota ?? 0, persisted };
}

/** Asks the browser to keep Fawn's data under storage pressure; true when it agreed. */
export async function requestPersistentStorage(): Promise<boolean> {
  if (!navigator.storage?.persist) return false;
  if (await navigator.storage.persisted()) return true;
  return navigator.storage.persist();
}

export function DataTab() {
  const [report, { refetch }] = createResource(readStorage);
  return (
    <div class="settings-form">
      <Show when={report()} fallback={<p class="hint">This browser does not report its storage use.</p>}>
        {(current) => (
          <>
            <p role="status" aria-label="Storage used">
              Fawn uses <strong>{formatBytes(current().usage)}</strong> of the{" "}
              <strong>{formatBytes(current().quota)}</strong> this browser allows it.
            </p>
            <p>
              {current().persisted
                ? "Storage is persistent: the browser will not clear your threads to free space."
                : "Storage is not persistent yet: under storage pressure the browser may clear it."}
            </p>
            <Show when={!current().persisted}>
              <div class="actions">
                <button type="button" onClick={() => void requestPersistentStorage().then(() => refetch())}>
                  Keep my data
                </button>
              </div>
            </Show>
          </>
        )}
      </Show>
    </div>
  );
}
