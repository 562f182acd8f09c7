// Agent worker entry point: opens storage and exposes the Gateway to the page through comlink: one member per domain,
// each the domain's service itself (the page's `gateway.threads.list()` calls ThreadsService.list with the service as
// `this`), each call waiting until storage is open. Thread sandboxes run in a worker of their own
// (workers/sandbox.worker.ts), so a runaway command can be killed without killing the agent; their python3 runs in the
// page's walled-off Python frames, which the page hands over once (sandbox.attachPythonHost).
import * as Comlink from "comlink";
import { openGateway } from "../src/gateway/index.ts";
import { GATEWAY_DOMAINS, PROTOCOL_VERSION, type GatewayDomain } from "../src/protocol/index.ts";
import { loadOpenAi, setDeviceRuntime } from "../src/models/index.ts";
import type { DeviceModelFiles } from "../src/storage/index.ts";
import { WorkerSandboxes } from "../src/sandbox/browser/worker-sandbox-client.ts";
import type { PythonFrameConnector } from "../src/sandbox/python/python-frame-protocol.ts";
import { whenReady } from "../src/shared/when-ready.ts";

const DB_NAME = "fawn";

let attachPythonHost: (host: Comlink.Remote<PythonFrameConnector>) => void = () => undefined;
const pythonHost = new Promise<Comlink.Remote<PythonFrameConnector>>((resolve) => (attachPythonHost = resolve));

const sandboxes = new WorkerSandboxes(
  () => new Worker(new URL("./sandbox.worker.ts", import.meta.url), { type: "module", name: "fawn-sandbox" }),
  {
    python: {
      connect: async () => (await pythonHost).connect(),
      disconnect: (id) => void pythonHost.then((host) => host.disconnect(id)).catch(() => undefined),
      warm: () => void pythonHost.then((host) => host.warm()).catch(() => undefined),
    },
  },
);

// "On this device": model files in the origin private file system, run by the device engine in this worker's child.
// Their code is a chunk of its own, loaded the first time Settings or a run asks for a model file.
let deviceFiles: Promise<DeviceModelFiles> | undefined;
const deviceModels = () =>
  (deviceFiles ??= import("../src/storage/device-model-files.ts").then(
    ({ DeviceModelFiles }) => new DeviceModelFiles(),
  ));
setDeviceRuntime({
  source: async (id) => (await deviceModels()).file(id),
  // A chunk of its own, in the lazy group `on-device` with the 10 MB file it names (scripts/precache-groups.ts).
  wasmUrl: async () => (await import("@wllama/wllama/esm/wasm/wllama.wasm?url")).default,
});

const gateway = openGateway(DB_NAME, {
  deviceModels,
  openSandbox: (threadId) => sandboxes.open(threadId),
  attachPythonHost: (host) => attachPythonHost(host as Comlink.Remote<PythonFrameConnector>),
});
/** A domain's service, its calls waiting for storage to open; a failed open rejects each call (and nothing else). */
function domainWhenReady(domain: GatewayDomain) {
  const service = gateway.then((opened) => opened[domain]);
  service.catch(() => undefined);
  return whenReady<object>(service);
}

Comlink.expose({
  protocolVersion: async () => PROTOCOL_VERSION,
  ...Object.fromEntries(GATEWAY_DOMAINS.map((domain) => [domain, domainWhenReady(domain)])),
  // A server's workspace, proxied: the page calls its domains as it calls these (its code loads on first use).
  openWorkspace: async (serverId: string) => Comlink.proxy(await (await gateway).openWorkspace(serverId)),
});
// The OpenAI SDK is a chunk of its own so that the Gateway answers sooner; fetched once it does, before a first
// message needs it (a run started earlier waits for it). Offline, the service worker's precache has it.
void gateway.then(() => loadOpenAi()).catch(() => undefined);
