// Rendered Markdown from a chunk of its own (marked, DOMPurify and the renderer are not on the first screen): main.tsx
// starts fetching it right after the first paint, so it is there before a message is; until then a text shows as
// plain wrapped text in the same box.
import { deferred } from "../shared/deferred.tsx";

const View = deferred(() => import("./markdown-view.tsx").then((module) => module.Markdown));

/** Fetches the Markdown renderer's chunk (once). */
export const preloadMarkdown = (): Promise<unknown> => View.preload();

/** `source` rendered as sanitized HTML (markdown-view.tsx); plain text for the moment its chunk is still on the way. */
export function Markdown(props: { source: string; class?: string }) {
  return (
    <View
      source={props.source}
      class={props.class}
      fallback={
        <div class={props.class ? `markdown markdown-pending ${props.class}` : "markdown markdown-pending"}>
          {props.source}
        </div>
      }
    />
  );
}
