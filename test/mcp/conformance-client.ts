// The client program `@modelcontextprotocol/conformance` starts for each client scenario: `<cmd> <server-url>`, with
// the scenario in MCP_CONFORMANCE_SCENARIO. It drives Fawn's own MCP layer (McpRegistry → McpConnection, as the
// agent does): connect, list the tools, call the tool the scenario expects; exit 0 when that worked, 1 when not.
// The auth scenarios go through Settings → Tools' own service (McpService over a database, as the worker has it):
// Test connection says sign-in is needed, Sign in gives the authorization URL, which is followed here as a browser
// would (the test server approves at once and redirects with the code), and the callback's answer finishes it.
// Fawn has no elicitation: that scenario fails, and test/mcp/conformance-baseline.yml says why, as for any other.
// Run by scripts/mcp-conformance.ts (`npm run test:mcp-conformance`).
import "fake-indexeddb/auto";
import { McpService } from "../../src/gateway/mcp-service.ts";
import { McpClientError, McpRegistry } from "../../src/mcp/index.ts";
import { indexedDbStorage, openFawnDb } from "../../src/storage/index.ts";

/** The tool each scenario's server offers and checks that the client calls, with its arguments. */
const CALLS: Record<string, { tool: string; args: Record<string, unknown> } | undefined> = {
  initialize: undefined,
  tools_call: { tool: "add_numbers", args: { a: 5, b: 3 } },
  "sse-retry": { tool: "test_reconnection", args: {} },
  "elicitation-sep1034-client-defaults": { tool: "test_client_elicitation_defaults", args: {} },
};
const AUTH_CALL = { tool: "test-tool", args: {} };

/** More sign-ins than Fawn ever asks for in a row: Fawn's own limit (auth/scope-retry-limit) is what stops the loop. */
const USER_SIGN_INS = 6;

/** The pre-registered client a scenario gives (auth/pre-registration), as a user types it into Settings → Tools. */
function preRegisteredClient(): { oauthClientId?: string; oauthClientSecret?: string } {
  const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? "{}") as Record<string, unknown>;
  if (typeof context.client_id !== "string") return {};
  return {
    oauthClientId: context.client_id,
    ...(typeof context.client_secret === "string" && { oauthClientSecret: context.client_secret }),
  };
}

/**
 * An auth scenario: sign in as a user of Settings → Tools would, then list the tools and call the scenario's tool.
 * Whenever Fawn says the server wants a sign-in (Test connection's `signIn`, or a call's "needs more access"
 * sentence), the user presses "Sign in" again; when Fawn says no more, the scenario ends there.
 */
async function runWithSignIn(scenario: string, url: string): Promise<void> {
  const service = new McpService(indexedDbStorage(await openFawnDb(`conformance-${String(process.pid)}`)), {
    notify: () => undefined,
    proxyUrl: async () => undefined,
    oauthRedirectUrl: "http://127.0.0.1:8765/oauth-callback.html",
  });
  const server = { name: "conformance", url, enabled: true, timeoutSeconds: 20, ...preRegisteredClient() };
  await service.save([server]);
  const signIn = async () => {
    const start = await service.beginSignIn(server);
    if (start.signedIn) return;
    // The browser's part: the authorization page approves and sends the user back with the code.
    const approved = await fetch(start.authorizationUrl, { redirect: "manual" });
    const back = new URL(approved.headers.get("location") ?? "", start.authorizationUrl);
    const code = back.searchParams.get("code");
    const error = back.searchParams.get("error");
    await service.finishSignIn({
      state: back.searchParams.get("state") ?? "",
      ...(code && { code }),
      ...(error && { error }),
    });
  };
  for (let signIns = 0; ; signIns++) {
    const test = await service.test(server);
    const wantsSignIn = Boolean(test.signIn);
    if (!wantsSignIn && !test.ok) throw new Error(test.error);
    if (!wantsSignIn && test.ok) {
      console.log(
        `${scenario}: ${String(test.tools.length)} tools (${test.tools.map((tool) => tool.name).join(", ")})`,
      );
      const run = await service.runTools(() => undefined);
      const tool = run?.tools.find((candidate) => candidate.name === `conformance_${AUTH_CALL.tool}`);
      if (!tool) throw new Error(`no ${AUTH_CALL.tool} tool among ${String(run?.tools.length ?? 0)}`);
      try {
        console.log(`${AUTH_CALL.tool}: ${String(await tool.invoke(AUTH_CALL.args))}`);
        return;
      } catch (error) {
        // "needs more access … press Test connection and then Sign in": the next round tests and signs in.
        if (!(error instanceof McpClientError && error.kind === "sign-in")) throw error;
        console.log(error.message);
        continue;
      }
    }
    if (signIns >= USER_SIGN_INS) throw new Error(`still asked to sign in after ${String(signIns)} sign-ins`);
    await signIn();
  }
}

async function run(scenario: string, url: string): Promise<void> {
  if (scenario.startsWith("auth/")) return runWithSignIn(scenario, url);
  if (!(scenario in CALLS)) throw new Error(`unknown scenario ${scenario}`);
  const call = CALLS[scenario];
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
