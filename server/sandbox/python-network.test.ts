// The network wall of the server's python3 (python-lockdown.ts): a local HTTP server on 127.0.0.1 stands for the
// server's network (cloud metadata, a compose Postgres), and every way a program might reach it through `import js`
// fails with a clear message while the server records no connection; Pyodide's package CDN stays reachable (refused
// only by this machine's own network, never by the wall), and ordinary Python still works.
import { createServer, type Server } from "node:http";
import { existsSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { version } from "pyodide";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WORKSPACE_DIR } from "../../src/sandbox/sandbox.ts";
import { NodePythonRunner } from "./node-python-runner.ts";

const runner = new NodePythonRunner();
let server: Server;
let port = 0;
const hits: string[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    hits.push(`${request.method} ${request.url}`);
    response.end("reached");
  });
  server.on("connection", () => hits.push("connection"));
  server.on("upgrade", (request) => hits.push(`upgrade ${request.url}`));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  runner.dispose();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const run = (program: string) =>
  runner.run({ argv: ["-c", program], cwd: WORKSPACE_DIR, files: {}, timeoutMs: 30_000 });

/** Python that tries each `name: expression` and prints `name refused: <message>` or `name REACHED`. */
function attempts(lines: Record<string, string>): string {
  return [
    "import js, pyodide.code",
    "def attempt(name, action):",
    "    try:",
    "        action()",
    "        print(name, 'REACHED')",
    "    except BaseException as error:",
    "        print(name, 'refused:', str(error).strip().splitlines()[-1] if str(error).strip() else type(error).__name__)",
    ...Object.entries(lines).map(([name, action]) => `attempt(${JSON.stringify(name)}, lambda: ${action})`),
  ].join("\n");
}

/** JavaScript run in the child that records how a promise ended under globalThis.probes[name]. */
const later = (name: string, promise: string) =>
  `import pyodide.code\npyodide.code.run_js(${JSON.stringify(
    `(globalThis.probes ??= {})[${JSON.stringify(name)}] = 'pending'; Promise.resolve().then(() => ${promise}).then(` +
      `() => { globalThis.probes[${JSON.stringify(name)}] = 'REACHED' }, ` +
      `(error) => { globalThis.probes[${JSON.stringify(name)}] = 'refused: ' + error.message + (error.cause ? ' (' + (error.cause.code ?? '') + ' ' + error.cause.message + ')' : '') })`,
  )})`;

const WALL = "Fawn's sandbox has no network";

