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
import { APP_STARTING_ATTRIBUTE, renderInSteps, whenIdle } from "./shared/start-steps.ts";
import { yieldToBrowser } from "./shared/yield-to-browser.ts";
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
const prerendered = document.documentElement.hasAttribute(FIRST_SCREEN_ATTRIBUTE);

/**
 * The app's start after the first paint, as a series of tasks, each short (a phone 4× slower than this machine must
 * not be blocked 50 ms by any): this module's evaluation; the stores; the agent worker's start (gateway-client.ts);
 * the app's shell, then each of its parts (shared/start-steps.ts); the swap; then what the first screen does not
 * need, in idle time. The prerendered first screen stays on screen (and the app hidden beside it) until the swap.
 */
async function start(element: HTMLElement): Promise<void> {
  // The prerendered first screen stays until its paint has been reported (at once in a build, whose index.html loads
  // this script only then; not so in `vite dev`): Chromium forgets the paint of text removed before it was reported,
  // and the app's identical welcome would count as the largest paint instead, later.
  if (prerendered) await firstPaint();
  await yieldToBrowser();
  // A server's workspace kept from the last visit (state/workspaces.ts, in the sidebar's "Workspace" chunk, loaded
  // only then); else this browser's. The key is state/workspaces.ts's WORKSPACE_KEY, written here so the first
  // screen does not load that module; a browser that refuses storage gets this browser's workspace.
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
  // A Chinese UI waits for its dictionary (a small chunk) so that English never flashes first; English is immediate.
  await Promise.all([i18nReady(), started]);
  await yieldToBrowser();
  // The app renders beside the first screen, hidden (base.css) until it is whole; then the first screen gives way
  // to it in one task, so no frame shows both or neither.
  const shown = [...element.childNodes];
  element.setAttribute(APP_STARTING_ATTRIBUTE, "");
  await renderInSteps(
    () =>
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
        element,
      ),
    yieldToBrowser,
  );
  await yieldToBrowser();
  for (const node of shown) node.remove();
  element.removeAttribute(APP_STARTING_ATTRIBUTE);
  afterStart();
}

/** What the first screen did not need, each in a task of its own once the app is on screen. */
function afterStart(): void {
  // The Markdown renderer: in idle time when a thread may open (its messages follow soon); on a first visit's
  // welcome, once the user first does something (a message needs typing, a thread opening needs a click or a key),
  // as evaluating it is the longest task of the load.
  const markdown = () => void preloadMarkdown().catch(() => undefined);
  if (!prerendered) whenIdle(markdown);
  else
    for (const type of ["focusin", "pointerdown", "keydown"]) window.addEventListener(type, markdown, { once: true });
  // The dialogs, one per idle period (so that opening one has no wait).
  preloadDialogs(whenIdle);
  // This browser's scheduled runs, driven by one open tab at a time (schedules/schedule-driver.ts).
  whenIdle(
    () => void import("./schedules/schedule-driver.ts").then((driver) => void driver.startScheduleDriver(shownStores)),
  );
  // Agents in the browser (WebMCP): Fawn's operations as tools, loaded only where the browser offers them.
  if ("modelContext" in document || "modelContext" in navigator)
    void import("./webmcp/register-tools.ts").then((webmcp) => webmcp.registerFawnTools(shownStores));
  // Ask the browser not to evict threads under storage pressure (Chromium decides without a prompt).
  void requestPersistentStorage().catch(() => undefined);
}

void start(root);
