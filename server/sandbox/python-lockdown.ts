// The network wall of the Python child (python-process.ts): Node 20's permission model walls off files, processes and
// threads but not the network, so the child closes it itself before any program runs. Every outbound connection in
// Node goes through one of a few choke points, gated here for the whole process (code that took a module or a class
// before this ran, or that finds one by reflection, such as `process.stderr.constructor`, meets the same gate):
// `net.Socket.prototype.connect` (net, tls, http, https, http2, the `ws` package and fetch all end there) admits only
// Pyodide's package host on port 443; servers may not listen; UDP sockets may not bind or send; DNS answers only for the
// package host. On top of that, for a clear message: `fetch` takes only GET/HEAD of https URLs under Pyodide's package
// base (no redirect, no caller's dispatcher), the undici dispatcher behind it takes only that origin, the other web
// network globals are removed, `process.getBuiltinModule` refuses the network and escape modules, Pyodide's
// `globalThis.require` shim no longer hands out `ws` or `child_process`, and no other process may be signalled.
// Node 20 has no in-thread module hook (`module.register` runs its hooks in a worker thread, which the permission
// model refuses), so `import('node:net')` itself still succeeds there, but what it returns is gated as above; on a Node
// with `module.registerHooks` (22.15+) the imports themselves are refused too.
import dgram from "node:dgram";
import dns from "node:dns";
import * as nodeModule from "node:module";
import net from "node:net";

/** Modules a program has no business loading: the network, processes, threads, the loader, the inspector. */
export const BLOCKED_MODULES: ReadonlySet<string> = new Set([
  "net",
  "tls",
  "http",
  "https",
  "http2",
  "dgram",
  "dns",
  "dns/promises",
  "child_process",
  "worker_threads",
  "cluster",
  "module",
  "vm",
  "v8",
  "inspector",
  "inspector/promises",
  "repl",
  "trace_events",
  "wasi",
  "_http_agent",
  "_http_client",
  "_http_common",
  "_http_incoming",
  "_http_outgoing",
  "_http_server",
  "_tls_common",
  "_tls_wrap",
]);

/** Whether a module specifier (bare or `node:`) names a blocked built-in module. */
export function isBlockedModule(specifier: string): boolean {
  return BLOCKED_MODULES.has(specifier.replace(/^node:/, ""));
}

/** The error every refused attempt throws: one sentence saying what was refused and what is allowed. */
export class SandboxNetworkError extends Error {
  readonly code = "ERR_FAWN_SANDBOX_NETWORK";
  constructor(what: string, allowed: string) {
    super(`Fawn's sandbox has no network: ${what} was refused (only Pyodide's package downloads from ${allowed}).`);
    this.name = "SandboxNetworkError";
  }
}

const HTTPS_PORT = 443;

/** What may be reached: the package host by name on its port, at the addresses DNS gave for it. */
interface Allowed {
  host: string;
  port: number;
  /** Filled as the gated DNS lookup answers for `host`: the only addresses a raw TCP handle may connect to. */
  addresses: Set<string>;
  refusal(what: string): Error;
}

type Options = Record<string, unknown>;
type AnyFunction = (this: unknown, ...args: unknown[]) => unknown;
/** A libuv handle class of Node's (TCP, Pipe, UDP), as far as the gate touches it. */
type HandleClass = ((...args: never[]) => unknown) & { name: string; prototype: Record<string, unknown> };
type NormalizedArgs = unknown[] & Record<symbol, unknown>;

interface NetInternals {
  _normalizeArgs(args: unknown[]): NormalizedArgs;
}

interface Dispatcher {
  dispatch(options: Options, handler: unknown): unknown;
}

interface LegacyProcess {
  _kill?(pid: number, signal: number): unknown;
  _debugProcess?(pid: number): void;
  getBuiltinModule?(id: string): unknown;
}

/**
 * Closes the child's network except to `packageBaseUrl` (an https URL ending in `/`: Pyodide's package CDN), before
 * Pyodide loads. Call once, first thing in the child.
 */
