// Settings → Servers: the servers this browser connects to (a Fawn server, a LangGraph server, a DeerFlow
// deployment), each a group named by its name with its kind, URL, what it offers and "Disconnect"; below them "Server
// URL", "Access token" and "Connect". Connect checks the server in the worker first: its sentence shows in the status
// line once connected, or under the field it concerns (the token's refusal under "Access token", anything else under
// "Server URL"), with the cursor moved there. Always this browser's servers, whichever workspace is shown.
import { createSignal, For, onMount, Show } from "solid-js";
import type { GatewayApi, ServerCheck, ServerFeatures, ServerSummary } from "../../../protocol/index.ts";
import { errorMessage } from "../../gateway-client.ts";
import { locale, t, type TextKey } from "../../i18n/index.ts";
import { StatusLine, type Status } from "../../shared/status-line.tsx";
import { TextField } from "../fields/text-field.tsx";
import { announceRefused, announceSaved } from "../settings-saved.ts";
import "./servers-tab.css";

export type ServersClient = { servers: Pick<GatewayApi["servers"], "list" | "check" | "connect" | "disconnect"> };

type Field = "url" | "token";

const FEATURES = ["uploads", "artifacts", "memory", "skills"] as const satisfies readonly (keyof ServerFeatures)[];

/** Words joined as the shown language lists them: "a, b and c" (no serial comma, as Fawn's English writes lists). */
function listOf(keys: readonly TextKey[]): string {
  const language = locale() === "en" ? "en-GB" : locale();
  return new Intl.ListFormat(language, { type: "conjunction" }).format(keys.map((key) => t(key)));
}

/** "Offers threads, runs, uploads and artifacts." and, when something is missing, "Not there: memory and skills." */
function offers(features: ServerFeatures): string {
  const has: TextKey[] = ["servers.feature.threads", "servers.feature.runs"];
  const lacks: TextKey[] = [];
  for (const feature of FEATURES) (features[feature] ? has : lacks).push(`servers.feature.${feature}`);
  const offered = t("servers.offers", { list: listOf(has) });
  return lacks.length ? `${offered} ${t("servers.lacks", { list: listOf(lacks) })}` : offered;
}

/** Which field a failed check is about: a kind found but not authorized means the token was the trouble. */
function fieldOf(check: ServerCheck): Field {
  return check.kind && !check.authorized ? "token" : "url";
}

export function ServersTab(props: { client: ServersClient }) {
  const [servers, setServers] = createSignal<ServerSummary[]>([]);
  const [loaded, setLoaded] = createSignal(false);
  const [url, setUrl] = createSignal("");
  const [token, setToken] = createSignal("");
  const [busy, setBusy] = createSignal(false);
  const [status, setStatus] = createSignal<Status | undefined>();
  const [problem, setProblem] = createSignal<{ field: Field; text: string } | undefined>();
  const problemAt = (field: Field) => (problem()?.field === field ? problem()?.text : undefined);

  const refresh = async () => {
    setServers(await props.client.servers.list());
    setLoaded(true);
  };
  onMount(() => void refresh().catch((error: unknown) => setStatus({ kind: "error", text: errorMessage(error) })));

  let form!: HTMLFormElement;
  /** A refused Connect: its sentence under the field it concerns, the cursor there, the typed server still unsaved. */
  const refuse = (field: Field, text: string) => {
    announceRefused(form);
    setStatus(undefined);
    setProblem({ field, text });
    queueMicrotask(() => document.getElementById(`server-${field}`)?.focus());
  };

  const connect = async (event: SubmitEvent) => {
    event.preventDefault();
    if (busy()) {
      announceRefused(form);
      return;
    }
    const input = { url: url().trim(), ...(token().trim() && { token: token().trim() }) };
    if (!input.url) {
      refuse("url", t("servers.urlMissing"));
      return;
    }
    setBusy(true);
    setProblem(undefined);
    setStatus({ kind: "busy", text: t("servers.checking") });
    try {
      const check = await props.client.servers.check(input);
      if (!check.authorized) {
        refuse(fieldOf(check), check.sentence);
        return;
      }
      const { sentence } = await props.client.servers.connect(input);
      setUrl("");
      setToken("");
      announceSaved(form);
      await refresh();
      setStatus({ kind: "ok", text: sentence });
    } catch (error) {
      refuse("url", errorMessage(error));
    } finally {
      setBusy(false);
    }
  };

  const disconnect = async (server: ServerSummary) => {
    try {
      await props.client.servers.disconnect(server.id);
      await refresh();
      setStatus({ kind: "ok", text: t("servers.disconnected", { name: server.name }) });
      document.getElementById("server-url")?.focus();
    } catch (error) {
      setStatus({ kind: "error", text: errorMessage(error) });
    }
  };

  return (
    <div class="servers-tab">
      <p class="hint">{t("servers.intro")}</p>
      <Show when={loaded() && servers().length === 0}>
        <p class="hint">{t("servers.none")}</p>
      </Show>
      <For each={servers()}>
        {(server) => (
          <div role="group" class="server-entry" aria-labelledby={`server-${server.id}-name`}>
            <div class="server-heading">
              <h3 id={`server-${server.id}-name`}>{server.name}</h3>
              <span class="server-kind">{t(`servers.kind.${server.kind}`)}</span>
            </div>
            <p class="server-url">{server.url}</p>
            <p class="hint">{offers(server.features)}</p>
            <div class="actions">
              <button type="button" class="ghost danger-text" onClick={() => void disconnect(server)}>
                {t("servers.disconnect")}
              </button>
            </div>
          </div>
        )}
      </For>
      {/* A Settings form: a server typed but not connected counts as unsaved, and closing asks (settings-dialog.tsx). */}
      <form ref={form} class="settings-form server-connect" noValidate onSubmit={(event) => void connect(event)}>
        <TextField
          id="server-url"
          label={t("servers.url")}
          kind="url"
          placeholder="https://fawn.example"
          value={url()}
          onInput={(value) => {
            setUrl(value);
            if (problem()?.field === "url") setProblem(undefined);
          }}
          error={problemAt("url")}
        />
        <TextField
          id="server-token"
          label={t("servers.token")}
          kind="key"
          value={token()}
          onInput={(value) => {
            setToken(value);
            if (problem()?.field === "token") setProblem(undefined);
          }}
          error={problemAt("token")}
        />
        <div class="actions">
          <button type="submit" class="primary" disabled={busy()}>
            {t("servers.connect")}
          </button>
        </div>
        <StatusLine status={status()} />
      </form>
    </div>
  );
}
