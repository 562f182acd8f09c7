// The MCP project's own test server, server-everything, started in Node for the tests that need a real MCP server:
// over Streamable HTTP (`/mcp`) or SSE (`/sse`), on a free port, stopped with SIGKILL (as a crash would).
import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

export const EVERYTHING = "node_modules/@modelcontextprotocol/server-everything/dist/index.js";

export interface Everything {
  url: string;
  port: number;
  child: ChildProcess;
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** server-everything in `mode`, once it answers HTTP. */
export async function startEverything(mode: "streamableHttp" | "sse", knownPort?: number): Promise<Everything> {
  const port = knownPort ?? (await freePort());
  const child = spawn(process.execPath, [EVERYTHING, mode], {
    env: { ...process.env, PORT: String(port) },
    stdio: "ignore",
  });
  const base = `http://127.0.0.1:${String(port)}`;
  const deadline = Date.now() + 10_000;
  for (;;) {
    try {
      await fetch(`${base}/`);
      break;
    } catch {
      if (Date.now() > deadline || child.exitCode !== null) throw new Error(`server-everything ${mode} did not start`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGKILL");
    await exited;
  };
  return { url: `${base}${mode === "sse" ? "/sse" : "/mcp"}`, port, child, stop };
}