export async function lockDownNetwork(packageBaseUrl: string): Promise<void> {
  const base = new URL(packageBaseUrl);
  if (base.protocol !== "https:" || !base.pathname.endsWith("/")) {
    throw new Error(`The package base ${packageBaseUrl} must be an https URL ending in "/".`);
  }
  const allowed: Allowed = {
    host: base.hostname,
    port: base.port ? Number(base.port) : HTTPS_PORT,
    addresses: new Set(),
    refusal: (what: string) => new SandboxNetworkError(what, base.href),
  };
  const { refusal } = allowed;

  gateHandles(allowed);
  gateSockets(allowed);
  gateDns(allowed);
  await gateFetch(base, refusal);
  for (const name of ["WebSocket", "EventSource", "XMLHttpRequest", "WebSocketStream", "WebTransport"]) {
    if (name in globalThis) Reflect.deleteProperty(globalThis, name);
    const refused = function () {
      throw refusal(name);
    };
    Object.defineProperty(refused, "name", { value: name });
    Object.defineProperty(globalThis, name, { value: refused, writable: false, configurable: false });
  }
  // Signalling another process: the server itself (`process.kill(process.ppid)`) or its inspector (SIGUSR1).
  const legacy = process as unknown as LegacyProcess;
  const kill = legacy._kill?.bind(process);
  legacy._kill = (pid, signal) => {
    if (pid !== process.pid || !kill) throw new Error(`Fawn's sandbox may not signal process ${pid}.`);
    return kill(pid, signal);
  };
  legacy._debugProcess = () => {
    throw new Error("Fawn's sandbox may not start another process's inspector.");
  };
  nodeModule.syncBuiltinESMExports();
}

/** TCP and Unix sockets connect only to the package host; no server listens; no UDP socket binds or sends. */
function gateSockets({ host, port: allowedPort, refusal }: Allowed): void {
  const internals = net as unknown as NetInternals;
  const normalizedMark = Object.getOwnPropertySymbols(internals._normalizeArgs([]))[0];
  const connect = net.Socket.prototype.connect;
  const gated = function (this: net.Socket, ...args: unknown[]) {
    const first = args[0];
    const normalized =
      Array.isArray(first) && normalizedMark && (first as NormalizedArgs)[normalizedMark]
        ? (first as NormalizedArgs)
        : internals._normalizeArgs(args);
    // A snapshot of the caller's options: what is checked is what Node then reads (no getter answers twice).
    const options: Options = { ...(normalized[0] as Options) };
    const port = options.port;
    const allowed =
      options.path === undefined &&
      options.lookup === undefined &&
      options.host === host &&
      (typeof port === "number" || typeof port === "string") &&
      Number(port) === allowedPort;
    if (!allowed) {
      const target =
        typeof options.path === "string" ? options.path : `${String(options.host ?? "localhost")}:${String(port)}`;
      throw refusal(`a connection to ${target}`);
    }
    const checked = [{ ...options, port: allowedPort }, normalized[1]] as NormalizedArgs;
    if (normalizedMark) checked[normalizedMark] = true;
    return connect.call(this, checked as never);
  };
  Object.defineProperty(net.Socket.prototype, "connect", { value: gated, writable: false, configurable: false });
  const refuseAll = (what: string) =>
    function refused(): never {
      throw refusal(what);
    };
  Object.defineProperty(net.Server.prototype, "listen", {
    value: refuseAll("listening for connections"),
    writable: false,
    configurable: false,
  });
  for (const method of ["bind", "connect", "send", "sendto", "addMembership", "addSourceSpecificMembership"]) {
    Object.defineProperty(dgram.Socket.prototype, method, {
      value: refuseAll(`a UDP socket's ${method}`),
      writable: false,
      configurable: false,
    });
  }
}

/**
 * The libuv handles under net and dgram (TCP, Pipe, UDP) can be reached without the modules: a socket's `_handle`,
 * async_hooks resources, `new net.Socket({ fd })`. Their classes are taken from throwaway handles and their methods
 * that open, bind, listen or connect are gated: a raw TCP handle connects only to an address DNS gave for the package
 * host, on its port; nothing else binds, listens, connects, sends UDP or adopts a descriptor.
 */
