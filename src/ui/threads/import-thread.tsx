// "Import thread": brings a thread into Fawn — a Fawn bundle, or a DeerFlow thread (its folder with thread.json beside
// user-data/, a .zip of that folder, thread.json with its files, or Fawn's DeerFlow JSON export under any name) —
// through the Gateway, which checks it whole before writing anything.
import * as Comlink from "comlink";
import { createSignal, onCleanup, onMount, Show } from "solid-js";
import type { GatewayApi } from "../../protocol/index.ts";
import { errorMessage } from "../gateway-client.ts";
import { t } from "../i18n/index.ts";
import { StatusLine } from "../shared/status-line.tsx";
import { readThreadPick } from "./import-thread-files.ts";

export type ImportThreadClient = {
  threads: Pick<GatewayApi["threads"], "importDeerFlow">;
  bundles: Pick<GatewayApi["bundles"], "import">;
};

/**
 * The button "Import thread" and its menu: "From a folder…" opens the file input "Thread folder" (a directory
 * picker), "From a .zip or files…" the file input "Thread files". `onImported` gets the new thread's id; a refusal
 * shows as an alert under the button.
 */
export function ImportThreadButton(props: { client: ImportThreadClient; onImported: (threadId: string) => void }) {
  const [open, setOpen] = createSignal(false);
  const [busy, setBusy] = createSignal(false);
  const [failure, setFailure] = createSignal<string | undefined>();
  let anchor: HTMLDivElement | undefined;
  let folderPicker!: HTMLInputElement;
  let filesPicker!: HTMLInputElement;

  const close = (event: MouseEvent) => {
    if (anchor && !anchor.contains(event.target as Node)) setOpen(false);
  };
  onMount(() => {
    // Not in Solid's JSX types; every engine Fawn runs on supports it.
    folderPicker.webkitdirectory = true;
    document.addEventListener("click", close);
  });
  onCleanup(() => document.removeEventListener("click", close));

  const importPicked = async (input: HTMLInputElement) => {
    const picked = [...(input.files ?? [])];
    input.value = "";
    if (picked.length === 0) return;
    setBusy(true);
    setFailure(undefined);
    try {
      // A Fawn bundle imports as it is; anything else is read as a DeerFlow thread.
      const pick = await readThreadPick(picked);
      if (pick.kind === "bundle") {
        const thread = await props.client.bundles.import(pick.file);
        props.onImported(thread.thread_id);
        return;
      }
      const request = pick.input;
      // The bytes move to the worker instead of being copied (a thread may bring up to 200 MB).
      const buffers = [...new Set(request.files.map((file) => file.bytes.buffer as ArrayBuffer))];
      const thread = await props.client.threads.importDeerFlow(Comlink.transfer(request, buffers));
      props.onImported(thread.thread_id);
    } catch (error) {
      setFailure(errorMessage(error));
    } finally {
      setBusy(false);
    }
  };

  const choose = (input: HTMLInputElement) => {
    setOpen(false);
    setFailure(undefined);
    input.click();
  };

  return (
    <div class="import-thread">
      <div
        class="menu-anchor"
        ref={anchor}
        onKeyDown={(event) => {
          if (event.key === "Escape") setOpen(false);
        }}
      >
        <button
          type="button"
          class="ghost"
          aria-haspopup="menu"
          aria-expanded={open()}
          aria-busy={busy()}
          disabled={busy()}
          title={t("import.title")}
          onClick={() => setOpen(!open())}
        >
          {t("import.button")}
        </button>
        <Show when={open()}>
          <div class="menu" role="menu" aria-label={t("import.button")}>
            <button type="button" role="menuitem" onClick={() => choose(folderPicker)}>
              {t("import.fromFolder")}
            </button>
            <button type="button" role="menuitem" onClick={() => choose(filesPicker)}>
              {t("import.fromFiles")}
            </button>
          </div>
        </Show>
      </div>
      <input
        ref={folderPicker}
        type="file"
        hidden
        aria-label={t("import.folderInput")}
        onChange={(event) => void importPicked(event.currentTarget)}
      />
      <input
        ref={filesPicker}
        type="file"
        multiple
        hidden
        aria-label={t("import.filesInput")}
        onChange={(event) => void importPicked(event.currentTarget)}
      />
      <StatusLine
        status={
          busy()
            ? { kind: "busy", text: t("import.importing") }
            : failure()
              ? { kind: "error", text: failure() as string }
              : undefined
        }
      />
    </div>
  );
}
