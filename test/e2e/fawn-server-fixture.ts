// A real Fawn server for the end-to-end tests: `npx tsx server/main.ts` in a child process on a free port, its
// embedded Postgres in a temp folder, an admin token made for it, any web origin allowed (the app runs on
// playwright.config.ts's preview port), and the e2e mock model (MOCK_PORT) as every user's model. Start it in
// beforeAll and call `stop()` in afterAll: it ends the server's whole process group and removes the folder.
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { expect, type Page } from "@playwright/test";
import { closeSettings, MOCK_URL, openSettings } from "./fixtures.ts";

const REPO = resolve(import.meta.dirname, "../..");
/** A loaded machine (two cores, several browsers) takes tsx and the embedded Postgres 20 s or more to start. */
export const START_TIMEOUT_MS = 120_000;
const STOP_TIMEOUT_MS = 10_000;

export interface FawnServer {
  /** `http://127.0.0.1:<port>`: what a user types as "Server URL". */
  url: string;
  /** `<url>/api`: LangGraph's API and DeerFlow's REST routes. */
  apiUrl: string;
  /** The admin's access token (FAWN_SERVER_TOKEN). */
  token: string;
  /** `fetch` of `path` under `url` with the token (for a test's own setup or checks). */
  request(path: string, init?: RequestInit): Promise<Response>;
  /** Ends the server (SIGTERM, then SIGKILL) and removes its data folder. Safe to call twice. */
  stop(): Promise<void>;
}

export interface FawnServerOptions {
  /** The admin's token; a new random one by default. */
  token?: string;
  /** More environment for the server (FAWN_RUN_LEASE_MS…). */
  env?: Record<string, string>;
}

/**
 * Starts a Fawn server with the mock model; resolves once it answers `/ok`. It can take START_TIMEOUT_MS on a loaded
 * machine: give the beforeAll that calls it as long (`test.setTimeout(START_TIMEOUT_MS)` inside it).
 */
export async function startFawnServer(options: FawnServerOptions = {}): Promise<FawnServer> {
  const token = options.token ?? `e2e-${randomBytes(16).toString("hex")}`;
  const dataDir = mkdtempSync(join(tmpdir(), "fawn-e2e-server-"));
  const child = spawn("npx", ["tsx", "server/main.ts"], {
    cwd: REPO,
    // Its own process group, so stop() ends npx, tsx and node together.
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      ...process.env,
      PORT: "0",
      HOST: "127.0.0.1",
      FAWN_SERVER_DATA: dataDir,
      FAWN_SERVER_TOKEN: token,
      FAWN_SERVER_ORIGINS: "*",
      FAWN_MODEL_BASE_URL: MOCK_URL,
      FAWN_MODEL: "mock-model",
      FAWN_MODEL_API_KEY: "sk-test-key",
      // No fawn-server.json of the checkout (there is none in git) is read: the environment configures it all.
      FAWN_SERVER_CONFIG: "",
      ...options.env,
    },
  });
  let log = "";
  child.stdout?.setEncoding("utf8").on("data", (chunk: string) => (log += chunk));
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => (log += chunk));

  let stopped = false;
  // A test process that ends before stop() (a beforeAll that timed out) still ends the server's group.
  const onExit = () => killGroup(child, "SIGKILL");
  process.once("exit", onExit);
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    process.off("exit", onExit);
    await endGroup(child);
    rmSync(dataDir, { recursive: true, force: true });
  };

  try {
    const url = await listeningUrl(child, () => log);
    await waitForOk(url, child, () => log);
    const request = (path: string, init: RequestInit = {}) => {
      const headers = new Headers(init.headers);
      headers.set("authorization", `Bearer ${token}`);
      return fetch(`${url}${path}`, { ...init, headers });
    };
    return { url, apiUrl: `${url}/api`, token, request, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/**
 * Connects the page to `server` as a user does: Settings → Servers, "Server URL", "Access token", "Connect"; waits
 * for the server's group, closes Settings and resolves to the server's name (its host, as the group is named).
 */
export async function connectServer(page: Page, server: Pick<FawnServer, "url" | "token">): Promise<string> {
  const dialog = await openSettings(page, "Servers");
  const panel = dialog.getByRole("tabpanel", { name: "Servers" });
  await panel.getByRole("textbox", { name: "Server URL" }).fill(server.url);
  await panel.getByRole("textbox", { name: "Access token" }).fill(server.token);
  await panel.getByRole("button", { name: "Connect", exact: true }).click();
  const name = server.url.replace(/^https?:\/\//, "");
  await expect(panel.getByRole("status")).toContainText(`Connected to ${name}`);
  await expect(panel.getByRole("group", { name })).toBeVisible();
  await closeSettings(page);
  return name;
}

/** The URL of the start banner's first line ("Fawn server listening on http://127.0.0.1:PORT (replica …)"). */
function listeningUrl(child: ChildProcess, log: () => string): Promise<string> {
  return new Promise((done, fail) => {
    const timer = setTimeout(
      () => fail(new Error(`The Fawn server did not start in ${START_TIMEOUT_MS / 1000} s:\n${log().slice(-3_000)}`)),
      START_TIMEOUT_MS,
    );
    const check = () => {
      const found = /Fawn server listening on (http:\/\/\S+)/.exec(log());
      if (found) {
        clearTimeout(timer);
        child.stdout?.off("data", check);
        child.off("exit", exited);
        done(found[1]!);
      }
    };
    const exited = (code: number | null) => {
      clearTimeout(timer);
      fail(new Error(`The Fawn server exited (${String(code)}) before listening:\n${log().slice(-3_000)}`));
    };
    child.stdout?.on("data", check);
    child.once("exit", exited);
    check();
  });
}

async function waitForOk(url: string, child: ChildProcess, log: () => string): Promise<void> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`The Fawn server exited early:\n${log().slice(-3_000)}`);
    const ok = await fetch(`${url}/api/ok`).then(
      (response) => response.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((wake) => setTimeout(wake, 200));
  }
  throw new Error(`The Fawn server did not answer /api/ok in ${START_TIMEOUT_MS / 1000} s:\n${log().slice(-3_000)}`);
}

/** SIGTERM to the child's process group (the server closes its database), SIGKILL when it lingers. */
async function endGroup(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
  const exited = new Promise<void>((done) => child.once("exit", () => done()));
  killGroup(child, "SIGTERM");
  const timer = setTimeout(() => killGroup(child, "SIGKILL"), STOP_TIMEOUT_MS);
  await exited;
  clearTimeout(timer);
}

/** Signals the child's process group (npx, tsx, node), if it is still there. */
function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // Already gone.
  }
}
