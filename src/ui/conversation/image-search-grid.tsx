// image_search's tool step: the images as a grid of tiles, each titled and linked to the page it is on. Nothing is
// loaded from the web until the user presses "Show images" (a remote image is a request the model can steer, and
// its host sees it); then each thumbnail is fetched by the page without cookies or referrer and shown from a `blob:`
// (remote-image-fetch.ts: the page's Content-Security-Policy loads no web image by itself). A thumbnail whose host
// refuses that read gets "Open image" instead. Loaded with its own chunk, its styles beside it.
import { createResource, createUniqueId, Index, Match, Show, Switch } from "solid-js";
import { t } from "../i18n/index.ts";
import { fetchRemoteImage } from "../markdown/remote-image-fetch.ts";
import type { ImageHit } from "./image-search-step.ts";
import { useStepMemory } from "./step-memory.ts";
import "./image-search-grid.css";

function hostOf(url: string): string {
  return new URL(url).host;
}

function Thumbnail(props: { image: ImageHit }) {
  const [fetched] = createResource(() => new URL(props.image.thumbnailUrl), fetchRemoteImage);
  const blobUrl = () => {
    const value = fetched();
    return value && "blobUrl" in value ? value.blobUrl : undefined;
  };
  return (
    <Switch fallback={<span class="image-tile-frame" aria-busy="true" />}>
      <Match when={blobUrl()}>
        {(src) => <img class="image-tile-frame" src={src()} alt={props.image.title} referrerpolicy="no-referrer" />}
      </Match>
      <Match when={fetched() && !blobUrl()}>
        <a
          class="image-tile-frame image-tile-open"
          href={props.image.imageUrl}
          target="_blank"
          rel="noopener noreferrer nofollow"
        >
          {t("steps.openImage")}
        </a>
      </Match>
    </Switch>
  );
}

export default function ImageSearchGrid(props: { images: readonly ImageHit[]; callId: string }) {
  const memory = useStepMemory();
  const shown = () => memory.imagesShown(props.callId);
  const hintId = createUniqueId();
  return (
    <div class="image-search">
      <Show when={!shown()}>
        <p class="image-search-ask">
          <button type="button" aria-describedby={hintId} onClick={() => memory.showImages(props.callId)}>
            {t("steps.showImages")}
          </button>{" "}
          <span class="hint" id={hintId}>
            {t("steps.showImagesHint")}
          </span>
        </p>
      </Show>
      <ul class="image-grid" aria-label={t("steps.imageResults")}>
        <Index each={props.images}>
          {(image) => (
            <li class="image-tile">
              <Show when={shown()} fallback={<span class="image-tile-frame" aria-hidden="true" />}>
                <Thumbnail image={image()} />
              </Show>
              <a
                class="image-tile-title"
                href={image().sourceUrl ?? image().imageUrl}
                target="_blank"
                rel="noopener noreferrer nofollow"
                title={image().title}
              >
                {image().title || hostOf(image().sourceUrl ?? image().imageUrl)}
              </a>
              <span class="step-host">{hostOf(image().sourceUrl ?? image().imageUrl)}</span>
            </li>
          )}
        </Index>
      </ul>
    </div>
  );
}
