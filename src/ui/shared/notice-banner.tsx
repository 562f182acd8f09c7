// The page's notice line (notice.ts), styled by its kind: an error is an alert in the danger colours; news (success,
// info) is a status in the page's own. Dismissed with ×; its action, if any ("Open the copy"), a link-like button.
import { Show } from "solid-js";
import { t } from "../i18n/index.ts";
import type { Notice } from "./notice.ts";

export function NoticeBanner(props: { notice: Notice | undefined; onDismiss: () => void }) {
  return (
    <Show when={props.notice}>
      {(notice) => (
        <div class="notice" data-kind={notice().kind} role={notice().kind === "error" ? "alert" : "status"}>
          <span>{notice().text}</span>
          <Show when={notice().action}>
            {(action) => (
              <button type="button" class="link-button" onClick={() => action().run()}>
                {action().label}
              </button>
            )}
          </Show>
          <button type="button" class="ghost" aria-label={t("common.dismiss")} onClick={() => props.onDismiss()}>
            ×
          </button>
        </div>
      )}
    </Show>
  );
}
