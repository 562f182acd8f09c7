// Settings → Servers and the server workspaces they open (docs/architecture.md#d13-workspaces).
// Being built this session: connect/check/list/disconnect and openWorkspace land with the servers helper's work.
import type {
  ServerCheck,
  ServerConnectInput,
  ServersApi,
  ServerSummary,
  WorkspaceGatewayApi,
} from "../protocol/index.ts";
import { UserError } from "../shared/user-error.ts";

export class ServersService implements ServersApi {
  async list(): Promise<ServerSummary[]> {
    return [];
  }
  async check(_input: ServerConnectInput): Promise<ServerCheck> {
    throw new UserError("Servers are not available yet.");
  }
  async connect(_input: ServerConnectInput): Promise<{ server: ServerSummary; sentence: string }> {
    throw new UserError("Servers are not available yet.");
  }
  async disconnect(_serverId: string): Promise<void> {
    throw new UserError("Servers are not available yet.");
  }
  async open(_serverId: string): Promise<WorkspaceGatewayApi> {
    throw new UserError("Servers are not available yet.");
  }
}