describe("python3's network wall on the server", () => {
  it(
    "refuses every way out of JavaScript at once, and the local server hears nothing",
    { timeout: 90_000 },
    async () => {
      const target = `http://127.0.0.1:${port}/`;
      const socketPath = join(tmpdir(), `fawn-wall-${process.pid}.sock`);
      const result = await run(
        attempts({
          fetch: `js.fetch(${JSON.stringify(target)})`,
          "fetch-metadata": `js.fetch('http://169.254.169.254/latest/meta-data/')`,
          "fetch-https-elsewhere": `js.fetch('https://example.com/')`,
          "fetch-request": `js.fetch(js.Request.new(${JSON.stringify(target)}))`,
          XMLHttpRequest: "js.XMLHttpRequest.new()",
          WebSocket: `js.WebSocket.new('ws://127.0.0.1:${port}/')`,
          EventSource: `js.EventSource.new(${JSON.stringify(target)})`,
          "process.binding": "js.process.binding('tcp_wrap')",
          "process._linkedBinding": "js.process._linkedBinding('tcp_wrap')",
          "process.dlopen": "js.process.dlopen(js.Object.new(), '/usr/lib/x86_64-linux-gnu/libc.so.6')",
          getBuiltinModule: "js.process.getBuiltinModule('node:net')",
          "getBuiltinModule-http": "js.process.getBuiltinModule('http')",
          "require-ws": "js.require('ws')",
          "stderr-socket": `pyodide.code.run_js("new (process.stderr.constructor)().connect(${port}, '127.0.0.1')")`,
          "unix-socket": `pyodide.code.run_js("new (process.stderr.constructor)().connect('/var/run/postgresql/.s.PGSQL.5432')")`,
          dispatcher: `pyodide.code.run_js("globalThis[Symbol.for('undici.globalDispatcher.1')].dispatch({origin: 'http://127.0.0.1:${port}', path: '/', method: 'GET'}, {})")`,
          "pipe-bind": `pyodide.code.run_js("new (process.stderr._handle.constructor)(1).bind('${socketPath}')")`,
          "fd-socket": `pyodide.code.run_js("new (process.stderr.constructor)({ fd: 2 })")`,
          "kill-parent": "js.process.kill(js.process.ppid, 0)",
          "debug-parent": "js.process._debugProcess(js.process.ppid)",
          "socket.create_connection": `__import__('socket').create_connection(('127.0.0.1', ${port}), timeout=2)`,
        }) +
          "\n" +
          [
            later("import-net", `import('node:net').then((net) => net.connect(${port}, '127.0.0.1'))`),
            later(
              "import-bare-net",
              `import('net').then((net) => net.createConnection({ port: ${port}, host: '127.0.0.1' }))`,
            ),
            later("import-http", `import('node:http').then((http) => http.get('http://127.0.0.1:${port}/'))`),
            later("import-tls", `import('node:tls').then((tls) => tls.connect(${port}, '127.0.0.1'))`),
            later("import-http2", `import('node:http2').then((http2) => http2.connect('http://127.0.0.1:${port}'))`),
            later(
              "import-dgram",
              `import('node:dgram').then((dgram) => dgram.createSocket('udp4').send('x', ${port}, '127.0.0.1'))`,
            ),
            later("import-dns", `import('node:dns').then((dns) => dns.promises.lookup('metadata.google.internal'))`),
            later("import-resolve", `import('node:dns').then((dns) => dns.promises.resolve4('example.com'))`),
            later(
              "createRequire",
              `import('node:module').then((m) => m.createRequire('/x.js')('net').connect(${port}, '127.0.0.1'))`,
            ),
            later("server-handle", `import('node:net').then((net) => net._createServerHandle('127.0.0.1', 0, 4))`),
            later("listen", `import('node:net').then((net) => net.createServer().listen(0, '127.0.0.1'))`),
          ].join("\n"),
      );
      expect(result.exitCode, result.stderr + result.stdout).toBe(0);
      const lines = result.stdout.trim().split("\n");
      expect(lines).toHaveLength(21);
      for (const line of lines) expect(line, line).toMatch(/^\S+ refused: ./);
      const byName = Object.fromEntries(lines.map((line) => [line.split(" ")[0], line]));
      for (const name of [
        "fetch",
        "fetch-metadata",
        "fetch-https-elsewhere",
        "fetch-request",
        "XMLHttpRequest",
        "WebSocket",
        "EventSource",
        "stderr-socket",
      ]) {
        expect(byName[name]).toContain(WALL);
      }
      expect(byName["unix-socket"]).toContain(`${WALL}: a connection to /var/run/postgresql/.s.PGSQL.5432 was refused`);
      expect(byName["stderr-socket"]).toContain(`a connection to 127.0.0.1:${port} was refused`);
      expect(byName["dispatcher"]).toContain(`a request to http://127.0.0.1:${port} was refused`);
      expect(byName["getBuiltinModule"]).toContain("Fawn's sandbox does not load node:net");
      expect(byName["pipe-bind"]).toContain(`${WALL}: a raw Pipe handle's bind was refused`);
      expect(existsSync(socketPath)).toBe(false);
      expect(byName["fd-socket"]).toContain(`${WALL}: a raw Pipe handle's open was refused`);
      expect(byName["kill-parent"]).toContain("may not signal process");

      // The promises settle once the program has returned; a second program reads how they ended.
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      const settled = await run("import js\nprint(js.JSON.stringify(js.probes))");
      const outcomes = JSON.parse(settled.stdout) as Record<string, string>;
      expect(Object.keys(outcomes)).toHaveLength(11);
      for (const [name, outcome] of Object.entries(outcomes)) {
        expect(outcome, name).toContain(`refused: ${WALL}`);
      }
      expect(outcomes["import-dns"]).toContain("a DNS lookup of metadata.google.internal was refused");
      expect(outcomes["listen"]).toContain("listening for connections was refused");

      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(hits).toEqual([]);
    },
  );

  it("lets fetch through to Pyodide's package CDN (only this machine's own network may stop it)", async () => {
    const lockfile = `https://cdn.jsdelivr.net/pyodide/v${version}/full/pyodide-lock.json`;
    const started = await run(
      later(
        "cdn",
        `fetch(${JSON.stringify(lockfile)}).then((response) => { if (!response.ok) throw new Error(String(response.status)) })`,
      ),
    );
    expect(started.exitCode).toBe(0);
    let outcome = "pending";
    for (let waited = 0; outcome.endsWith("pending") && waited < 20_000; waited += 250) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      outcome = (await run("import js\nprint(js.JSON.stringify(js.probes.cdn))")).stdout.trim();
    }
    // Downloaded, or stopped by this machine's network (no DNS, no route): never by the wall.
    expect(outcome).not.toContain(WALL);
    expect(outcome).not.toMatch(/pending$/);
  });

  it("still runs ordinary Python: print, files, the standard library", async () => {
    const result = await runner.run({
      argv: ["-c", "import json, os\nopen('out.json', 'w').write(json.dumps({'n': 6 * 7}))\nprint(os.listdir('.'))"],
      cwd: WORKSPACE_DIR,
      files: {},
      timeoutMs: 30_000,
    });
    expect(result.stdout).toBe("['out.json']\n");
    expect(new TextDecoder().decode(result.written[`${WORKSPACE_DIR}/out.json`])).toBe('{"n": 42}');
  });
});
