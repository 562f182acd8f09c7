// Settings → Data's count of the user's feedback on replies ("Feedback on replies: 3 good, 1 bad"), over every thread of
// this browser; read again whenever the tab's storage report is (after an import, a deletion).
import { createResource, Show, type JSX } from "solid-js";
import type { GatewayClient } from "../../gateway-client.ts";
import { t } from "../../i18n/index.ts";

export function FeedbackCount(props: { client: Pick<GatewayClient, "feedback">; refresh: unknown }): JSX.Element {
  const [counts] = createResource(
    () => ({ after: props.refresh }),
    () => props.client.feedback.counts(),
  );
  return (
    <Show when={counts.latest}>
      {(current) => (
        <p class="data-feedback">{t("data.feedback", { good: String(current().good), bad: String(current().bad) })}</p>
      )}
    </Show>
  );
}
