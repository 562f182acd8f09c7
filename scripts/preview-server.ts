// The built app served by `vite preview` for the benchmarks and the screenshot script (not for the e2e tests, which
// Playwright's webServer starts). Needs `npm run build` first.
import { spawn } from "node:child_process";
import { setTimeout as sleep } from "node:timers/promises";

export interface PreviewServer {
  url: string;
  close(): void;
}

/** Whether something already answers at `url`: then a `vite preview` of ours could not listen there. */
async function answers(url: string): Promise<boolean> {
  try {
    await fetch(url);
    return true;
  } catch {
    return false;
  }
}

/**
 * Starts `vite preview` on `port` and resolves once it answers; `close` stops the whole npx → vite tree. Refuses a
 * port another server already answers on, which would otherwise be measured in place of this build. `outDir` serves
 * another build than dist/ (the app before a change: BENCH_BASE_DIST, scripts/bench.ts).
 */
export async function startPreview(port: number, options: { outDir?: string } = {}): Promise<PreviewServer> {
  const url = `http://127.0.0.1:${port}`;
  if (await answers(url)) throw new Error(`Port ${port} is taken: set BENCH_APP_PORT to a free one.`);
  // Its own process group, so close() stops vite too, not only npx.
  const child = spawn(
    "npx",
    [
      "vite",
      "preview",
      "--host",
      "127.0.0.1",
      "--port",
      String(port),
      "--strictPort",
      ...(options.outDir ? ["--outDir", options.outDir] : []),
    ],
    {
      stdio: "ignore",
      detached: true,
    },
  );
  let exited = false;
  child.on("exit", () => (exited = true));
  const close = () => {
    if (child.pid === undefined) return;
    try {
      process.kill(-child.pid);
    } catch {
      // Already gone.
    }
  };
  for (let i = 0; i < 600 && !exited; i++) {
    try {
      if ((await fetch(url)).ok) return { url, close };
    } catch {
      // not up yet
    }
    await sleep(100);
  }
  close();
  throw new Error(`vite preview did not answer at ${url}; run npm run build first.`);
}
