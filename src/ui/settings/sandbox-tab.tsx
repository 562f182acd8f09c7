// Settings → Sandbox: where the threads' commands run — the browser sandbox (offline) or WebContainer (online,
// with Node.js and npm, only on a cross-origin isolated page) — and how starting WebContainer went.
import { createResource, Match, Show, Switch } from "solid-js";
import type { SandboxSettings } from "../../protocol/index.ts";
import { errorMessage, type GatewayClient } from "../gateway-client.ts";
import { rich, t } from "../i18n/index.ts";
import type { WebContainerStarter } from "../webcontainer-starter.ts";

export function SandboxTab(props: { client: GatewayClient; starter: WebContainerStarter }) {
  const [settings, { mutate }] = createResource(() => props.client.getSandboxSettings());
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
        <Switch>
          <Match when={props.starter.status().state === "starting"}>
            <p class="status busy" role="status">
              {t("sandbox.starting")}
            </p>
          </Match>
          <Match when={props.starter.status().state === "running"}>
            <p class="status ok" role="status">
              {t("sandbox.running")}
            </p>
          </Match>
          <Match when={props.starter.status().state === "failed"}>
            <p class="status error" role="alert">
              {(props.starter.status() as { message: string }).message}
            </p>
          </Match>
        </Switch>
      </Show>
    </div>
  );
}
