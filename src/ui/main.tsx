// Page entry point: connects to the agent worker and mounts the UI. Keep it light: it is what loads first. When
// index.html shows its prerendered first screen, its first script loads this only once that screen's paint has been
// reported (src/shared/first-screen.ts).
import { Show } from "solid-js";
import { render } from "solid-js/web";
import { App, preloadDialogs } from "./app.tsx";
import { createStores, showStores, shownStores, StoresProvider } from "./state/stores.tsx";
import { connectGateway } from "./gateway-client.ts";
import { i18nReady } from "./i18n/index.ts";
import { preloadMarkdown } from "./markdown/lazy-markdown.tsx";
import { FIRST_SCREEN_ATTRIBUTE } from "../shared/first-screen.ts";
import { firstPaint } from "./shared/first-paint.ts";
import { applyTheme, theme } from "./shared/theme.ts";
import { requestPersistentStorage } from "./shared/persistent-storage.ts";
// Every stylesheet, from here and in this order: one bundle that loads with the page (a lazy chunk's CSS would come
// late and flash unstyled), and the cascade they were written for (markdown before the conversation's tool steps,
// which restyle its code blocks; the workspace last, whose layouts rearrange the features).
import "./shared/base.css";
import "./threads/threads.css";
import "./threads/share.css";
import "./markdown/markdown.css";
import "./conversation/conversation.css";
import "./conversation/message-actions.css";
import "./conversation/approval-card.css";
import "./composer/composer.css";
import "./replay/replay.css";
import "./settings/settings.css";
import "./terminal/terminal.css";
import "./artifacts/artifacts.css";
import "./workspace/workspace.css";
import "./shared/notice-banner.css";

const root = document.getElementById("root");
if (!root) throw new Error("index.html has no #root element");
// index.html's first script set it already (no flash); this keeps it right if that script could not run.
applyTheme(theme());
// A server's workspace kept from the last visit (state/workspaces.ts, in the sidebar's "Workspace" chunk, loaded
// only then); else this browser's.
// The key is state/workspaces.ts's WORKSPACE_KEY, written here so the first screen does not load that module; a
// browser that refuses storage gets this browser's workspace.
const saved = (() => {
  try {
    return localStorage.getItem("fawn.workspace");
  } catch {
    return null;
  }
})();
const started = saved
  ? import("./workspace/workspace-switcher.tsx").then((module) => void module.startSavedWorkspace(saved))
  : showStores(createStores(connectGateway()));
const prerendered = document.documentElement.hasAttribute(FIRST_SCREEN_ATTRIBUTE);
// A Chinese UI waits for its dictionary (a small chunk) so that English never flashes first; English is immediate.
// The prerendered first screen stays until its paint has been reported (at once in a build, whose index.html loads
// this script only then; not so in `vite dev`): Chromium forgets the paint of text removed before it was reported, and
// the app's identical welcome would count as the largest paint instead, later.
void Promise.all([i18nReady(), prerendered && firstPaint(), started]).then(() => {
  // The first screen gives way to the app in this same task, so no frame shows both or neither.
  root.replaceChildren();
  render(
    // Another workspace, other stores: the app is made again over them.
    () => (
      <Show when={shownStores()} keyed>
        {(stores) => (
          <StoresProvider stores={stores}>
            <App init={stores.init} />
          </StoresProvider>
        )}
      </Show>
    ),
    root,
  );
  // What the first screen did not need, fetched once it has been painted. The Markdown renderer: at once when a thread
  // may open (its messages follow soon); on a first visit's welcome, once the user first does something (a message
  // needs typing, a thread opening needs a click or a key), as evaluating it is the longest task of the load. The
  // dialogs when the page is idle (so that opening one has no wait).
  const markdown = () => void preloadMarkdown().catch(() => undefined);
  void firstPaint().then(() => {
    if (!prerendered) markdown();
    else
      for (const type of ["focusin", "pointerdown", "keydown"]) window.addEventListener(type, markdown, { once: true });
    if ("requestIdleCallback" in window) requestIdleCallback(preloadDialogs, { timeout: 5000 });
    else setTimeout(preloadDialogs, 2000);
  });
  // This browser's scheduled runs, driven by one open tab at a time (schedules/schedule-driver.ts).
  void firstPaint()
    .then(() => import("./schedules/schedule-driver.ts"))
    .then((driver) => void driver.startScheduleDriver(shownStores));
  // Agents in the browser (WebMCP): Fawn's operations as tools, loaded only where the browser offers them.
  if ("modelContext" in document || "modelContext" in navigator)
    void import("./webmcp/register-tools.ts").then((webmcp) => webmcp.registerFawnTools(shownStores));
});
// Ask the browser not to evict threads under storage pressure (Chromium decides without a prompt).
void requestPersistentStorage().catch(() => undefined);
