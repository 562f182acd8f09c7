// Settings → Tools: the MCP servers whose tools the agent may use. Each server is a group named by its name, with its
// address, optional secrets, "Test connection" (which lists its tools, each with a switch) and an on/off switch of
// its own; a server that wants OAuth offers "Sign in" (then shows "Signed in" and "Sign out"); DeerFlow's
// extensions_config.json comes in through Import and goes out through Export.
import { createMemo, createSignal, For, onCleanup, onMount, Show } from "solid-js";
import { createStore, produce, reconcile } from "solid-js/store";
import { nameMcpTools, type GatewayApi, type McpServerEntry, type McpToolNaming } from "../../../protocol/index.ts";
import { errorMessage } from "../../gateway-client.ts";
import { t } from "../../i18n/index.ts";
import { download } from "../../shared/download.ts";
import { StatusLine, type Status } from "../../shared/status-line.tsx";
import { announceRefused, announceSaved } from "../settings-saved.ts";
import {
  blankMcpRow,
  fromMcpRow,
  mcpFormProblems,
  toMcpRow,
  type McpFormField,
  type McpFormProblem,
  type McpServerRow,
} from "./mcp-form.ts";
import { McpOAuthClientFields } from "./mcp-oauth-client-fields.tsx";
import { signInToMcpServer } from "./mcp-sign-in.ts";
import { FieldError, TextField } from "../fields/text-field.tsx";

export type ToolsClient = {
  mcp: Pick<
    GatewayApi["mcp"],
    "list" | "save" | "test" | "importConfig" | "exportConfig" | "signedIn" | "beginSignIn" | "finishSignIn" | "signOut"
  >;
};

/** A server's test, while it runs or once it answered. */
type TestState = { kind: "busy" } | { kind: "error"; text: string };

/** A server's OAuth sign-in: wanted (a test said so), under way in the other window, or done. */
type SignInState = "needed" | "waiting" | "signed-in";

