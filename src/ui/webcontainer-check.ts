// Entry point of webcontainer-check.html, a manual check for a real online browser: boots WebContainer, opens a
// WebContainerSandbox over an in-memory store and prints each command's result and timing. Not part of the app.
import { MemoryThreadFileStore } from "../sandbox/thread-file-store.ts";
import { bootWebContainer } from "../sandbox/webcontainer/webcontainer-host.ts";
import { WebContainerSandbox } from "../sandbox/webcontainer/webcontainer-sandbox.ts";

/** Each command with the exit code it should report (the last one checks how jsh's exit marker is read). */
const COMMANDS: [command: string, exitCode: number][] = [
  ["node -v", 0],
  ["echo hi > /mnt/user-data/outputs/a.txt && cat /mnt/user-data/outputs/a.txt", 0],
  ["npm -v", 0],
  ["echo failing on purpose; exit 3", 3],
];

const log = document.getElementById("log");
if (!log) throw new Error("webcontainer-check.html has no #log element");

const print = (line: string) => {
  log.textContent += `${line}\n`;
};
const since = (start: number) => `${Math.round(performance.now() - start)} ms`;

async function check(): Promise<void> {
  print(`crossOriginIsolated: ${globalThis.crossOriginIsolated}`);
  const bootStart = performance.now();
  const container = await bootWebContainer();
  print(`WebContainer booted in ${since(bootStart)} (workdir ${container.workdir})`);
  const openStart = performance.now();
  const store = new MemoryThreadFileStore();
  const sandbox = await WebContainerSandbox.open({ container, threadId: "webcontainer-check", store });
  print(`Sandbox opened in ${since(openStart)}`);
  for (const [command, expected] of COMMANDS) {
    const start = performance.now();
    const result = await sandbox.run(command, { timeoutMs: 60_000 });
    const verdict = result.exitCode === expected ? "as expected" : `UNEXPECTED, wanted ${expected}`;
    print(`\n$ ${command}   (${since(start)}, exit code ${result.exitCode}: ${verdict})`);
    print(result.stdout + result.stderr);
  }
  print(`Stored after the commands: ${Object.keys(await store.load("webcontainer-check")).join(", ") || "nothing"}`);
  print("Done.");
}

check().catch((error: unknown) => {
  print(`FAILED: ${error instanceof Error ? error.message : String(error)}`);
});
