// What the view puts in a code block's toolbar placeholder (code-tools.ts): "Copy code", and for a finished
// ```mermaid block the diagram itself with a "Show source" / "Show diagram" toggle, or the source with a one-line
// error when the diagram does not parse. A web image the diagram names waits under it for "Load image", as in Markdown.
import { createEffect, createRoot, createSignal, For, Match, on, Show, Switch } from "solid-js";
import { insert } from "solid-js/web";
import { t } from "../i18n/index.ts";
import { CopyButton } from "../shared/copy-button.tsx";
import { theme } from "../shared/theme.ts";
import { CODE_TOOLS_ATTRIBUTE, codeText } from "./code-tools.ts";
import { within } from "./markdown-dom.ts";
import type { CleanDiagram, HeldImage } from "./diagram-sanitize.ts";
import { darkPalette, drawDiagram, type DiagramOutcome } from "./mermaid-diagram.ts";
import { AllowedImage } from "./remote-image-view.tsx";

/**
 * Puts a drawn diagram in `host`'s shadow root: the `<style>` mermaid draws into its SVG (which a diagram's source can
 * shape) then styles the diagram alone, never Fawn's page around it.
 */
function showInShadow(host: HTMLElement, svg: SVGSVGElement): void {
  const root = host.shadowRoot ?? host.attachShadow({ mode: "open" });
  const fit = document.createElement("style");
  fit.textContent = "svg { max-width: 100%; height: auto; }";
  root.replaceChildren(fit, svg);
}

/** The web images a diagram holds, one entry per address (an address may be drawn more than once). */
function heldAddresses(images: readonly HeldImage[]): { url: URL; elements: SVGImageElement[] }[] {
  const byAddress = new Map<string, { url: URL; elements: SVGImageElement[] }>();
  for (const { url, element } of images) {
    const entry = byAddress.get(url.href) ?? { url, elements: [] };
    entry.elements.push(element);
    byAddress.set(url.href, entry);
  }
  return [...byAddress.values()];
}

/** Puts an allowed image's `blob:` into the diagram's `<image>`s that name it. */
function ShowInDiagram(props: { elements: SVGImageElement[]; blobUrl: string }) {
  createEffect(() => props.elements.forEach((element) => element.setAttribute("href", props.blobUrl)));
  return null;
}

function MermaidDiagram(props: { source: string }) {
  const source = props.source;
  const [outcome, setOutcome] = createSignal<DiagramOutcome | undefined>();
  const [showSource, setShowSource] = createSignal(false);
  // Drawn again in the other palette when the theme changes.
  createEffect(
    on(theme, () => {
      let current = true;
      void drawDiagram(source, darkPalette()).then((drawn) => current && setOutcome(drawn));
      return () => (current = false);
    }),
  );
  const drawing = (): CleanDiagram | undefined => {
    const value = outcome();
    return value && "svg" in value ? value : undefined;
  };
  const drawn = () => drawing()?.svg;
  const failure = () => {
    const value = outcome();
    return value && "error" in value ? value.error : undefined;
  };
  return (
    <>
      <div class="code-tools-bar">
        <Show when={drawn()}>
          <button type="button" class="ghost small" on:click={() => setShowSource((shown) => !shown)}>
            {showSource() ? t("mermaid.showDiagram") : t("mermaid.showSource")}
          </button>
        </Show>
        <CopyButton label={t("copy.code")} text={() => source} />
      </div>
      <Switch>
        <Match when={drawn()}>
          {(svg) => (
            <div
              class="mermaid-diagram"
              role="img"
              aria-label={t("mermaid.diagram")}
              hidden={showSource()}
              ref={(host) => createEffect(() => showInShadow(host, svg()))}
            />
          )}
        </Match>
      </Switch>
      <Show when={drawing() && !showSource() && heldAddresses(drawing()!.images)}>
        {(held) => (
          <Show when={held().length > 0}>
            <div class="remote-image diagram-images">
              <For each={held()}>
                {(image) => (
                  <AllowedImage url={image.url}>
                    {(blobUrl) => <ShowInDiagram elements={image.elements} blobUrl={blobUrl} />}
                  </AllowedImage>
                )}
              </For>
            </div>
          </Show>
        )}
      </Show>
      <Switch>
        <Match when={failure()}>
          {(error) => <p class="mermaid-error">{t("mermaid.failed", { error: error() })}</p>}
        </Match>
        <Match when={!outcome()}>
          <p class="mermaid-drawing muted">{t("mermaid.rendering")}</p>
        </Match>
      </Switch>
    </>
  );
}

/**
 * Fills each new code toolbar placeholder in `scope` with its tools. Each is a root of its own, disposed with the view
 * (`disposers`); markdown-dom.ts keeps a placeholder's content while its block stays.
 */
export function showCodeTools(scope: Element, filled: WeakSet<Element>, disposers: (() => void)[]): void {
  for (const placeholder of within(scope, `[${CODE_TOOLS_ATTRIBUTE}]`)) {
    if (filled.has(placeholder)) continue;
    filled.add(placeholder);
    const pre = placeholder.nextElementSibling;
    if (!pre || pre.localName !== "pre") continue;
    const diagram = placeholder.getAttribute(CODE_TOOLS_ATTRIBUTE) === "mermaid";
    // The block's <pre> at click time: while a reply streams, markdown-dom.ts may replace it.
    const code = () => codeText(placeholder.nextElementSibling ?? pre);
    createRoot((dispose) => {
      disposers.push(dispose);
      insert(placeholder, () =>
        diagram ? <MermaidDiagram source={code()} /> : <CopyButton label={t("copy.code")} text={code} />,
      );
    });
  }
}
