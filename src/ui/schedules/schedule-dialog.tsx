// Thread actions → "Schedule…": dialog "Schedule" with this thread's schedules and "New schedule" for it (the
// schedules panel), and where they run. Its own chunk, loaded when first opened.
import { createEffect, Show } from "solid-js";
import "../i18n/en-schedules.ts";
import { t } from "../i18n/index.ts";
import { useModelChoice, useOpenThread } from "../state/stores.tsx";
import type { ScheduleRun } from "./schedule-draft.ts";
import { SchedulesPanel, type SchedulesClient } from "./schedules-panel.tsx";

/** A modal dialog while `threadId` is set; `onClose` is called when it closes. */
export function ScheduleDialog(props: {
  client: SchedulesClient;
  threadId: string | undefined;
  serverName: string | undefined;
  onClose: () => void;
}) {
  const modelChoice = useModelChoice();
  const openThread = useOpenThread();
  /** A new schedule runs as the composer would send now, with the thread's agent. */
  const run = (): ScheduleRun => {
    const agent = openThread.thread()?.agent;
    return { mode: modelChoice.mode(), ...modelChoice.runModel(), ...(agent && { agent }) };
  };
  let dialog!: HTMLDialogElement;
  createEffect(() => {
    if (props.threadId !== undefined) {
      if (!dialog.open) dialog.showModal();
    } else if (dialog.open) dialog.close();
  });
  return (
    <dialog
      ref={dialog}
      class="sheet schedule-dialog"
      aria-labelledby="schedule-dialog-title"
      onClose={() => props.onClose()}
      onClick={(event) => {
        if (event.target === dialog) dialog.close();
      }}
    >
      <header>
        <h2 id="schedule-dialog-title">{t("schedules.dialogTitle")}</h2>
        <button type="button" class="ghost" onClick={() => dialog.close()}>
          {t("schedules.close")}
        </button>
      </header>
      <Show when={props.threadId} keyed>
        {(threadId) => (
          <SchedulesPanel
            client={props.client}
            threadId={threadId}
            run={run()}
            {...(props.serverName && { serverName: props.serverName })}
          />
        )}
      </Show>
    </dialog>
  );
}