export function ToolsTab(props: { client: ToolsClient }) {
  const [rows, setRows] = createStore<McpServerRow[]>([]);
  const [loaded, setLoaded] = createSignal(false);
  const [status, setStatus] = createSignal<Status | undefined>();
  const [tests, setTests] = createStore<Record<string, TestState | undefined>>({});
  const [signIns, setSignIns] = createStore<Record<string, SignInState | undefined>>({});
  /** Aborts the sign-in each server's window is waiting for, when another begins or the tab closes. */
  const waits = new Map<string, AbortController>();
  onCleanup(() => waits.forEach((wait) => wait.abort()));
  /** Whether a Save was refused since the last one taken: then each field's problem shows, as the user fixes it. */
  const [refused, setRefused] = createSignal(false);
  const problems = createMemo<McpFormProblem[]>(() => (refused() ? mcpFormProblems(rows) : []));
  const problemAt = (key: string, field: McpFormField) =>
    problems().find((problem) => problem.key === key && problem.field === field)?.message;
  let addButton!: HTMLButtonElement;
  let importInput!: HTMLInputElement;

  /** Shows stored servers, keeping each row's key (and tools found) where the name is the same. */
  const show = (servers: readonly McpServerEntry[]) => {
    const next = servers.map((server) => {
      const before = rows.find((row) => row.name === server.name);
      const row = toMcpRow(server, before?.key);
      return before?.tools ? { ...row, tools: before.tools } : row;
    });
    setRows(reconcile(next, { key: "key" }));
  };

  onMount(() => {
    Promise.all([props.client.mcp.list(), props.client.mcp.signedIn()])
      .then(([servers, signedIn]) => {
        show(servers);
        for (const row of rows) if (signedIn.includes(row.name)) setSignIns(row.key, "signed-in");
        setLoaded(true);
      })
      .catch((error: unknown) => setStatus({ kind: "error", text: errorMessage(error) }));
  });

  const update = (key: string, change: (row: McpServerRow) => void) =>
    setRows((row) => row.key === key, produce(change));

  const add = () => {
    const row = blankMcpRow();
    setRows(rows.length, row);
    document.getElementById(`${row.key}-name`)?.focus();
  };

  const remove = (key: string) => {
    setRows((all) => all.filter((row) => row.key !== key));
    addButton.focus();
  };

  const test = async (row: McpServerRow) => {
    const entry = fromMcpRow(row);
    if ("error" in entry) {
      setTests(row.key, { kind: "error", text: entry.error });
      return;
    }
    setTests(row.key, { kind: "busy" });
    try {
      const answer = await props.client.mcp.test(entry);
      if (answer.ok) {
        update(row.key, (draft) => void (draft.tools = answer.tools));
        setTests(row.key, undefined);
        // A server that asked for more access than its sign-in gave (a step-up) is offered "Sign in" again.
        if (answer.signIn) setSignIns(row.key, "needed");
      } else {
        setTests(row.key, { kind: "error", text: answer.error });
        if (answer.signIn) setSignIns(row.key, "needed");
      }
    } catch (error) {
      setTests(row.key, { kind: "error", text: errorMessage(error) });
    }
  };

  /** "Sign in": the authorization page in a window of its own; once back, the server is tested again. */
  const signIn = async (row: McpServerRow) => {
    const entry = fromMcpRow(row);
    if ("error" in entry) {
      setTests(row.key, { kind: "error", text: entry.error });
      return;
    }
    waits.get(row.key)?.abort();
    const wait = new AbortController();
    waits.set(row.key, wait);
    setSignIns(row.key, "waiting");
    setTests(row.key, undefined);
    try {
      const outcome = await signInToMcpServer(props.client, entry, wait.signal);
      if (!outcome) return;
      if (outcome.ok) {
        setSignIns(row.key, "signed-in");
        const current = rows.find((each) => each.key === row.key);
        if (current) await test(current);
      } else {
        setSignIns(row.key, "needed");
        setTests(row.key, { kind: "error", text: outcome.popupBlocked ? t("tools.popupBlocked") : outcome.error });
      }
    } catch (error) {
      setSignIns(row.key, "needed");
      setTests(row.key, { kind: "error", text: errorMessage(error) });
    } finally {
      if (waits.get(row.key) === wait) waits.delete(row.key);
    }
  };

  /** "Sign out": the server's tokens are forgotten; its next use asks for a sign-in again. */
  const signOut = async (row: McpServerRow) => {
    try {
      await props.client.mcp.signOut(row.name.trim());
      setSignIns(row.key, "needed");
      update(row.key, (draft) => void (draft.tools = undefined));
    } catch (error) {
      setTests(row.key, { kind: "error", text: errorMessage(error) });
    }
  };

  const save = async (event: SubmitEvent) => {
    event.preventDefault();
    const element = event.currentTarget as HTMLFormElement;
    const found = mcpFormProblems(rows);
    if (found.length > 0) {
      // Each problem shows at its field; the cursor goes to the first.
      setRefused(true);
      setStatus(undefined);
      const first = found[0]!;
      const suffix = {
        name: "name",
        url: "url",
        headers: "headers",
        bearerToken: "token",
        oauthClientId: "client-id",
        oauthClientSecret: "client-secret",
        timeout: "timeout",
      }[first.field];
      queueMicrotask(() => document.getElementById(`${first.key}-${suffix}`)?.focus());
      announceRefused(element);
      return;
    }
    const entries: McpServerEntry[] = [];
    for (const row of rows) {
      const entry = fromMcpRow(row);
      if ("error" in entry) {
        setStatus({ kind: "error", text: entry.error });
        announceRefused(element);
        return;
      }
      entries.push(entry);
    }
    setStatus({ kind: "busy", text: t("common.saving") });
    try {
      show(await props.client.mcp.save(entries));
      setRefused(false);
      announceSaved(element);
      setStatus({ kind: "ok", text: t("common.saved") });
    } catch (error) {
      setStatus({ kind: "error", text: errorMessage(error) });
      announceRefused(element);
    }
  };

  /** Import: the file's servers join the form (a server of the same name is replaced); Save stores them. */
  const importFile = async (file: File | undefined) => {
    if (!file) return;
    try {
      const read = await props.client.mcp.importConfig(await file.text());
      const kept = rows.filter((row) => !read.servers.some((server) => server.name === row.name));
      setRows(reconcile([...kept, ...read.servers.map((server) => toMcpRow(server))], { key: "key" }));
      const skipped = read.skipped.map((skip) => skip.reason).join(" ");
      const added = t("tools.imported", { count: String(read.servers.length) });
      setStatus({ kind: read.skipped.length > 0 ? "error" : "ok", text: skipped ? `${added} ${skipped}` : added });
    } catch (error) {
      setStatus({ kind: "error", text: errorMessage(error) });
    } finally {
      importInput.value = "";
    }
  };

  const exportFile = async () => {
    try {
      const exported = await props.client.mcp.exportConfig();
      download(exported.blob, exported.file_name);
    } catch (error) {
      setStatus({ kind: "error", text: errorMessage(error) });
    }
  };

  /** The tools Test connection found, then those switched off that it did not find (or that were not tested). */
  const toolList = (row: McpServerRow): { name: string; description?: string | undefined }[] => {
    const found = row.tools ?? [];
    const unseen = row.disabledTools.filter((name) => !found.some((tool) => tool.name === name));
    return [...found, ...unseen.map((name) => ({ name }))];
  };
  /**
   * How the agent will know each switched-on tool of the enabled servers tested here: a tool whose `<server>_<tool>`
   * is a built-in tool's or another server's tool's is renamed or left out (the same rule a run applies).
   */
  const namings = createMemo(() => {
    const tested = rows.filter((row) => row.enabled && row.tools);
    const named = nameMcpTools(
      tested.map((row) => ({
        server: row.name.trim(),
        tools: (row.tools ?? []).map((tool) => tool.name).filter((name) => !row.disabledTools.includes(name)),
      })),
    );
    const byRow = new Map<string, Map<string, McpToolNaming>>();
    let index = 0;
    for (const row of tested) {
      const tools = new Map<string, McpToolNaming>();
      for (const tool of row.tools ?? []) {
        if (row.disabledTools.includes(tool.name)) continue;
        const naming = named[index++];
        if (naming) tools.set(tool.name, naming);
      }
      byRow.set(row.key, tools);
    }
    return byRow;
  });
  /** The sentence on a tool's row when the agent will not know it as `<server>_<tool>`. */
  const namingNote = (key: string, tool: string): string | undefined => {
    const naming = namings().get(key)?.get(tool);
    if (!naming || naming.kind === "named") return undefined;
    if (naming.kind === "renamed") {
      return naming.owner === "built-in"
        ? t("tools.renamedBuiltIn", { name: naming.name })
        : t("tools.renamedTaken", { name: naming.name, server: naming.owner.server, tool: naming.owner.tool });
    }
    switch (naming.reason) {
      case "characters":
        return t("tools.refusedCharacters", { name: naming.prefixed });
      case "too-long":
        return t("tools.refusedLong", { name: naming.prefixed });
      case "listed-twice":
        return t("tools.refusedTwice");
      case "no-free-name":
        return t("tools.refusedNoRoom", { name: naming.prefixed });
    }
  };
  const switchTool = (key: string, tool: string, on: boolean) =>
    update(key, (draft) => {
      draft.disabledTools = on
        ? draft.disabledTools.filter((name) => name !== tool)
        : [...draft.disabledTools.filter((name) => name !== tool), tool].sort();
    });

  return (
    <form class="settings-form tools-tab" noValidate onSubmit={(event) => void save(event)}>
      <p class="hint">{t("tools.intro")}</p>
      <Show when={loaded() && rows.length === 0}>
        <p class="hint">{t("tools.none")}</p>
      </Show>
      <For each={rows}>
        {(row) => (
          <fieldset class="mcp-server" aria-label={row.name.trim() || t("tools.newServer")}>
            <legend>{row.name.trim() || t("tools.newServer")}</legend>
            <label class="switch-field">
              <input
                type="checkbox"
                role="switch"
                checked={row.enabled}
                onChange={(event) => update(row.key, (draft) => void (draft.enabled = event.currentTarget.checked))}
              />
              <span>{t("tools.enabled")}</span>
            </label>
            <div class="field">
              <label for={`${row.key}-name`}>{t("tools.name")}</label>
              <input
                id={`${row.key}-name`}
                type="text"
                autocomplete="off"
                spellcheck={false}
                placeholder="github"
                aria-invalid={problemAt(row.key, "name") ? "true" : undefined}
                aria-describedby={problemAt(row.key, "name") ? `${row.key}-name-error` : undefined}
                value={row.name}
                onInput={(event) => update(row.key, (draft) => void (draft.name = event.currentTarget.value))}
              />
              <FieldError id={`${row.key}-name-error`} error={problemAt(row.key, "name")} />
            </div>
            <TextField
              id={`${row.key}-url`}
              label={t("tools.url")}
              kind="url"
              placeholder="https://example.com/mcp"
              value={row.url}
              onInput={(value) => update(row.key, (draft) => void (draft.url = value))}
              error={problemAt(row.key, "url")}
            />
            <label class="switch-field">
              <input
                type="checkbox"
                checked={row.useProxy}
                onChange={(event) => update(row.key, (draft) => void (draft.useProxy = event.currentTarget.checked))}
              />
              <span>{t("tools.useProxy")}</span>
            </label>
            <TextField
              id={`${row.key}-token`}
              label={t("tools.bearerToken")}
              kind="key"
              placeholder={t("web.optional")}
              value={row.bearerToken}
              onInput={(value) => update(row.key, (draft) => void (draft.bearerToken = value))}
              error={problemAt(row.key, "bearerToken")}
            />
            <McpOAuthClientFields
              rowKey={row.key}
              clientId={row.oauthClientId}
              clientSecret={row.oauthClientSecret}
              onClientId={(value) => update(row.key, (draft) => void (draft.oauthClientId = value))}
              onClientSecret={(value) => update(row.key, (draft) => void (draft.oauthClientSecret = value))}
              clientIdError={problemAt(row.key, "oauthClientId")}
              clientSecretError={problemAt(row.key, "oauthClientSecret")}
            />
            <div class="field">
              <label for={`${row.key}-headers`}>{t("tools.headers")}</label>
              <textarea
                id={`${row.key}-headers`}
                rows={2}
                spellcheck={false}
                placeholder="X-Api-Key: …"
                aria-invalid={problemAt(row.key, "headers") ? "true" : undefined}
                aria-describedby={problemAt(row.key, "headers") ? `${row.key}-headers-error` : undefined}
                value={row.headers}
                onInput={(event) => update(row.key, (draft) => void (draft.headers = event.currentTarget.value))}
              />
              <FieldError id={`${row.key}-headers-error`} error={problemAt(row.key, "headers")} />
              <p class="hint">{t("tools.headersHint")}</p>
            </div>
            <div class="inline">
              <div class="field">
                <label for={`${row.key}-description`}>{t("tools.description")}</label>
                <input
                  id={`${row.key}-description`}
                  type="text"
                  value={row.description}
                  placeholder={t("web.optional")}
                  onInput={(event) => update(row.key, (draft) => void (draft.description = event.currentTarget.value))}
                />
              </div>
              <div class="field">
                <label for={`${row.key}-timeout`}>{t("tools.timeout")}</label>
                <input
                  id={`${row.key}-timeout`}
                  type="number"
                  min={1}
                  max={3600}
                  placeholder="60"
                  aria-invalid={problemAt(row.key, "timeout") ? "true" : undefined}
                  aria-describedby={problemAt(row.key, "timeout") ? `${row.key}-timeout-error` : undefined}
                  value={row.timeoutSeconds}
                  onInput={(event) =>
                    update(row.key, (draft) => void (draft.timeoutSeconds = event.currentTarget.value))
                  }
                />
                <FieldError id={`${row.key}-timeout-error`} error={problemAt(row.key, "timeout")} />
              </div>
            </div>
            <div class="actions">
              <button type="button" disabled={tests[row.key]?.kind === "busy"} onClick={() => void test(row)}>
                {t("tools.test")}
              </button>
              <Show when={signIns[row.key] === "needed" || signIns[row.key] === "waiting"}>
                <button type="button" class="primary" onClick={() => void signIn(row)}>
                  {t("tools.signIn")}
                </button>
              </Show>
              <Show when={signIns[row.key] === "signed-in"}>
                <button type="button" class="ghost" onClick={() => void signOut(row)}>
                  {t("tools.signOut")}
                </button>
              </Show>
              <button
                type="button"
                class="ghost danger-text"
                aria-label={t("tools.removeServer", { name: row.name.trim() }).trim()}
                onClick={() => remove(row.key)}
              >
                {t("subagents.remove")}
              </button>
            </div>
            <StatusLine
              status={
                tests[row.key]?.kind === "busy"
                  ? { kind: "busy", text: t("tools.testing") }
                  : tests[row.key]?.kind === "error"
                    ? { kind: "error", text: (tests[row.key] as { text: string }).text }
                    : signIns[row.key] === "waiting"
                      ? { kind: "busy", text: t("tools.signingIn") }
                      : signIns[row.key] === "signed-in"
                        ? { kind: "ok", text: t("tools.signedIn") }
                        : undefined
              }
            />
            <Show when={toolList(row).length > 0}>
              <ul class="mcp-tools" aria-label={t("tools.toolsOf", { name: row.name.trim() })}>
                <For each={toolList(row)}>
                  {(tool, index) => {
                    const noteId = () => `${row.key}-tool-${String(index())}-note`;
                    const note = () => namingNote(row.key, tool.name);
                    return (
                      <li>
                        <label class="switch-field">
                          <input
                            type="checkbox"
                            role="switch"
                            checked={!row.disabledTools.includes(tool.name)}
                            aria-describedby={note() ? noteId() : undefined}
                            onChange={(event) => switchTool(row.key, tool.name, event.currentTarget.checked)}
                          />
                          <span class="mcp-tool-name">{tool.name}</span>
                        </label>
                        <Show when={note()}>
                          {(text) => (
                            <p class="hint mcp-tool-note" id={noteId()}>
                              {text()}
                            </p>
                          )}
                        </Show>
                        <Show when={tool.description}>
                          <p class="hint">{tool.description}</p>
                        </Show>
                      </li>
                    );
                  }}
                </For>
              </ul>
            </Show>
            <Show when={row.tools?.length === 0}>
              <p class="hint">{t("tools.noTools")}</p>
            </Show>
          </fieldset>
        )}
      </For>
      <div class="inline">
        <button type="button" ref={addButton} disabled={!loaded()} onClick={add}>
          {t("tools.addServer")}
        </button>
        <button type="button" class="ghost" disabled={!loaded()} onClick={() => importInput.click()}>
          {t("tools.import")}
        </button>
        <input
          ref={importInput}
          type="file"
          accept=".json,application/json"
          aria-label={t("tools.importFile")}
          hidden
          onChange={(event) => void importFile(event.currentTarget.files?.[0])}
        />
        <button type="button" class="ghost" disabled={!loaded()} onClick={() => void exportFile()}>
          {t("tools.export")}
        </button>
      </div>
      <StatusLine status={status()} />
      <div class="actions">
        <button type="submit" class="primary" disabled={!loaded()}>
          {t("common.save")}
        </button>
      </div>
    </form>
  );
}
