// python3 runs walled off (issue: the trust boundary): a program the model writes tries every way out of its worker
// (the network, Fawn's storage, other scripts, another thread's interpreter and files) against a local listener, in
// the built app in Chromium. Nothing reaches the listener, each attempt is refused, a stored key is nowhere the
// program can see, and the next python3 run still works.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test, type Page } from "@playwright/test";
import { assistantMessages, callTool, configureEndpoint, send } from "./fixtures.ts";

const TEST_KEY = "sk-fawn-e2e-isolation-7f3a9c";
const PROBE = "/mnt/user-data/outputs/probe.json";

/** Thread A leaves traces in its interpreter and its files; thread B must not find any of them. */
const LEAVE_TRACES = `
import builtins, sys, types
builtins.fawn_leak = "from thread A"
sys.modules["fawn_leak_module"] = types.ModuleType("fawn_leak_module")
open("/tmp/fawn-leak.txt", "w").write("from thread A")
open("/mnt/user-data/workspace/secret-a.txt", "w").write("thread A's secret")
print("traces left")
`;

/** Every way out a program might try; each result is "refused: …" or "reached: …". */
function escapeProgram(listener: string): string {
  const ws = listener.replace(/^http/, "ws");
  return `
import builtins, json, os, sys
import js, pyodide_js

L = ${JSON.stringify(listener)}
results = {}

def attempt(name, action):
    try:
        value = action()
        results[name] = "reached: " + repr(value)[:80]
    except BaseException as error:
        results[name] = "refused: " + type(error).__name__ + ": " + str(error)[:120]

def xhr():
    request = js.XMLHttpRequest.new()
    request.open("GET", L + "/xhr", False)
    request.send()
    return request.status

def pyfetch():
    import pyodide.http  # itself refused: the module takes XMLHttpRequest when imported
    # Runs the coroutine up to its first await: the request is made (or refused) right there.
    return pyodide.http.pyfetch(L + "/pyfetch").send(None)

def open_url():
    import pyodide.http
    return pyodide.http.open_url(L + "/open_url")

def must_be_absent(check):
    def action():
        found = check()
        if found:
            return found
        raise LookupError("not there")
    return action

attempt("js.fetch", lambda: js.fetch(L + "/fetch"))
attempt("js.fetch to Fawn's own origin", lambda: js.fetch("/"))
attempt("XMLHttpRequest", xhr)
attempt("WebSocket", lambda: js.WebSocket.new(${JSON.stringify(ws)} + "/ws"))
attempt("EventSource", lambda: js.EventSource.new(L + "/sse"))
attempt("importScripts", lambda: js.importScripts(L + "/import.js"))
attempt("Worker", lambda: js.Worker.new(L + "/worker.js"))
attempt("js.eval", lambda: js.eval("fetch('" + L + "/eval')"))
attempt("js.Function", lambda: js.Function.new("return fetch('" + L + "/function')")())
attempt("indexedDB", lambda: js.indexedDB.open("fawn"))
attempt("caches", lambda: js.caches.open("fawn"))
attempt("postMessage to the frame", lambda: js.postMessage("hello"))
attempt("FontFace", lambda: js.FontFace.new("x", "url(" + L + "/font)").load())
attempt("pyodide.http.pyfetch", pyfetch)
attempt("pyodide.http.open_url", open_url)
attempt("pyodide_js.loadPackage from a URL", lambda: pyodide_js.loadPackage(L + "/evil-1.0-py3-none-any.whl"))
attempt("another thread's file", lambda: open("/mnt/user-data/workspace/secret-a.txt").read())
attempt("another thread's /tmp", lambda: open("/tmp/fawn-leak.txt").read())
attempt("another thread's globals", must_be_absent(lambda: getattr(builtins, "fawn_leak", None)))
attempt("another thread's modules", must_be_absent(lambda: "fawn_leak_module" in sys.modules))

probe = {"origin": str(js.location.origin), "results": results, "environ": dict(os.environ)}
open(${JSON.stringify(PROBE)}, "w").write(json.dumps(probe))
print("reached:", [name for name, result in results.items() if result.startswith("reached")])
`;
}

