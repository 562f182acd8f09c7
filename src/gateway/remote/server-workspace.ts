// A connected server's workspace as the servers service hands it out (`gateway.openWorkspace(id)`): RC's remote
// workspace over the server's kind (DeerFlow's session wrapper for a DeerFlow deployment), its change notices posted
// on `workspaceChannel(id)`, and every error it gives back with the server's token redacted (an error a server echoed
// could quote it). Closing it tells the service, which then builds a new one on the next open. A chunk of its own,
// loaded when a server workspace is first opened, with the remote workspace's code.
import {
  workspaceChannel,
  type ChangeNotice,
  type GatewayApi,
  type RunEvent,
  type ServerSummary,
  type WorkspaceGatewayApi,
} from "../../protocol/index.ts";
import { secretRedactor } from "../../shared/redact.ts";
import { deerflowSession } from "./deerflow-session.ts";
import { createRemoteWorkspace } from "./remote-workspace.ts";

export interface ServerWorkspaceOptions {
  server: ServerSummary;
  token?: string;
  local: GatewayApi;
  fetch?: typeof fetch;
  /** Called once the workspace is closed (the page switched away, or the server was disconnected). */
  onClose: () => void;
}

export async function openServerWorkspace(options: ServerWorkspaceOptions): Promise<WorkspaceGatewayApi> {
  const { server, token } = options;
  const channel =
    typeof BroadcastChannel === "undefined" ? undefined : new BroadcastChannel(workspaceChannel(server.id));
  // In Node (tests, the server) an open channel would keep the process alive.
  (channel as { unref?: () => void } | undefined)?.unref?.();
  const workspace = createRemoteWorkspace({
    server,
    local: options.local,
    notify: (notice: ChangeNotice) => channel?.postMessage(notice),
    ...(token && { token }),
    ...(options.fetch && { fetch: options.fetch }),
    ...(server.kind === "deerflow" && { kindFetch: deerflowSession() }),
  });
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    try {
      await workspace.workspace.close();
    } finally {
      channel?.close();
      options.onClose();
    }
  };
  return guardedWorkspace(workspace, token ? secretRedactor([token]) : undefined, close);
}

/**
 * The workspace with `workspace.close` calling `close`, and, when there is a token, every domain's methods rejecting
 * with its errors' messages (and stacks, which comlink sends too) redacted, and a run's `error` events (given to the
 * listener `runs.stream`, `streamBatched` and `join` take) with their message redacted too.
 */
export function guardedWorkspace(
  workspace: WorkspaceGatewayApi,
  redact: ((text: string) => string) | undefined,
  close: () => Promise<void>,
): WorkspaceGatewayApi {
  const redacted = (error: unknown): unknown => {
    if (!redact) return error;
    if (typeof error === "string") return redact(error);
    if (error instanceof Error) {
      error.message = redact(error.message);
      if (error.stack) error.stack = redact(error.stack);
    }
    return error;
  };
  const redactedEvent = (event: RunEvent): RunEvent =>
    event.event === "error" && redact
      ? { ...event, data: { ...event.data, message: redact(event.data.message) } }
      : event;
  // A run's listener gets one event (`stream`) or a batch (`streamBatched`, `join`).
  const guardListener =
    (listener: (events: RunEvent | RunEvent[]) => unknown) =>
    (events: RunEvent | RunEvent[]): unknown =>
      listener(Array.isArray(events) ? events.map(redactedEvent) : redactedEvent(events));
  const guardDomain = (domain: object, name: PropertyKey): object =>
    new Proxy(domain, {
      get(target, property, receiver) {
        if (name === "workspace" && property === "close") return close;
        const value: unknown = Reflect.get(target, property, receiver);
        if (typeof value !== "function" || !redact) return value;
        return (...given: unknown[]) => {
          const args =
            name === "runs"
              ? given.map((arg) =>
                  typeof arg === "function" ? guardListener(arg as (events: RunEvent | RunEvent[]) => unknown) : arg,
                )
              : given;
          try {
            const result: unknown = value.apply(target, args);
            return result instanceof Promise
              ? result.catch((error: unknown) => Promise.reject(redacted(error)))
              : result;
          } catch (error) {
            throw redacted(error);
          }
        };
      },
    });
  const domains = new Map<PropertyKey, object>();
  return new Proxy(workspace, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== "object" || value === null) return value;
      let guarded = domains.get(property);
      if (!guarded) domains.set(property, (guarded = guardDomain(value, property)));
      return guarded;
    },
  });
}
