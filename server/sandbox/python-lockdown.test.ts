// python-lockdown.ts in a Node process of its own (it changes the whole process), with a local HTTPS server standing
// for Pyodide's package CDN: what it allows still works end to end (fetch under the package base, through the gated
// DNS, socket and raw TCP handle), and the same server is refused outside the base, by redirect, by IP and by raw socket.
import { execFile, execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:https";
import { createServer as createHttpServer, type Server as HttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const hasOpenssl = spawnSync("openssl", ["version"]).status === 0;
const folder = mkdtempSync(join(tmpdir(), "fawn-lockdown-"));
let cdn: Server;
let elsewhere: HttpServer;
const cdnHits: string[] = [];
const elsewhereHits: string[] = [];

/** Runs in the child: locks the process down to the local "CDN", tries each way in and out, prints the outcomes. */
const DRIVER = `
import net from "node:net";
import { lockDownNetwork } from "./lockdown.mjs";
const [cdnPort, elsewherePort] = process.argv.slice(2).map(Number);
await lockDownNetwork(\`https://localhost:\${cdnPort}/pyodide/full/\`);
const outcomes = {};
const attempt = async (name, action) => {
  try {
    outcomes[name] = "allowed: " + (await action());
  } catch (error) {
    outcomes[name] = "refused: " + error.message + (error.cause ? " (" + error.cause.message + ")" : "");
  }
};
await attempt("package", async () => (await fetch(\`https://localhost:\${cdnPort}/pyodide/full/numpy.whl\`)).text());
await attempt("outside-base", async () => (await fetch(\`https://localhost:\${cdnPort}/npm/evil.js\`)).text());
await attempt("redirect", async () => (await fetch(\`https://localhost:\${cdnPort}/pyodide/full/redirect\`)).text());
await attempt("by-ip", async () => (await fetch(\`https://127.0.0.1:\${cdnPort}/pyodide/full/numpy.whl\`)).text());
await attempt("post", async () => (await fetch(\`https://localhost:\${cdnPort}/pyodide/full/x\`, { method: "POST" })).text());
await attempt("elsewhere", async () => (await fetch(\`http://127.0.0.1:\${elsewherePort}/\`)).text());
await attempt("raw-socket", async () => { net.connect(elsewherePort, "127.0.0.1"); return "connecting"; });
await attempt("raw-socket-cdn-ip", async () => { net.connect(cdnPort, "127.0.0.1"); return "connecting"; });
console.log(JSON.stringify(outcomes));
process.exit(0);
`;

beforeAll(async () => {
  if (!hasOpenssl) return;
  const key = join(folder, "key.pem");
  const cert = join(folder, "cert.pem");
  execFileSync(
    "openssl",
    [
      ...["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=localhost"],
      ...["-addext", "subjectAltName=DNS:localhost", "-keyout", key, "-out", cert],
    ],
    { stdio: "ignore" },
  );
  cdn = createServer({ key: readFileSync(key), cert: readFileSync(cert) }, (request, response) => {
    cdnHits.push(`${request.method} ${request.url}`);
    if (request.url === "/pyodide/full/redirect") {
      response.writeHead(302, { location: `http://127.0.0.1:${(elsewhere.address() as AddressInfo).port}/` });
      response.end();
    } else response.end("wheel bytes");
  });
  elsewhere = createHttpServer((request, response) => {
    elsewhereHits.push(`${request.method} ${request.url}`);
    response.end("reached");
  });
  elsewhere.on("connection", () => elsewhereHits.push("connection"));
  await new Promise<void>((resolve) => cdn.listen(0, "127.0.0.1", resolve));
  await new Promise<void>((resolve) => elsewhere.listen(0, "127.0.0.1", resolve));
  await build({
    entryPoints: [fileURLToPath(new URL("./python-lockdown.ts", import.meta.url))],
    outfile: join(folder, "lockdown.mjs"),
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    logLevel: "silent",
  });
  writeFileSync(join(folder, "driver.mjs"), DRIVER);
});

afterAll(async () => {
  cdn?.closeAllConnections();
  elsewhere?.closeAllConnections();
  await Promise.all([cdn, elsewhere].map((server) => server && new Promise((resolve) => server.close(resolve))));
  rmSync(folder, { recursive: true, force: true });
});

describe.skipIf(!hasOpenssl)("python-lockdown", () => {
  it(
    "lets a package download through to the package host and refuses everything else",
    { timeout: 60_000 },
    async () => {
      const ports = [cdn, elsewhere].map((server) => String((server.address() as AddressInfo).port));
      // Asynchronously: the servers answer from this process's event loop.
      const child = await promisify(execFile)(process.execPath, ["driver.mjs", ...ports], {
        cwd: folder,
        env: { NODE_EXTRA_CA_CERTS: join(folder, "cert.pem") },
        encoding: "utf8",
        timeout: 30_000,
      });
      expect(child.stderr).toBe("");
      const outcomes = JSON.parse(child.stdout) as Record<string, string>;
      const wall = "Fawn's sandbox has no network";
      expect(outcomes).toEqual({
        package: "allowed: wheel bytes",
        "outside-base": expect.stringContaining(`refused: ${wall}: fetch(https://localhost:`),
        redirect: expect.stringMatching(/^refused: fetch failed \(.*redirect/),
        "by-ip": expect.stringContaining(`refused: ${wall}: fetch(https://127.0.0.1:`),
        post: expect.stringContaining(`refused: ${wall}: a POST request was refused`),
        elsewhere: expect.stringContaining(`refused: ${wall}: fetch(http://127.0.0.1:`),
        "raw-socket": expect.stringContaining(`refused: ${wall}: a connection to 127.0.0.1:`),
        "raw-socket-cdn-ip": expect.stringContaining(`refused: ${wall}: a connection to 127.0.0.1:`),
      });
      expect(cdnHits).toEqual(["GET /pyodide/full/numpy.whl", "GET /pyodide/full/redirect"]);
      expect(elsewhereHits).toEqual([]);
    },
  );
});
