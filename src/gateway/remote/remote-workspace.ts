// A server's workspace (docs/architecture.md#d13-workspaces): the Gateway's domains answered by a Fawn server, a
// LangGraph server running Fawn's graph, or a DeerFlow deployment, built in the agent worker by
// `gateway.openWorkspace(id)` and handed to the page as a comlink proxy. Threads and runs go through LangGraph's API
// (`@langchain/langgraph-sdk`), files, memory, skills and models through the Gateway's REST routes, and on a Fawn
// server the rest through Fawn's own routes (`/api/fawn/…`).
import type { ChangeNotice, GatewayApi, ServerSummary, WorkspaceGatewayApi } from "../../protocol/index.ts";
import { UserError } from "../../shared/user-error.ts";

export interface RemoteWorkspaceOptions {
  server: ServerSummary;
  /** The access token (Bearer), from the worker's secrets; never returned or logged. */
  token?: string;
  /** The fetch every request goes through (tests pass their own); defaults to the global one. */
  fetch?: typeof fetch;
  /** This browser's Gateway: what a remote workspace answers as this browser's (settings writes, data, MCP). */
  local: GatewayApi;
  /** Posts a change notice (the worker posts it on `workspaceChannel(server.id)`). */
  notify?: (notice: ChangeNotice) => void;
  /** Wraps the fetch for the server's kind (DeerFlow's session cookie and CSRF header). */
  kindFetch?: (f: typeof fetch) => typeof fetch;
}

export function createRemoteWorkspace(options: RemoteWorkspaceOptions): WorkspaceGatewayApi {
  void options;
  throw new UserError("Server workspaces are not available yet.");
}
