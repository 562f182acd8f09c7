// What a web image shows in rendered Markdown and in a diagram: "Load image" naming its host and "Always" for that
// host until the user allows it (remote-images.ts), then the image, fetched by the page and shown from a `blob:`
// (remote-image-fetch.ts), or a sentence saying it could not be loaded with its address to open in a new tab.
import { createResource, Match, Show, Switch, type JSX } from "solid-js";
import { t } from "../i18n/index.ts";
import { fetchRemoteImage, type FetchedImage } from "./remote-image-fetch.ts";
import { alwaysLoadImagesFrom, imageMayLoad, loadImage } from "./remote-images.ts";

/** A click on a placeholder's button is its own: not a click on a link around the image, nor on a thread file. */
function own(handler: () => void): (event: MouseEvent) => void {
  return (event) => {
    event.preventDefault();
    event.stopPropagation();
    handler();
  };
}

/** "Load image from host" and "Always". */
export function LoadImageButtons(props: { url: URL }) {
  const host = () => props.url.host;
  return (
    <>
      <button type="button" class="load-image" title={props.url.href} on:click={own(() => loadImage(props.url))}>
        {t("markdown.loadImage", { host: host() })}
      </button>
      <button
        type="button"
        class="load-image-always"
        aria-label={t("markdown.alwaysLoadImages", { host: host() })}
        title={t("markdown.alwaysLoadImages", { host: host() })}
        on:click={own(() => alwaysLoadImagesFrom(props.url))}
      >
        {t("markdown.always")}
      </button>
    </>
  );
}

/** Why an allowed image is not shown, with its address to open outside Fawn. */
export function ImageUnavailable(props: { url: URL }) {
  return (
    <span class="image-unavailable" role="status">
      {t("markdown.imageUnavailable", { host: props.url.host })}{" "}
      <a href={props.url.href} target="_blank" rel="noopener noreferrer nofollow">
        {t("markdown.openImage")}
      </a>
    </span>
  );
}

/**
 * The image at `url` once the user allows it: `children` gets its `blob:` URL; before, the buttons; while it loads,
 * nothing; when it cannot be loaded, ImageUnavailable.
 */
export function AllowedImage(props: { url: URL; children: (blobUrl: string) => JSX.Element }) {
  const [image] = createResource<FetchedImage, URL>(
    () => (imageMayLoad(props.url) ? props.url : undefined),
    (url) => fetchRemoteImage(url),
  );
  const shown = () => {
    const value = image();
    return value && "blobUrl" in value ? value.blobUrl : undefined;
  };
  return (
    <Show when={imageMayLoad(props.url)} fallback={<LoadImageButtons url={props.url} />}>
      <Switch>
        <Match when={shown()}>{(blobUrl) => props.children(blobUrl())}</Match>
        <Match when={image() && !shown()}>
          <ImageUnavailable url={props.url} />
        </Match>
      </Switch>
    </Show>
  );
}

/** A web image in rendered Markdown: the buttons, then the image from its `blob:`. */
export function RemoteImage(props: { url: URL; alt: string }) {
  return <AllowedImage url={props.url}>{(blobUrl) => <img src={blobUrl} alt={props.alt} />}</AllowedImage>;
}
