// Settings → Sandbox: where the threads' commands run — the browser sandbox (offline) or WebContainer (online,
// with Node.js and npm, only on a cross-origin isolated page) — and how starting WebContainer went.
import { createResource, Match, Show, Switch } from "solid-js";
import type { SandboxSettings } from "../../protocol/index.ts";
import { errorMessage, type GatewayClient } from "../gateway-client.ts";
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
      <p class="hint">Where the agent's commands and the Terminal run. Each thread keeps its own files either way.</p>
      <div role="radiogroup" aria-label="Sandbox" class="sandbox-choices">
        <label class="sandbox-choice">
          <input
            type="radio"
            name="sandbox"
            value="browser"
            checked={settings()?.provider !== "webcontainer"}
            onChange={() => void choose("browser")}
          />
          <span>
            <strong>Browser</strong> — bash tools and Python in this tab. Works offline.
          </span>
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
          <span>
            <strong>WebContainer</strong> — Node.js and npm, from StackBlitz. Needs a connection; commercial use needs
            StackBlitz's licence.
          </span>
        </label>
      </div>
      <Show when={!isolated}>
        <p class="hint">
          WebContainer needs a cross-origin isolated page, and this one is not. Reload once Fawn is installed or its
          service worker is active, or serve Fawn with COOP/COEP headers.
        </p>
      </Show>
      <Show when={settings()?.provider === "webcontainer"}>
        <Switch>
          <Match when={props.starter.status().state === "starting"}>
            <p class="status busy" role="status">
              Starting WebContainer… (up to 30 s)
            </p>
          </Match>
          <Match when={props.starter.status().state === "running"}>
            <p class="status ok" role="status">
              WebContainer is running.
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
