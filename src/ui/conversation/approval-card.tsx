// Group "Approval": a tool call that would send data out (web_fetch, web_search, an MCP tool, bash on WebContainer) waits here, naming the
// tool and where the data would go, until the user chooses "Allow", "Deny" or "Allow for this thread". The target is
// shown as text, never as a link: it is what the model asked for, and may be hostile.
import { createSignal, Show } from "solid-js";
import type { ApprovalDecision, ApprovalRequestedEvent } from "../../protocol/index.ts";
import { t } from "../i18n/index.ts";

export function ApprovalCard(props: {
  approval: ApprovalRequestedEvent;
  onAnswer: (decision: ApprovalDecision) => Promise<void>;
}) {
  const [busy, setBusy] = createSignal(false);
  const [failure, setFailure] = createSignal<string | undefined>();
  const answer = async (decision: ApprovalDecision) => {
    setBusy(true);
    setFailure(undefined);
    try {
      await props.onAnswer(decision);
    } catch (error) {
      setFailure(error instanceof Error ? error.message : String(error));
      setBusy(false);
    }
  };
  // A WebContainer thread's bash command: its shell reaches the network.
  const shell = () => props.approval.tool === "bash";
  const id = () => `approval-${props.approval.approval_id}`;
  return (
    <section class="approval" role="group" aria-label={t("approval.group")} aria-describedby={`${id()}-question`}>
      <p class="approval-question" id={`${id()}-question`}>
        {shell() ? t("approval.questionShell") : t("approval.question", { tool: props.approval.tool })}
      </p>
      <p class="approval-target">
        <span class="approval-target-label">{shell() ? t("approval.command") : t("approval.target")}</span>{" "}
        <Show when={props.approval.server}>
          {(server) => <span class="approval-server">{t("approval.server", { server: server() })} · </span>}
        </Show>
        <code>{props.approval.target}</code>
      </p>
      <p class="approval-why">
        {props.approval.reason === "settings"
          ? t("approval.whySettings")
          : props.approval.reason === "agent"
            ? t("approval.whyAgent")
            : t("approval.why")}
      </p>
      <div class="approval-actions">
        <button type="button" class="primary" disabled={busy()} onClick={() => void answer("allow")}>
          {t("approval.allow")}
        </button>
        <button type="button" disabled={busy()} onClick={() => void answer("deny")}>
          {t("approval.deny")}
        </button>
        <button type="button" class="ghost" disabled={busy()} onClick={() => void answer("allow_thread")}>
          {t("approval.allowThread")}
        </button>
      </div>
      <Show when={failure()}>
        {(error) => (
          <p class="approval-failed" role="alert">
            {t("approval.failed", { error: error() })}
          </p>
        )}
      </Show>
    </section>
  );
}
