// On this device: what running a model in the browser costs on this machine's CPU. Random-weight GGUF models in the
// shapes of Qwen2.5 0.5B, 1.5B and 3B (test/gguf/random-model.ts, Q4_0: random weights cost what real ones do) are
// written to a temporary folder, then each is loaded in Chromium by the runtime Fawn uses (wllama, llama.cpp in
// WebAssembly, in its own worker, with the thread count device-engine.ts picks) from a page served cross-origin
// isolated, as Fawn is. Per model: the file's size, load time, prompt reading and generation speed (llama.cpp's own
// timings), time to the first token, and the memory the browser's processes grew by. Prints numbers only; nothing
// here is a timed assertion. BENCH_ON_DEVICE_SHAPES=0.5B,1.5B picks shapes; BENCH_ON_DEVICE_PROMPT sets the prompt's
// length in tokens (default 128).
import { chromium } from "@playwright/test";
import { createReadStream, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { saveBenchResult } from "./report.ts";
import { MODEL_SHAPES, parameterCount, writeRandomModel } from "../test/gguf/random-model.ts";
import { DEVICE_PROMPT_STEP, deviceThreads } from "../src/models/on-device/device-threads.ts";

const CHROME = process.env.CHROME_PATH ?? "/usr/bin/chromium";
const SHAPES = process.env.BENCH_ON_DEVICE_SHAPES?.split(",") ?? MODEL_SHAPES.map((shape) => shape.name);
const PROMPT_TOKENS = Number(process.env.BENCH_ON_DEVICE_PROMPT ?? 128);
/** Tokens read per step, as the engine loads models (BENCH_ON_DEVICE_STEP tries another). */
const PROMPT_STEP = Number(process.env.BENCH_ON_DEVICE_STEP ?? DEVICE_PROMPT_STEP);
const GENERATED_TOKENS = 32;
const WLLAMA = join(process.cwd(), "node_modules/@wllama/wllama/esm");

const PAGE = `<!doctype html><html><body><script type="module">
import { Wllama } from "./wllama.js";
window.measure = async (file, threads, promptTokens, generated, step) => {
  const quiet = { debug() {}, log() {}, warn() {}, error() {} };
  const wllama = new Wllama({ default: new URL("./wllama.wasm", location.href).href }, { suppressNativeLog: true, logger: quiet });
  const blob = await (await fetch(file)).blob();
  const started = performance.now();
  await wllama.loadModel([blob], { n_ctx: 4096, n_threads: threads, n_batch: step, n_ubatch: step });
  const load = performance.now() - started;
  // Byte-fallback tokens: one token a character.
  const prompt = "x".repeat(promptTokens - 1);
  const asked = performance.now();
  let first;
  let last;
  const stream = await wllama.createCompletion({ prompt, max_tokens: generated, ignore_eos: true, temperature: 0, stream: true });
  for await (const chunk of stream) {
    first ??= performance.now() - asked;
    last = chunk;
  }
  const result = { load, firstToken: first, timings: last.timings, threads: wllama.getNumThreads(), multithread: wllama.isMultithread() };
  await wllama.exit();
  return result;
};
window.ready = true;
</script></body></html>`;

/** Resident memory of the benchmark's Chromium processes (their command line names Playwright's profile), in bytes. */
function browserMemory(): number {
  let total = 0;
  for (const pid of readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
    try {
      const command = readFileSync(`/proc/${pid}/cmdline`, "utf8");
      if (!command.includes("playwright_chromiumdev_profile")) continue;
      const rss = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
      total += Number(rss ?? 0) * 1024;
    } catch {
      // The process ended meanwhile.
    }
  }
  return total;
}

const folder = mkdtempSync(join(tmpdir(), "fawn-on-device-"));
const server = createServer((request, response): void => {
  const name = (request.url ?? "/").split("?")[0]!.slice(1) || "index.html";
  const headers = {
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Embedder-Policy": "credentialless",
  };
  if (name === "index.html") {
    response.writeHead(200, { ...headers, "content-type": "text/html" });
    response.end(PAGE);
    return;
  }
  const path =
    name === "wllama.js"
      ? join(WLLAMA, "index.js")
      : name === "wllama.wasm"
        ? join(WLLAMA, "wasm/wllama.wasm")
        : join(folder, name);
  try {
    const type = name.endsWith(".js")
      ? "text/javascript"
      : name.endsWith(".wasm")
        ? "application/wasm"
        : "application/octet-stream";
    response.writeHead(200, { ...headers, "content-type": type, "content-length": String(statSync(path).size) });
    createReadStream(path).pipe(response);
  } catch {
    response.writeHead(404);
    response.end();
  }
});
await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const browser = await chromium.launch({ executablePath: CHROME, args: ["--no-sandbox"] });
const rows: (string | number)[][] = [];
const cores = (await import("node:os")).availableParallelism();
const threads = deviceThreads(cores);
try {
  for (const shape of MODEL_SHAPES.filter((each) => SHAPES.includes(each.name))) {
    const file = `random-${shape.name}.gguf`;
    const size = await writeRandomModel(shape, join(folder, file));
    const page = await browser.newPage();
    await page.goto(origin);
    await page.waitForFunction(() => (window as unknown as { ready?: boolean }).ready === true);
    const before = browserMemory();
    let peak = before;
    const sampling = setInterval(() => (peak = Math.max(peak, browserMemory())), 250);
    const result = await page.evaluate(
      ([name, count, prompt, generated, step]) =>
        (
          window as unknown as {
            measure: (...args: unknown[]) => Promise<{
              load: number;
              firstToken: number;
              threads: number;
              timings: {
                prompt_n: number;
                prompt_per_second: number;
                predicted_n: number;
                predicted_per_second: number;
              };
            }>;
          }
        ).measure(name, count, prompt, generated, step),
      [`/${file}`, threads, PROMPT_TOKENS, GENERATED_TOKENS, PROMPT_STEP] as const,
    );
    clearInterval(sampling);
    await page.close();
    rmSync(join(folder, file));
    const row = [
      `Qwen2.5 ${shape.name} shape`,
      `${(parameterCount(shape) / 1e9).toFixed(2)} B`,
      `${(size / 1e6).toFixed(0)} MB`,
      `${(result.load / 1000).toFixed(1)} s`,
      `${result.timings.prompt_per_second.toFixed(1)} (${result.timings.prompt_n} tokens)`,
      `${result.timings.predicted_per_second.toFixed(2)} (${result.timings.predicted_n} tokens)`,
      `${(result.firstToken / 1000).toFixed(1)} s`,
      `${((peak - before) / 1e6).toFixed(0)} MB`,
    ];
    console.log(row.join(" | "));
    rows.push(row);
  }
} finally {
  await browser.close();
  server.close();
  rmSync(folder, { recursive: true, force: true });
}

saveBenchResult({
  name: "on-device",
  title: "On this device: a model in the browser",
  command: "npm run bench:on-device",
  about: [
    "Random-weight GGUF models in the shapes of Qwen2.5 0.5B, 1.5B and 3B (llama architecture, tied embeddings, Q4_0),",
    "each loaded in Chromium by wllama (llama.cpp in WebAssembly, in its own worker) from a cross-origin-isolated page,",
    `with ${threads} thread${threads === 1 ? "" : "s"} on this ${cores}-core machine (what device-engine.ts picks here).`,
    `A prompt of ${PROMPT_TOKENS} tokens, then ${GENERATED_TOKENS} generated tokens (end of text ignored); speeds are`,
    "llama.cpp's own timings, the first token's time is the page's (prompt reading included), and memory is how much",
    "the browser's processes grew (resident, sampled every 250 ms) while the model loaded and answered. No GPU here:",
    "Chromium finds no WebGPU adapter on this machine, so everything runs on the CPU.",
  ].join("\n"),
  goals: [],
  tables: [
    {
      title: "Per model",
      columns: [
        "model",
        "parameters",
        "file",
        "load",
        "prompt tokens/s",
        "generated tokens/s",
        "first token",
        "memory added",
      ],
      rows,
    },
  ],
  notes: [
    "Fawn's system prompt and tool list are about 4,500 tokens with a real tokenizer: at the prompt speeds above, the first answer of a thread waits that long divided by the prompt speed; later turns reuse llama.cpp's cached prompt and read only what is new.",
    "With WebGPU (a browser and machine that have an adapter), wllama offloads every layer to the GPU, where llama.cpp's matrix products run; prompt reading, which is one large product per layer, should gain the most. This machine has no adapter, so none of that is measured here.",
  ],
});
