// The built app served by `vite preview` for the benchmarks and the screenshot script (not for the e2e tests, which
// Playwright's webServer starts). Needs `npm run build` first.
import { spawn } from "node:child_process";
import { setTimeout as sleep } from "node:timers/promises";

export interface PreviewServer {
  url: string;
  close(): void;
}

/** Starts `vite preview` on `port` and resolves once it answers; `close` stops the whole npx → vite tree. */
export async function startPreview(port: number): Promise<PreviewServer> {
  // Its own process group, so close() stops vite too, not only npx.
  const child = spawn("npx", ["vite", "preview", "--host", "127.0.0.1", "--port", String(port), "--strictPort"], {
    stdio: "ignore",
    detached: true,
  });
  const url = `http://127.0.0.1:${port}`;
  const close = () => {
    if (child.pid !== undefined) process.kill(-child.pid);
  };
  for (let i = 0; i < 600; i++) {
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
