// Settings → Models, provider "On this device": the GGUF model files kept in this browser (chosen from disk or
// downloaded, with a progress bar while they come), each listed as one of the endpoint's models, "Remove" to delete
// one, and a few suggested models with their sizes and what they can honestly do.
import { createSignal, For, onMount, Show } from "solid-js";
import {
  detectReasoning,
  deviceContextWindow,
  RECOMMENDED_DEVICE_MODELS,
  type DeviceModelFile,
  type ModelEntry,
} from "../../../protocol/index.ts";
import { errorMessage } from "../../gateway-client.ts";
import { formatBytes, t } from "../../i18n/index.ts";
import { useModelChoice } from "../../state/stores.tsx";
import { StatusLine, type Status } from "../../shared/status-line.tsx";
import { FieldError } from "../fields/text-field.tsx";
import "./device-models.css";

export function DeviceModels(props: {
  /** The endpoint's models: one per kept file the user uses. */
  models: ModelEntry[];
  onModels: (models: ModelEntry[]) => void;
  /** What a refused Save found wrong with the endpoint's models. */
  error?: string | undefined;
}) {
  const modelChoice = useModelChoice();
  const [files, setFiles] = createSignal<DeviceModelFile[]>([]);
  const [url, setUrl] = createSignal("");
  const [progress, setProgress] = createSignal<{ done: number; total: number | undefined } | undefined>();
  const [status, setStatus] = createSignal<Status | undefined>();
  let picker: HTMLInputElement | undefined;

  /**
   * The kept files, and the endpoint's models made theirs: one entry per file, an entry the user edited kept as it is,
   * a new file's with its starting context window, and none for a file no longer kept (removed here or in another tab).
   */
  const listFiles = (kept: DeviceModelFile[]) => {
    setFiles(kept);
    const entries = kept.map(
      (file) =>
        props.models.find((entry) => entry.id === file.id) ?? {
          id: file.id,
          contextWindow: deviceContextWindow(file),
          tools: true,
          // Qwen 3's files can think: Thinking, Pro and Ultra switch it on, Flash off.
          ...(detectReasoning("on-device", file.id) === "enable-thinking" && { thinking: true }),
        },
    );
    const same =
      entries.length === props.models.length && entries.every((entry, index) => entry === props.models[index]);
    if (!same) props.onModels(entries);
  };
  onMount(() => {
    void modelChoice
      .listDeviceModels()
      .then(listFiles)
      .catch((error: unknown) => setStatus({ kind: "error", text: errorMessage(error) }));
  });

  /** Keeps a file (chosen or downloaded) with the progress bar up, then lists it among the endpoint's models. */
  const keep = async (
    adding: (onProgress: (done: number, total: number | undefined) => void) => Promise<DeviceModelFile>,
  ) => {
    setStatus(undefined);
    setProgress({ done: 0, total: undefined });
    try {
      const kept = await adding((done, total) => setProgress({ done, total }));
      listFiles([...files().filter((file) => file.id !== kept.id), kept]);
      setStatus({ kind: "ok", text: t("device.added", { name: kept.name }) });
    } catch (error) {
      setStatus({ kind: "error", text: errorMessage(error) });
    } finally {
      setProgress(undefined);
    }
  };
  const chooseFile = (file: File | undefined) => {
    if (file) void keep((onProgress) => modelChoice.addDeviceModel(file, onProgress));
  };
  const download = (address: string) => {
    if (!address.trim() || progress()) return;
    void keep((onProgress) => modelChoice.downloadDeviceModel(address, onProgress));
  };
  const remove = async (file: DeviceModelFile) => {
    try {
      await modelChoice.removeDeviceModel(file.id);
      listFiles(files().filter((each) => each.id !== file.id));
      setStatus({ kind: "ok", text: t("device.removed", { name: file.name }) });
    } catch (error) {
      setStatus({ kind: "error", text: errorMessage(error) });
    }
  };

  return (
    <section class="device-models">
      <p class="hint">{t("device.hint")}</p>
      <div class="inline">
        <button type="button" disabled={progress() !== undefined} onClick={() => picker?.click()}>
          {t("device.choose")}
        </button>
        <input
          ref={picker}
          type="file"
          accept=".gguf"
          hidden
          onChange={(event) => {
            chooseFile(event.currentTarget.files?.[0]);
            event.currentTarget.value = "";
          }}
        />
      </div>
      <div class="field">
        <label for="device-model-url">{t("device.url")}</label>
        <div class="inline">
          <input
            id="device-model-url"
            type="url"
            autocomplete="off"
            spellcheck={false}
            placeholder="https://huggingface.co/…/model.gguf"
            aria-describedby="device-model-url-hint"
            value={url()}
            onInput={(event) => setUrl(event.currentTarget.value)}
            onKeyDown={(event) => {
              if (event.key === "Enter") {
                event.preventDefault();
                download(url());
              }
            }}
          />
          <button type="button" class="ghost" disabled={progress() !== undefined} onClick={() => download(url())}>
            {t("device.download")}
          </button>
        </div>
        <p class="hint" id="device-model-url-hint">
          {t("device.urlHint")}
        </p>
      </div>
      <Show when={progress()}>
        {(now) => (
          <div class="device-progress">
            {/* Without a total (no Content-Length), the bar is indeterminate: it has no value at all. */}
            <progress
              aria-label={t("device.progress")}
              {...(now().total ? { max: now().total, value: now().done } : {})}
            />
            <span class="hint">
              {now().total
                ? t("device.progressText", { done: formatBytes(now().done), total: formatBytes(now().total!) })
                : t("device.progressUnknown", { done: formatBytes(now().done) })}
            </span>
            <button type="button" class="ghost" onClick={() => void modelChoice.cancelDeviceModelCopy()}>
              {t("device.cancel")}
            </button>
          </div>
        )}
      </Show>
      <StatusLine status={status()} />
      <h4>{t("device.kept")}</h4>
      <Show when={files().length > 0} fallback={<p class="hint">{t("device.none")}</p>}>
        <ul class="device-list">
          <For each={files()}>
            {(file) => (
              <li>
                <div class="device-about">
                  <span class="device-file-name">{file.name}</span>
                  <span class="hint">{formatBytes(file.size)}</span>
                </div>
                <button
                  type="button"
                  class="ghost"
                  aria-label={t("device.removeNamed", { name: file.name })}
                  onClick={() => void remove(file)}
                >
                  {t("device.remove")}
                </button>
              </li>
            )}
          </For>
        </ul>
      </Show>
      <FieldError id="settings-model-error" error={props.error} />
      <h4>{t("device.recommended")}</h4>
      <ul class="device-list">
        <For each={RECOMMENDED_DEVICE_MODELS}>
          {(model) => (
            <li>
              <div class="device-about">
                <span class="device-file-name">{model.name}</span>
                <span class="hint">≈ {formatBytes(model.size)}</span>
                <p class="hint">{model.note}</p>
              </div>
              <button
                type="button"
                class="ghost"
                disabled={progress() !== undefined}
                aria-label={t("device.getNamed", { name: model.name })}
                onClick={() => {
                  setUrl(model.url);
                  download(model.url);
                }}
              >
                {t("device.download")}
              </button>
            </li>
          )}
        </For>
      </ul>
    </section>
  );
}
