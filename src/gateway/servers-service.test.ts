// Settings → Servers as the Gateway keeps it: a checked server stored with its token among the secrets in one write,
// nothing stored for a refused one, a reconnect replacing the token, a disconnect forgetting both and closing the
// workspace; tokens never in a backup and redacted from errors. Over IndexedDB (fake-indexeddb) and the in-memory
// store; the server checks are scripted (server-probe.test.ts and test/server check the real ones).
import "fake-indexeddb/auto";
import { strFromU8, strToU8, unzipSync, zipSync } from "fflate";
import { describe, expect, it } from "vitest";
import type { ServerConnectInput, WorkspaceGatewayApi } from "../protocol/index.ts";
import { indexedDbStorage, memoryStorage, openFawnDb, type FawnStorage } from "../storage/index.ts";
import { createGateway, type Gateway } from "./create-gateway.ts";
import type { ProbeResult } from "./remote/server-probe.ts";
import { guardedWorkspace } from "./remote/server-workspace.ts";
import type { ServerWorkspaceOptions } from "./remote/server-workspace.ts";
import { SERVERS_SETTINGS_KEY, ServersService } from "./servers-service.ts";

const TOKEN = "fawn-token-3f9a1c77e2b04d5e";
const OTHER_TOKEN = "fawn-token-88aa00bb11cc22dd";
const FEATURES = { fawn: true, uploads: true, artifacts: true, memory: true, skills: true, models: true };

