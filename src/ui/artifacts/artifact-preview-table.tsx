// CSV and TSV as a table of at most TABLE_MAX_ROWS rows, with a note when the file has more.
import { createEffect, createSignal, For, on, onCleanup, Show } from "solid-js";
import { parseTable, type TablePreviewData } from "../shared/artifact-kinds.ts";
import { t } from "../i18n/index.ts";

/** The first row is the header. */
export function TablePreview(props: { text: string; delimiter: "," | "\t"; label: string }) {
  const [table, setTable] = createSignal<TablePreviewData | undefined>();
  const [failure, setFailure] = createSignal<string | undefined>();
  createEffect(
    on(
      () => [props.text, props.delimiter] as const,
      ([text, delimiter]) => {
        setTable(undefined);
        setFailure(undefined);
        let current = true;
        onCleanup(() => (current = false));
        parseTable(text, delimiter).then(
          (parsed) => current && setTable(parsed),
          (error: unknown) => current && setFailure(t("artifacts.tableFailed", { error: String(error) })),
        );
      },
    ),
  );
  return (
    <>
      <Show when={failure()}>
        <p class="status error" role="alert">
          {failure()}
        </p>
      </Show>
      <Show
        when={table()}
        fallback={
          <Show when={!failure()}>
            <p class="hint">Reading the table…</p>
          </Show>
        }
      >
        {(parsed) => (
          <>
            <Show when={parsed().total > parsed().rows.length}>
              <p class="hint">
                Showing the first {parsed().rows.length.toLocaleString("en")} of {parsed().total.toLocaleString("en")}{" "}
                rows.
              </p>
            </Show>
            <Show when={parsed().columns > 0} fallback={<p class="hint">The file has no rows.</p>}>
              <div class="artifact-table" tabIndex={0} role="group" aria-label={props.label}>
                <table>
                  <thead>
                    <tr>
                      <For each={parsed().header}>{(cell) => <th scope="col">{cell}</th>}</For>
                    </tr>
                  </thead>
                  <tbody>
                    <For each={parsed().rows}>
                      {(row) => (
                        <tr>
                          <For each={row}>{(cell) => <td>{cell}</td>}</For>
                        </tr>
                      )}
                    </For>
                  </tbody>
                </table>
              </div>
            </Show>
          </>
        )}
      </Show>
    </>
  );
}
