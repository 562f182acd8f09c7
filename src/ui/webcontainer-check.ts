// Entry point of webcontainer-check.html, a manual check for a real online browser: boots WebContainer, opens a
// WebContainerSandbox over an in-memory store and prints each command's result and timing, then checks that two
// threads on the page cannot reach each other's files (issue 27). Not part of the app.
import { MemoryThreadFileStore } from "../sandbox/thread-file-store.ts";
import { openWebContainerSlot } from "../sandbox/webcontainer/webcontainer-host.ts";
import { WebContainerSandbox } from "../sandbox/webcontainer/webcontainer-sandbox.ts";
import type { WebContainerSlot } from "../sandbox/webcontainer/webcontainer-slot.ts";

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
  const slot = await openWebContainerSlot();
  print(`WebContainer booted in ${since(bootStart)}`);
  const openStart = performance.now();
  const store = new MemoryThreadFileStore();
  const sandbox = await WebContainerSandbox.open({ slot, threadId: "webcontainer-check", store });
  print(`Sandbox opened in ${since(openStart)}`);
  for (const [command, expected] of COMMANDS) {
    const start = performance.now();
    const result = await sandbox.run(command, { timeoutMs: 60_000 });
    const verdict = result.exitCode === expected ? "as expected" : `UNEXPECTED, wanted ${expected}`;
    print(`\n$ ${command}   (${since(start)}, exit code ${result.exitCode}: ${verdict})`);
    print(result.stdout + result.stderr);
  }
  print(`Stored after the commands: ${Object.keys(await store.load("webcontainer-check")).join(", ") || "nothing"}`);
  await checkIsolation(slot);
  print("Done.");
}

const SECRET = "SECRET-OF-THREAD-B";
const THREADS = "/home/fawn/threads";

/**
 * Thread b keeps a secret in its workspace, /tmp and $HOME; thread a tries to read it by every path it can, and
 * leaves a node process running that keeps trying to read it and to plant a file in b's workspace. Each line says
 * PASS or FAIL, and how long each hand-over of the container (teardown, boot, mount) took.
 */
async function checkIsolation(slot: WebContainerSlot): Promise<void> {
  print("\nIsolation between threads");
  const store = new MemoryThreadFileStore();
  const b = await WebContainerSandbox.open({ slot, threadId: "check-b", store });
  const a = await WebContainerSandbox.open({ slot, threadId: "check-a", store });
  const verdict = (passed: boolean, what: string) => print(`${passed ? "PASS" : "FAIL"}: ${what}`);
  const timed = async (sandbox: WebContainerSandbox, command: string) => {
    const start = performance.now();
    const result = await sandbox.run(command, { timeoutMs: 60_000 });
    print(`  [${sandbox.threadId}] $ ${command}   (${since(start)}, exit code ${result.exitCode})`);
    return result;
  };
  await timed(b, `echo ${SECRET} > secret.txt; echo ${SECRET} > /tmp/b.txt; echo ${SECRET} > "$HOME/.b-history"`);
  const reads = [
    "cat ../../../../check-b/mnt/user-data/workspace/secret.txt",
    `cat ${THREADS}/check-b/mnt/user-data/workspace/secret.txt`,
    `node -e "console.log(require('fs').readFileSync('${THREADS}/check-b/mnt/user-data/workspace/secret.txt', 'utf8'))"`,
    "cat /tmp/b.txt",
    'cat "$HOME/.b-history"',
    "ls -R /home /tmp",
  ];
  for (const command of reads) {
    const result = await timed(a, command);
    verdict(!(result.stdout + result.stderr).includes(SECRET), `thread a cannot read b's secret with: ${command}`);
  }
  // A process a leaves running: every 100 ms it says it is alive, copies b's secret into a's workspace and plants a
  // file in b's.
  const loop =
    "const fs = require('fs'); setInterval(() => { fs.writeFileSync('alive.txt', String(Date.now())); " +
    `try { fs.writeFileSync('leak.txt', fs.readFileSync('${THREADS}/check-b/mnt/user-data/workspace/secret.txt')); } catch {} ` +
    `try { fs.writeFileSync('${THREADS}/check-b/mnt/user-data/workspace/planted.txt', 'planted'); } catch {} ` +
    "}, 100);";
  await timed(a, `node -e "${loop}" > /dev/null 2>&1 &`);
  const alive = await timed(a, "sleep 1; ls");
  print(
    alive.stdout.includes("alive.txt")
      ? "CONTROL: a's background process runs (it wrote alive.txt)"
      : "CONTROL FAILED: a's background process did not run, so the next two checks prove nothing",
  );
  const listing = await timed(b, "sleep 2; ls -R /mnt/user-data");
  verdict(!listing.stdout.includes("planted"), "a's background process planted nothing in b's workspace");
  const storedB = Object.keys(await store.load("check-b"));
  verdict(storedB.join() === "/mnt/user-data/workspace/secret.txt", `b's store holds only its own file (${storedB})`);
  const leak = await timed(a, "sleep 1; cat leak.txt 2>&1; true");
  verdict(!leak.stdout.includes(SECRET), "a's background process read nothing of b's");
  const storedA = Object.values(await store.load("check-a")).map((file) => new TextDecoder().decode(file.bytes));
  verdict(!storedA.join().includes(SECRET), "a's store holds nothing of b's");
  await a.dispose();
  await b.dispose();
}

check().catch((error: unknown) => {
  print(`FAILED: ${error instanceof Error ? error.message : String(error)}`);
});
