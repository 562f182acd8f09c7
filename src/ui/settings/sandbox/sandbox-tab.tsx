// Settings → Sandbox: where the threads' commands run — the browser sandbox (offline) or WebContainer (online,
// with Node.js and npm, only on a cross-origin isolated page) — and how starting WebContainer went.
import { createResource, Show } from "solid-js";
import type { SandboxSettings } from "../../../protocol/index.ts";
import { errorMessage, type GatewayClient } from "../../gateway-client.ts";
import { rich, t } from "../../i18n/index.ts";
import { StatusLine, type Status } from "../../shared/status-line.tsx";
import type { WebContainerStarter } from "../../webcontainer-starter.ts";

export function SandboxTab(props: { client: GatewayClient; starter: WebContainerStarter }) {
  /** How starting WebContainer goes, in a line. */
  const starterStatus = (): Status | undefined => {
    const status = props.starter.status();
    if (status.state === "starting") return { kind: "busy", text: t("sandbox.starting") };
    if (status.state === "running") return { kind: "ok", text: t("sandbox.running") };
    if (status.state === "failed") return { kind: "error", text: status.message };
    return undefined;
  };
  const [settings, { mutate }] = createResource(() => props.client.settings.getSandbox());
  const isolated = globalThis.crossOriginIsolated === true;

  const choose = async (provider: SandboxSettings["provider"]) => {
    try {
      mutate(await props.starter.choose(provider));
    } catch (error) {
      mutate({ provider: settings()?.provider ?? "browser" });
      alert(errorMessage(error));
    }
  };

  return (
    <div class="settings-form sandbox-tab">
      <p class="hint">{t("sandbox.intro")}</p>
      <div role="radiogroup" aria-label={t("sandbox.group")} class="sandbox-choices">
        <label class="sandbox-choice">
          <input
            type="radio"
            name="sandbox"
            value="browser"
            checked={settings()?.provider !== "webcontainer"}
            onChange={() => void choose("browser")}
          />
          <span>{rich("sandbox.browserText", { name: <strong>{t("sandbox.browser")}</strong> })}</span>
        </label>
        <label class="sandbox-choice">
          <input
            type="radio"
            name="sandbox"
            value="webcontainer"
            disabled={!isolated}
            checked={settings()?.provider === "webcontainer"}
            onChange={() => void choose("webcontainer")}
          />
          <span>{rich("sandbox.webcontainerText", { name: <strong>WebContainer</strong> })}</span>
        </label>
      </div>
      <Show when={!isolated}>
        <p class="hint">{t("sandbox.notIsolated")}</p>
      </Show>
      <Show when={settings()?.provider === "webcontainer"}>
        <StatusLine status={starterStatus()} />
      </Show>
    </div>
  );
}