function gateHandles({ addresses, port: allowedPort, refusal }: Allowed): void {
  const internals = net as unknown as { _createServerHandle(address: string, port: number, type: number): unknown };
  const classes = new Map<string, HandleClass>();
  const take = (handle: unknown) => {
    const constructor = (handle as { constructor?: HandleClass } | null | undefined)?.constructor;
    if (typeof constructor === "function" && (constructor as unknown) !== Object)
      classes.set(constructor.name, constructor);
  };
  // Node opens the standard streams' handles on first use: open them now, before `open` is gated.
  void process.stdout;
  void process.stderr;
  const tcp = internals._createServerHandle("127.0.0.1", 0, 4); // bound to a free local port, never listening
  take(tcp);
  (tcp as { close?(): void } | null)?.close?.();
  take((process.stderr as unknown as { _handle?: unknown })._handle);
  const channel = process.channel as unknown as Record<symbol, unknown> | undefined;
  for (const key of channel ? Object.getOwnPropertySymbols(channel) : []) take(channel?.[key]);
  const udp = dgram.createSocket("udp4") as unknown as Record<symbol, { handle?: unknown } | undefined>;
  for (const key of Object.getOwnPropertySymbols(udp)) take(udp[key]?.handle);
  (udp as unknown as dgram.Socket).close();

  const refuse = (what: string) =>
    function refused(): never {
      throw refusal(what);
    };
  const gatedConnect = (connect: AnyFunction) =>
    function (this: unknown, request: unknown, address: unknown, port: unknown, ...rest: unknown[]) {
      if (typeof address !== "string" || !addresses.has(address) || port !== allowedPort) {
        throw refusal(`a connection to ${String(address)}:${String(port)}`);
      }
      return connect.call(this, request, address, port, ...rest);
    };
  for (const [name, handleClass] of classes) {
    const prototype = handleClass.prototype;
    for (const method of ["open", "bind", "bind6", "listen", "connect", "connect6", "send", "send6"]) {
      const original = prototype[method];
      if (typeof original !== "function") continue;
      const value =
        name === "TCP" && (method === "connect" || method === "connect6")
          ? gatedConnect(original as AnyFunction)
          : refuse(`a raw ${name} handle's ${method}`);
      Object.defineProperty(prototype, method, { value, writable: false, configurable: false });
    }
  }
  for (const name of ["TCP", "Pipe", "UDP"]) {
    if (!classes.has(name)) throw new Error(`python-lockdown could not find Node's ${name} handle class to gate.`);
  }
  (net as unknown as Record<string, unknown>)._createServerHandle = refuse("a server handle");
}

/** DNS answers only for the package host (fetch resolves it); every other query is refused. */
function gateDns({ host, addresses, refusal }: Allowed): void {
  const lookup = dns.lookup;
  const promisesLookup = dns.promises.lookup;
  const exports = dns as unknown as Record<string, unknown>;
  const promiseExports = dns.promises as unknown as Record<string, unknown>;
  for (const table of [exports, promiseExports]) {
    for (const name of Object.keys(table)) {
      if (/^(resolve|reverse|lookupService$|Resolver$)/.test(name)) {
        table[name] = () => {
          throw refusal(`DNS (${name})`);
        };
      }
    }
  }
  const remember = (answer: unknown) => {
    for (const entry of Array.isArray(answer) ? answer : [answer]) {
      const address = typeof entry === "string" ? entry : (entry as { address?: unknown } | undefined)?.address;
      if (typeof address === "string") addresses.add(address);
    }
  };
  exports.lookup = function gatedLookup(hostname: unknown, ...rest: unknown[]) {
    if (hostname !== host) throw refusal(`a DNS lookup of ${String(hostname)}`);
    const callback = rest.pop();
    if (typeof callback !== "function") throw new TypeError("dns.lookup needs a callback.");
    return (lookup as (...args: unknown[]) => unknown)(
      hostname,
      ...rest,
      (error: unknown, answer: unknown, ...more: unknown[]) => {
        if (!error) remember(answer);
        (callback as (...args: unknown[]) => void)(error, answer, ...more);
      },
    );
  };
  promiseExports.lookup = async function gatedLookup(hostname: unknown, ...rest: unknown[]) {
    if (hostname !== host) throw refusal(`a DNS lookup of ${String(hostname)}`);
    const answer = await (promisesLookup as (...args: unknown[]) => Promise<unknown>)(hostname, ...rest);
    remember(answer);
    return answer;
  };
}