/** A scripted check: fawn.example takes TOKEN (or OTHER_TOKEN), anything else is unreachable. */
async function probe(input: ServerConnectInput): Promise<ProbeResult> {
  const label = input.url.replace(/^https?:\/\//, "").replace(/\/$/, "");
  if (!input.url.includes("fawn.example")) {
    return { reachable: false, authorized: false, label, sentence: `Nothing answers at ${label}.` };
  }
  const found = {
    reachable: true,
    kind: "fawn" as const,
    url: "https://fawn.example",
    label,
    kindLabel: "Fawn server 0.1.0",
  };
  if (input.token !== TOKEN && input.token !== OTHER_TOKEN) {
    return { ...found, authorized: false, sentence: `${label} refused the access token.` };
  }
  return { ...found, authorized: true, features: FEATURES, sentence: `Found Fawn server 0.1.0 at ${label}: …` };
}

let dbCount = 0;
const storages: [string, () => Promise<FawnStorage>][] = [
  ["IndexedDB", async () => indexedDbStorage(await openFawnDb(`servers-service-test-${dbCount++}`))],
  ["memory", async () => memoryStorage()],
];

describe.each(storages)("ServersService over %s", (_name, openStorage) => {
  /** The service over a Gateway's storage (its backup is that Gateway's), with the check and workspace scripted. */
  async function setup(
    options: { openWorkspace?: (options: ServerWorkspaceOptions) => Promise<WorkspaceGatewayApi> } = {},
  ) {
    const storage = await openStorage();
    const notices: string[] = [];
    const gateway: Gateway = createGateway(storage, { notify: () => undefined });
    const servers = new ServersService({
      settings: storage.settings,
      local: () => gateway,
      notify: (notice) => notices.push(notice.type),
      probe,
      ...(options.openWorkspace && { openWorkspace: options.openWorkspace }),
    });
    return { storage, gateway, servers, notices };
  }

  it("checks without storing, then connects: the record in the settings, the token only among the secrets", async () => {
    const { storage, servers, notices } = await setup();
    const check = await servers.check({ url: "https://fawn.example/", token: TOKEN });
    expect(check).toMatchObject({ reachable: true, authorized: true, kind: "fawn", features: FEATURES });
    expect(await servers.list()).toEqual([]);
    expect(await storage.settings.secretValues()).not.toContain(TOKEN);

    const { server, sentence } = await servers.connect({ url: "https://fawn.example/", token: ` ${TOKEN} ` });
    expect(sentence).toBe(
      "Connected to fawn.example (Fawn server 0.1.0): threads, runs, uploads, artifacts, memory and skills.",
    );
    expect(server).toMatchObject({
      name: "fawn.example",
      url: "https://fawn.example",
      kind: "fawn",
      features: FEATURES,
    });
    expect(await servers.list()).toEqual([server]);
    const { value, apiKeys } = await storage.settings.getWithApiKeys(SERVERS_SETTINGS_KEY);
    expect(JSON.stringify(value)).not.toContain(TOKEN);
    expect(apiKeys.get(server.id)).toBe(TOKEN);
    expect(await storage.settings.secretValues()).toContain(TOKEN);
    expect(notices).toContain("settings-changed");
  });

  it("stores nothing when the server refuses the token or cannot be reached, and says why", async () => {
    const { storage, servers } = await setup();
    await expect(servers.connect({ url: "https://fawn.example", token: "wrong-token" })).rejects.toThrow(
      "fawn.example refused the access token.",
    );
    await expect(servers.connect({ url: "http://127.0.0.1:9", token: TOKEN })).rejects.toThrow(
      "Nothing answers at 127.0.0.1:9.",
    );
    expect(await servers.list()).toEqual([]);
    expect(await storage.settings.secretValues()).toEqual([]);
    expect(await storage.settings.get(SERVERS_SETTINGS_KEY)).toBeUndefined();
  });

  it("refuses a blank URL and a token a server could not receive, before calling anything", async () => {
    const { servers } = await setup();
    await expect(servers.check({ url: "  " })).rejects.toThrow("Enter the server's URL.");
    await expect(servers.connect({ url: "https://fawn.example", token: "two words" })).rejects.toThrow(
      "The access token has a space, a line break or a character a server cannot receive.",
    );
  });

  it("connecting the same URL again keeps the server and replaces its token; disconnect forgets both", async () => {
    const { storage, servers } = await setup();
    const first = (await servers.connect({ url: "https://fawn.example", token: TOKEN, name: "Work" })).server;
    const again = (await servers.connect({ url: "https://fawn.example/", token: OTHER_TOKEN })).server;
    expect(again.id).toBe(first.id);
    expect(again.name).toBe("Work");
    expect(await servers.list()).toHaveLength(1);
    const secrets = await storage.settings.secretValues();
    expect(secrets).toContain(OTHER_TOKEN);
    expect(secrets).not.toContain(TOKEN);

    await servers.disconnect(first.id);
    expect(await servers.list()).toEqual([]);
    expect(await storage.settings.secretValues()).toEqual([]);
    // Disconnecting a server no longer there is no error.
    await servers.disconnect(first.id);
  });

  it("leaves the servers and their tokens out of Settings → Data's backup, and out of what an import restores", async () => {
    const { gateway, servers } = await setup();
    await servers.connect({ url: "https://fawn.example", token: TOKEN });
    const archive = new Uint8Array(await (await gateway.data.export()).blob.arrayBuffer());
    const texts = [
      new TextDecoder("latin1").decode(archive),
      ...Object.values(unzipSync(archive)).map((data) => strFromU8(data)),
    ];
    expect(texts.some((text) => text.includes(TOKEN))).toBe(false);
    expect(texts.some((text) => text.includes("https://fawn.example"))).toBe(false);

    // A backup that holds a servers record anyway (made by hand) does not add a server.
    const other = await setup();
    const files = unzipSync(archive);
    const settings = JSON.parse(strFromU8(files["settings.json"]!)) as { settings: unknown[] };
    const evil = { id: "x", name: "Evil", url: "https://evil.example", kind: "fawn", features: FEATURES, added_at: 1 };
    settings.settings.push({ key: SERVERS_SETTINGS_KEY, value: [evil] });
    files["settings.json"] = strToU8(JSON.stringify(settings));
    const manifest = JSON.parse(strFromU8(files["manifest.json"]!)) as { counts: { settings: number } };
    manifest.counts.settings += 1;
    files["manifest.json"] = strToU8(JSON.stringify(manifest));
    await other.gateway.data.import(zipSync(files), { acceptAdditions: true });
    expect(await other.servers.list()).toEqual([]);
  });

  it("opens one workspace per server with its token, again after it closed, never after a disconnect", async () => {
    const opened: ServerWorkspaceOptions[] = [];
    const { gateway, servers } = await setup({
      openWorkspace: async (options) => {
        opened.push(options);
        return fakeWorkspace(async () => options.onClose());
      },
    });
    await expect(servers.open("no-such-server")).rejects.toThrow(
      "That server is not connected any more: connect it again in Settings → Servers.",
    );
    const { server } = await servers.connect({ url: "https://fawn.example", token: TOKEN });
    const [a, b] = await Promise.all([servers.open(server.id), servers.open(server.id)]);
    expect(a).toBe(b);
    expect(opened).toHaveLength(1);
    expect(opened[0]).toMatchObject({ server, token: TOKEN });
    expect(opened[0]!.local).toBe(gateway);

    await a.workspace.close();
    await servers.open(server.id);
    expect(opened).toHaveLength(2);

    await servers.disconnect(server.id);
    await expect(servers.open(server.id)).rejects.toThrow("not connected any more");

    // Deleted with all data (Settings → Data): the open workspace is closed and not handed out again.
    const { server: back } = await servers.connect({ url: "https://fawn.example", token: TOKEN });
    const reopened = await servers.open(back.id);
    let closed = false;
    const close = reopened.workspace.close;
    reopened.workspace.close = async () => {
      closed = true;
      await close();
    };
    await gateway.data.deleteAll();
    await expect(servers.open(back.id)).rejects.toThrow("not connected any more");
    expect(closed).toBe(true);
  });
});

/** A workspace whose threads.list fails with a message quoting the token, and whose close is `close`. */
function fakeWorkspace(close: () => Promise<void>): WorkspaceGatewayApi {
  return {
    threads: {
      list: async () => {
        throw new Error(`The server said: Bearer ${TOKEN} is not valid`);
      },
      get: () => {
        throw new TypeError(`sync ${TOKEN}`);
      },
    },
    workspace: { close, server: async () => undefined, connection: async () => ({ state: "online" }) },
  } as unknown as WorkspaceGatewayApi;
}

describe("guardedWorkspace", () => {
  it("redacts the token from every error a domain gives, and calls close once on workspace.close", async () => {
    let closed = 0;
    const inner = fakeWorkspace(async () => undefined);
    const guarded = guardedWorkspace(
      inner,
      (text) => text.replaceAll(TOKEN, "[redacted key]"),
      async () => {
        closed++;
      },
    );
    const error = (await guarded.threads.list().catch((caught: unknown) => caught)) as Error;
    expect(error.message).toBe("The server said: Bearer [redacted key] is not valid");
    expect(error.stack).not.toContain(TOKEN);
    expect(() => guarded.threads.get("x")).toThrow("sync [redacted key]");
    expect(guarded.threads).toBe(guarded.threads);
    await guarded.workspace.close();
    expect(closed).toBe(1);
    expect(await guarded.workspace.connection()).toEqual({ state: "online" });
  });
});
