// Page entry point: connects to the agent worker and mounts the UI. Keep it light: it is what loads first.
import { render } from "solid-js/web";
import { App, preloadDialogs } from "./app.tsx";
import { createAppState } from "./app-state.ts";
import { connectGateway } from "./gateway-client.ts";
import { i18nReady } from "./i18n/index.ts";
import { preloadMarkdown } from "./markdown/lazy-markdown.tsx";
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
import "./composer/composer.css";
import "./replay/replay.css";
import "./settings/settings.css";
import "./terminal/terminal.css";
import "./artifacts/artifacts.css";
import "./workspace/workspace.css";

const root = document.getElementById("root");
if (!root) throw new Error("index.html has no #root element");
// index.html's first script set it already (no flash); this keeps it right if that script could not run.
applyTheme(theme());
const state = createAppState(connectGateway());
// A Chinese UI waits for its dictionary (a small chunk) so that English never flashes first; English is immediate.
void i18nReady().then(() => {
  render(() => <App state={state} />, root);
  // What the first paint did not need, fetched after it: the Markdown renderer at once (a thread's messages follow
  // soon), the dialogs when the page is idle (so that opening one has no wait).
  requestAnimationFrame(() => setTimeout(() => void preloadMarkdown().catch(() => undefined), 0));
  if ("requestIdleCallback" in window) requestIdleCallback(preloadDialogs, { timeout: 5000 });
  else setTimeout(preloadDialogs, 2000);
});
// Ask the browser not to evict threads under storage pressure (Chromium decides without a prompt).
void requestPersistentStorage().catch(() => undefined);
