// The Artifacts region: the files the agent presented (`present_files`), by name, each with a Download button.
// Previews per kind arrive with the workspace UI; downloading reads the file from the thread's storage.
import { createSignal, For, Show } from "solid-js";
import { errorMessage, type GatewayClient } from "../gateway-client.ts";

function fileName(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1);
}

/** Saves one of the thread's files through a temporary object URL. */
async function download(client: GatewayClient, threadId: string, path: string): Promise<void> {
  const file = await client.readThreadFile(threadId, path);
  const url = URL.createObjectURL(new Blob([file.bytes as Uint8Array<ArrayBuffer>], { type: file.mime_type }));
  const link = document.createElement("a");
  link.href = url;
  link.download = fileName(path);
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export function ArtifactsPanel(props: { client: GatewayClient; threadId: string; paths: readonly string[] }) {
  const [failure, setFailure] = createSignal<string | undefined>();
  return (
    <Show when={props.paths.length > 0}>
      <section class="artifacts" aria-label="Artifacts">
        <h2>Artifacts</h2>
        <ul>
          <For each={props.paths}>
            {(path) => (
              <li>
                <span class="artifact-name" title={path}>
                  {fileName(path)}
                </span>
                <button
                  type="button"
                  class="ghost"
                  aria-label={`Download ${fileName(path)}`}
                  onClick={() => {
                    setFailure(undefined);
                    download(props.client, props.threadId, path).catch((error: unknown) =>
                      setFailure(errorMessage(error)),
                    );
                  }}
                >
                  Download
                </button>
              </li>
            )}
          </For>
        </ul>
        <Show when={failure()}>
          <p class="status error" role="alert">
            {failure()}
          </p>
        </Show>
      </section>
    </Show>
  );
}