let listener: Server;
let received: string[] = [];

test.beforeAll(async () => {
  listener = createServer((request, response) => {
    received.push(`${request.method} ${request.url}`);
    response.writeHead(200, { "Access-Control-Allow-Origin": "*" });
    response.end("reached");
  });
  listener.on("upgrade", (request, socket) => {
    received.push(`UPGRADE ${request.url}`);
    socket.destroy();
  });
  await new Promise<void>((resolve) => listener.listen(0, "127.0.0.1", resolve));
});

test.afterAll(async () => {
  await new Promise((resolve) => listener.close(resolve));
});

async function runEnded(page: Page): Promise<void> {
  await expect(page.getByRole("button", { name: "Send" })).toBeVisible({ timeout: 90_000 });
}

/** The bytes of a thread file as stored (the test reads Fawn's IndexedDB from the page, as only Fawn may). */
async function storedFile(page: Page, path: string): Promise<string | undefined> {
  return page.evaluate(async (wanted) => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open("fawn");
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    const records = await new Promise<{ path: string; bytes: Uint8Array }[]>((resolve, reject) => {
      const request = db.transaction("thread_files").objectStore("thread_files").getAll();
      request.onsuccess = () => resolve(request.result as { path: string; bytes: Uint8Array }[]);
      request.onerror = () => reject(request.error);
    });
    db.close();
    const record = records.find((candidate) => candidate.path === wanted);
    return record && new TextDecoder().decode(record.bytes);
  }, path);
}

test("a python program cannot reach the network, Fawn's storage or another thread, and python3 works after", async ({
  page,
}) => {
  test.setTimeout(300_000);
  received = [];
  const address = listener.address() as AddressInfo;
  const listenerUrl = `http://127.0.0.1:${address.port}`;
  await page.goto("/");
  await configureEndpoint(page, { apiKey: TEST_KEY });

  // Thread A: traces in its interpreter, its /tmp and its files.
  await send(page, callTool("write_file", { path: "/mnt/user-data/workspace/traces.py", content: LEAVE_TRACES }));
  await runEnded(page);
  await send(page, callTool("bash", { command: "python3 /mnt/user-data/workspace/traces.py" }));
  await expect(assistantMessages(page).last()).toContainText("The tool returned: traces left", { timeout: 120_000 });
  await runEnded(page);

  // Thread B: the escape attempts.
  await page.getByRole("button", { name: "New thread" }).click();
  await send(
    page,
    callTool("write_file", { path: "/mnt/user-data/workspace/escape.py", content: escapeProgram(listenerUrl) }),
  );
  await runEnded(page);
  await send(page, callTool("bash", { command: "python3 /mnt/user-data/workspace/escape.py" }));
  await expect(assistantMessages(page).last()).toContainText("The tool returned: reached: []", { timeout: 120_000 });
  await runEnded(page);

  const probe = JSON.parse((await storedFile(page, PROBE)) ?? "{}") as {
    origin?: string;
    results?: Record<string, string>;
  };
  expect(probe.origin).toBe("null");
  const results = probe.results ?? {};
  expect(Object.keys(results)).toHaveLength(20);
  for (const [name, result] of Object.entries(results)) expect(result, name).toMatch(/^refused: /);
  // The key is stored (the endpoint works), yet it is nowhere the program could see or write.
  expect(JSON.stringify(probe)).not.toContain(TEST_KEY);

  // The next program runs as usual.
  await send(page, callTool("bash", { command: "python3 -c 'print(6*7)'" }));
  await expect(assistantMessages(page).last()).toContainText("The tool returned: 42", { timeout: 120_000 });

  // Late requests (a promise of the probe settling after it ended) would have been made before the next program ran
  // in the same interpreter, and show up here too.
  expect(received).toEqual([]);
});
