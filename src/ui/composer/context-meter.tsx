// The context gauge in the composer's bar: how much of the model's window the thread's next request would take,
// as a meter "Context used" reading "12% of 128k", with the token counts in its tooltip.
import { Show } from "solid-js";
import type { ThreadContextUsage } from "../../protocol/index.ts";
import { formatNumber, t } from "../i18n/index.ts";
import { contextPercent, formatPercent, formatWindow, gaugeLevel } from "./context-gauge.ts";

export function ContextMeter(props: { usage: ThreadContextUsage | undefined }) {
  return (
    <Show when={props.usage}>
      {(usage) => {
        const percent = () => contextPercent(usage().tokens, usage().window);
        const text = () =>
          t("context.value", { percent: formatPercent(percent()), window: formatWindow(usage().window) });
        return (
          <div
            class={`context-meter ${gaugeLevel(percent())}`}
            role="meter"
            aria-label={t("context.label")}
            aria-valuemin={0}
            aria-valuemax={usage().window}
            aria-valuenow={Math.min(usage().tokens, usage().window)}
            aria-valuetext={text()}
            title={t("context.detail", {
              tokens: formatNumber(usage().tokens),
              window: formatNumber(usage().window),
            })}
          >
            <span class="context-bar" aria-hidden="true">
              <span class="context-fill" style={{ width: `${Math.min(100, percent())}%` }} />
            </span>
            <span class="context-text">{text()}</span>
          </div>
        );
      }}
    </Show>
  );
}
