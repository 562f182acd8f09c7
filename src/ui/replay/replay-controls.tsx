// Replay: the open thread played back from its saved steps, in place of the composer. Messages, tool steps, plan
// updates and presented files appear step by step (the open thread store shows the thread as it was at the step); Pause, the
// step buttons and the speed steer it, and Exit replay returns to the thread as it is.
import { createEffect, For, onCleanup } from "solid-js";
import { REPLAY_SPEEDS, type ReplayView } from "../state/open-thread.ts";
import { useOpenThread } from "../state/stores.tsx";
import { t } from "../i18n/index.ts";

/** How long a step stays on screen at 1×. */
const STEP_MS = 1200;

export function ReplayControls(props: { view: ReplayView }) {
  const openThread = useOpenThread();
  const view = () => props.view;
  const last = () => view().steps.length - 1;

  createEffect(() => {
    const { playing, step, speed } = view();
    if (!playing) return;
    const timer = setTimeout(() => openThread.controlReplay({ step: step + 1 }), STEP_MS / speed);
    onCleanup(() => clearTimeout(timer));
  });

  return (
    <section class="replay-controls" aria-label={t("replay.region")}>
      <span class="replay-position">
        {t("replay.position", { step: String(view().step + 1), count: String(view().steps.length) })}
      </span>
      <div class="replay-buttons">
        <button
          type="button"
          class="ghost"
          disabled={view().step === 0}
          onClick={() => openThread.controlReplay({ step: view().step - 1, playing: false })}
        >
          {t("replay.previous")}
        </button>
        <button type="button" class="primary" onClick={() => openThread.controlReplay({ playing: !view().playing })}>
          {view().playing ? t("replay.pause") : t("replay.play")}
        </button>
        <button
          type="button"
          class="ghost"
          disabled={view().step === last()}
          onClick={() => openThread.controlReplay({ step: view().step + 1, playing: false })}
        >
          {t("replay.next")}
        </button>
        <label class="replay-speed">
          <span>{t("replay.speed")}</span>
          <select
            value={String(view().speed)}
            onChange={(event) =>
              openThread.controlReplay({ speed: Number(event.currentTarget.value) as ReplayView["speed"] })
            }
          >
            <For each={REPLAY_SPEEDS}>{(speed) => <option value={String(speed)}>{`${speed}×`}</option>}</For>
          </select>
        </label>
        <button type="button" class="ghost" onClick={() => openThread.stopReplay()}>
          {t("replay.exit")}
        </button>
      </div>
    </section>
  );
}
