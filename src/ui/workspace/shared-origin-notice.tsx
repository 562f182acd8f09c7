// Served as a GitHub Pages project site (`<owner>.github.io/<repository>/`), Fawn shares its origin, and so its
// IndexedDB and keys, with the owner's other Pages sites: this notice says so once, links to the README section on
// giving Fawn an origin of its own, and stays away once dismissed. Never shown on any other origin.
import { createSignal, Show } from "solid-js";
import { t } from "../i18n/index.ts";
import {
  dismissSharedOriginNotice,
  isSharedPagesOrigin,
  sharedOriginNoticeDismissed,
  sharedOriginReadmeUrl,
  type ServedAt,
} from "../shared/pages-origin.ts";

/** Where this page is served: its hostname and the folder the app was built for (its base URL's path). */
function servedAt(): ServedAt {
  return {
    hostname: location.hostname,
    basePath: new URL(import.meta.env.BASE_URL, document.baseURI).pathname,
  };
}

export function SharedOriginNotice() {
  const at = servedAt();
  const [open, setOpen] = createSignal(isSharedPagesOrigin(at) && !sharedOriginNoticeDismissed());
  const dismiss = () => {
    dismissSharedOriginNotice();
    setOpen(false);
  };
  return (
    <Show when={open()}>
      <div class="notice origin-notice" role="alert">
        <p>
          {t("origin.shared", { origin: location.origin, owner: at.hostname.split(".")[0] ?? "" })}{" "}
          <a href={sharedOriginReadmeUrl(at)} target="_blank" rel="noopener noreferrer">
            {t("origin.howTo")}
          </a>
        </p>
        <button type="button" class="ghost" aria-label={t("common.dismiss")} onClick={dismiss}>
          ×
        </button>
      </div>
    </Show>
  );
}
