// An imported thread is read as it came: in place of the composer it offers Replay, and "Continue this thread",
// which copies it into a thread of the user's own that runs on the user's model.
import { createSignal } from "solid-js";
import { useOpenThread } from "../state/stores.tsx";
import { t } from "../i18n/index.ts";

export function ImportedThreadBar(props: { threadId: string; onContinued: () => void }) {
  const openThread = useOpenThread();
  const [busy, setBusy] = createSignal(false);
  const continueThread = async () => {
    setBusy(true);
    try {
      if (await openThread.continueThread(props.threadId)) props.onContinued();
    } finally {
      setBusy(false);
    }
  };
  return (
    <section class="imported-thread" aria-label={t("imported.region")}>
      <p>{t("imported.explain")}</p>
      <div class="imported-actions">
        <button type="button" class="ghost" onClick={() => void openThread.startReplay()}>
          {t("replay.start")}
        </button>
        <button type="button" class="primary" disabled={busy()} onClick={() => void continueThread()}>
          {t("imported.continue")}
        </button>
      </div>
    </section>
  );
}