/**
 * `fetch` takes GET/HEAD of https URLs under `base` only, with no redirect and a fresh request (no caller's headers,
 * body or dispatcher), and throws at once for anything else (a program sees the refusal without awaiting); undici's global dispatcher, which a program could reach by its registered symbol, takes only
 * `base`'s origin and no upgrade.
 */
async function gateFetch(base: URL, refusal: (what: string) => Error): Promise<void> {
  const fetch = globalThis.fetch.bind(globalThis);
  // Loading undici (a data: URL never dispatches) puts its global dispatcher in place, so it can be wrapped.
  await fetch("data:,");
  const dispatcherKey = Symbol.for("undici.globalDispatcher.1");
  const holder = globalThis as unknown as Record<symbol, Dispatcher | undefined>;
  const agent = holder[dispatcherKey];
  if (agent) {
    const gate: Dispatcher = Object.freeze({
      dispatch(options: Options, handler: unknown) {
        const method = String(options.method ?? "GET").toUpperCase();
        if (options.origin === undefined || new URL(String(options.origin)).origin !== base.origin) {
          throw refusal(`a request to ${String(options.origin)}`);
        }
        if ((method !== "GET" && method !== "HEAD") || options.upgrade !== undefined) {
          throw refusal(`a ${method} request`);
        }
        return agent.dispatch({ ...options, method }, handler);
      },
    });
    holder[dispatcherKey] = gate;
    Object.defineProperty(globalThis, dispatcherKey, { writable: false });
  }
  const allowedFetch = (input: unknown, init?: { method?: string; integrity?: string; signal?: AbortSignal }) => {
    let url: URL;
    try {
      url = new URL(input instanceof Request ? input.url : String(input));
    } catch {
      throw refusal(`fetch(${JSON.stringify(String(input))})`);
    }
    const method = (init?.method ?? (input instanceof Request ? input.method : "GET")).toUpperCase();
    if (url.protocol !== "https:" || url.origin !== base.origin || !url.pathname.startsWith(base.pathname)) {
      throw refusal(`fetch(${url.origin === "null" ? url.protocol : url.origin})`);
    }
    if (method !== "GET" && method !== "HEAD") throw refusal(`a ${method} request`);
    return fetch(url.href, {
      method,
      redirect: "error",
      ...(typeof init?.integrity === "string" && { integrity: init.integrity }),
      ...(init?.signal instanceof AbortSignal && { signal: init.signal }),
    });
  };
  Object.defineProperty(globalThis, "fetch", { value: allowedFetch, writable: false, configurable: false });
}

let modulesLocked = false;

/**
 * After Pyodide has loaded: `process.getBuiltinModule` and Pyodide's `globalThis.require` shim refuse the blocked
 * modules, and on a Node with in-thread module hooks (`module.registerHooks`, 22.15+) so does every import.
 */
export function lockDownModules(): void {
  if (modulesLocked) return;
  modulesLocked = true;
  const legacy = process as unknown as LegacyProcess;
  const getBuiltinModule = legacy.getBuiltinModule?.bind(process);
  if (getBuiltinModule) {
    legacy.getBuiltinModule = (id: string) => {
      if (isBlockedModule(String(id))) throw new Error(`Fawn's sandbox does not load ${String(id)}.`);
      return getBuiltinModule(id);
    };
  }
  const holder = globalThis as unknown as { require?: (id: string) => unknown };
  const shim = holder.require;
  if (typeof shim === "function") {
    holder.require = (id: string) => {
      if (id === "ws" || isBlockedModule(String(id))) throw new Error(`Fawn's sandbox does not load ${String(id)}.`);
      return shim(id);
    };
  }
  const registerHooks = (
    nodeModule as unknown as {
      registerHooks?: (hooks: {
        resolve(specifier: string, context: unknown, next: (specifier: string, context: unknown) => unknown): unknown;
      }) => unknown;
    }
  ).registerHooks;
  registerHooks?.({
    resolve: (specifier, context, next) => {
      if (isBlockedModule(specifier)) throw new Error(`Fawn's sandbox does not load ${specifier}.`);
      return next(specifier, context);
    },
  });
}
