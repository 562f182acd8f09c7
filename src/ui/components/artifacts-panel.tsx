// The Artifacts region: the files the agent presented (`present_files`), by name, each with a Download button, and
// an Install button for a `.skill` archive (e.g. one the skill-creator skill made). Previews per kind arrive with the
// workspace UI; downloading reads the file from the thread's storage.
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
  const [installed, setInstalled] = createSignal<string | undefined>();
  const install = (path: string) => {
    setFailure(undefined);
    setInstalled(undefined);
    props.client
      .installSkillFromThread(props.threadId, path)
      .then((skill) => setInstalled(`Installed ${skill.name}. It is on in Settings → Skills.`))
      .catch((error: unknown) => setFailure(errorMessage(error)));
  };
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
                <Show when={path.endsWith(".skill")}>
                  <button
                    type="button"
                    class="ghost"
                    aria-label={`Install skill ${fileName(path)}`}
                    onClick={() => install(path)}
                  >
                    Install
                  </button>
                </Show>
              </li>
            )}
          </For>
        </ul>
        <Show when={installed()}>
          <p class="status" role="status">
            {installed()}
          </p>
        </Show>
        <Show when={failure()}>
          <p class="status error" role="alert">
            {failure()}
          </p>
        </Show>
      </section>
    </Show>
  );
}
