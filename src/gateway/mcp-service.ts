// Settings → Tools as a service: the MCP servers the user lists (checked, then stored with their secrets apart),
// "Test connection", and DeerFlow's `mcpServers` file in and out. Runs read the enabled servers from here.
import {
  type ChangeNotice,
  type McpConfigImport,
  type McpConnectionTest,
  type McpServerEntry,
  type McpToolInfo,
} from "../protocol/index.ts";
import { UserError } from "../shared/user-error.ts";
import { McpServersRepository, type FawnDb } from "../storage/index.ts";
import { parseMcpServers, readDeerFlowMcpConfig, toDeerFlowMcpConfig, withoutMcpSecrets } from "./mcp-config.ts";
import { writing } from "./writes.ts";

/** DeerFlow's file name for the configuration that holds `mcpServers`. */
export const MCP_CONFIG_FILE_NAME = "extensions_config.json";

export interface McpServiceOptions {
  notify: (notice: ChangeNotice) => void;
  /** Connects to the server and lists its tools; rejects with one sentence when it cannot. */
  listTools: (server: McpServerEntry) => Promise<McpToolInfo[]>;
  /** Told the list changed: connections to servers that changed or left are closed. */
  onChanged?: (servers: readonly McpServerEntry[]) => void;
}

export class McpService {
  private readonly store: McpServersRepository;

  constructor(
    db: FawnDb,
    private readonly options: McpServiceOptions,
  ) {
    this.store = new McpServersRepository(db);
  }

  list(): Promise<McpServerEntry[]> {
    return this.store.list();
  }

  /** The servers a run may use. */
  async enabled(): Promise<McpServerEntry[]> {
    return (await this.store.list()).filter((server) => server.enabled);
  }

  /** Stores the list in place of the one there was; a bad entry is refused with a sentence and nothing changes. */
  async save(servers: unknown): Promise<McpServerEntry[]> {
    const parsed = parseMcpServers(servers);
    if (!parsed.ok) throw new UserError(parsed.message);
    await writing(() => this.store.replaceAll(parsed.value));
    const saved = await this.store.list();
    this.options.onChanged?.(saved);
    this.options.notify({ type: "settings-changed" });
    return saved;
  }

  /** "Test connection": the server's tools, or the sentence saying why it could not be reached. */
  async test(server: unknown): Promise<McpConnectionTest> {
    const parsed = parseMcpServers([server]);
    if (!parsed.ok) return { ok: false, error: parsed.message };
    const [entry] = parsed.value as [McpServerEntry];
    try {
      return { ok: true, tools: await this.options.listTools(entry) };
    } catch (error) {
      return { ok: false, error: error instanceof Error ? error.message : String(error) };
    }
  }

  /** Reads a DeerFlow `extensions_config.json` (or its `mcpServers`) for the form; nothing is stored. */
  importConfig(text: string): McpConfigImport {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new UserError("This file is not JSON: choose DeerFlow's extensions_config.json or an mcpServers file.");
    }
    try {
      return readDeerFlowMcpConfig(json);
    } catch (error) {
      throw new UserError(error instanceof Error ? error.message : String(error));
    }
  }

  /** The servers as DeerFlow's `mcpServers` file, without a secret. */
  async exportConfig(): Promise<{ file_name: string; blob: Blob }> {
    const servers = (await this.store.list()).map(withoutMcpSecrets);
    const json = `${JSON.stringify(toDeerFlowMcpConfig(servers), null, 2)}\n`;
    return { file_name: MCP_CONFIG_FILE_NAME, blob: new Blob([json], { type: "application/json" }) };
  }
}
