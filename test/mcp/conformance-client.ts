// The client program `@modelcontextprotocol/conformance` starts for each client scenario: `<cmd> <server-url>`, with
// the scenario in MCP_CONFORMANCE_SCENARIO. It drives Fawn's own MCP layer (McpRegistry → McpConnection, as the
// agent does): connect, list the tools, call the tool the scenario expects; exit 0 when that worked, 1 when not.
// Fawn has no OAuth provider and no elicitation yet: those scenarios fail, and test/mcp/conformance-baseline.yml says
// why. Run by scripts/mcp-conformance.ts (`npm run test:mcp-conformance`).
import { McpRegistry } from "../../src/mcp/index.ts";

/** The tool each scenario's server offers and checks that the client calls, with its arguments. */
const CALLS: Record<string, { tool: string; args: Record<string, unknown> } | undefined> = {
  initialize: undefined,
  tools_call: { tool: "add_numbers", args: { a: 5, b: 3 } },
  "sse-retry": { tool: "test_reconnection", args: {} },
  "elicitation-sep1034-client-defaults": { tool: "test_client_elicitation_defaults", args: {} },
};
const AUTH_CALL = { tool: "test-tool", args: {} };

async function run(scenario: string, url: string): Promise<void> {
  if (!(scenario in CALLS) && !scenario.startsWith("auth/")) throw new Error(`unknown scenario ${scenario}`);
  const call = scenario.startsWith("auth/") ? AUTH_CALL : CALLS[scenario];
  const registry = new McpRegistry({ clientInfo: { name: "fawn-conformance", version: "1.0.0" } });
  const connection = registry.connection({ name: "conformance", url, enabled: true, timeoutSeconds: 20 });
  try {
    const tools = await connection.listTools();
    console.log(`${scenario}: ${String(tools.length)} tools (${tools.map((tool) => tool.name).join(", ")})`);
    if (!call) return;
    const result = await connection.callTool(call.tool, call.args);
    const text = result.content.map((block) => (block.type === "text" ? block.text : `[${block.type}]`)).join(" ");
    if (result.isError) throw new Error(`${call.tool} failed: ${text}`);
    console.log(`${call.tool}: ${text}`);
  } finally {
    await registry.closeAll();
  }
}

const scenario = process.env.MCP_CONFORMANCE_SCENARIO;
const url = process.argv.at(-1);
if (!scenario || !url?.startsWith("http")) {
  console.error("Usage: MCP_CONFORMANCE_SCENARIO=<scenario> tsx test/mcp/conformance-client.ts <server-url>");
  process.exit(1);
}
try {
  await run(scenario, url);
  process.exit(0);
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
}
