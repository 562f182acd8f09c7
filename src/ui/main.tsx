// Page entry point: connects to the agent worker and mounts the UI. Keep it light: it is what loads first.
import { render } from "solid-js/web";
import { App } from "./app.tsx";
import { createAppState } from "./app-state.ts";
import { requestPersistentStorage } from "./settings/data-tab.tsx";
import { connectGateway } from "./gateway-client.ts";
import { i18nReady } from "./i18n/index.ts";
import { applyTheme, theme } from "./shared/theme.ts";
import "./styles.css";

const root = document.getElementById("root");
if (!root) throw new Error("index.html has no #root element");
// index.html's first script set it already (no flash); this keeps it right if that script could not run.
applyTheme(theme());
const state = createAppState(connectGateway());
// A Chinese UI waits for its dictionary (a small chunk) so that English never flashes first; English is immediate.
void i18nReady().then(() => render(() => <App state={state} />, root));
// Ask the browser not to evict threads under storage pressure (Chromium decides without a prompt).
void requestPersistentStorage().catch(() => undefined);
