// A throwaway Debian Postgres for server tests: initdb in a temp folder, pg_ctl on a free port of 127.0.0.1 with
// `trust` auth, run as the `postgres` user when we are root (Postgres refuses to run as root). stop() shuts it down
// and removes the folder; a process exit stops it too, so a failed test never leaves a Postgres running.
import { execFile, execFileSync } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);
const LIB = "/usr/lib/postgresql";

export interface StartedPostgres {
  /** `postgres://postgres@127.0.0.1:<port>/postgres` */
  readonly url: string;
  readonly port: number;
  /** Stops the server (fast shutdown: every connection is cut), waits `downMs`, and starts it again on its port. */
  restart(downMs?: number): Promise<void>;
  /** Stops the server (fast shutdown) and deletes its folder; safe to call twice. */
  stop(): Promise<void>;
}

export interface PostgresOptions {
  /** The port to listen on; a free one by default. */
  port?: number;
}

/** The newest Debian Postgres's bin folder (`/usr/lib/postgresql/<version>/bin`), or undefined. */
export function debianPostgresBin(): string | undefined {
  if (!existsSync(LIB)) return undefined;
  const versions = readdirSync(LIB)
    .filter((name) => existsSync(join(LIB, name, "bin", "initdb")))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] === undefined ? undefined : join(LIB, versions[0], "bin");
}

/** Whether Debian's Postgres binaries are installed (tests skip themselves when they are not). */
export function hasDebianPostgres(): boolean {
  return debianPostgresBin() !== undefined;
}

/** A port the OS says is free right now. */
async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

const isRoot = typeof process.getuid === "function" && process.getuid() === 0;

/** Runs a Postgres tool, as the `postgres` user when we are root. */
async function runTool(bin: string, tool: string, args: string[]): Promise<void> {
  const file = join(bin, tool);
  if (isRoot) await run("runuser", ["-u", "postgres", "--", file, ...args]);
  else await run(file, args);
}

const running = new Set<() => void>();
let exitHookInstalled = false;
function stopAllOnExit(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once("exit", () => {
    for (const stop of running) stop();
  });
}

/** Starts a fresh Postgres cluster; throws when the binaries are missing (check hasDebianPostgres() first). */
export async function startPostgres(startOptions: PostgresOptions = {}): Promise<StartedPostgres> {
  const bin = debianPostgresBin();
  if (!bin) throw new Error(`No Postgres binaries under ${LIB}: install Debian's postgresql package.`);
  const dir = mkdtempSync(join(tmpdir(), "fawn-pg-"));
  chmodSync(dir, 0o777);
  if (isRoot) execFileSync("chown", ["postgres:postgres", dir]);
  const data = join(dir, "data");
  let port: number;
  let options = "";
  try {
    await runTool(bin, "initdb", ["-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync"]);
    // A port free a moment ago can be taken before Postgres binds it (tests start servers in parallel): try another.
    for (let attempt = 1; ; attempt++) {
      port = startOptions.port ?? (await freePort());
      options = [
        `-p ${port}`,
        "-c listen_addresses=127.0.0.1",
        `-c unix_socket_directories=${dir}`,
        "-c fsync=off",
        "-c synchronous_commit=off",
        "-c full_page_writes=off",
        "-c max_connections=100",
      ].join(" ");
      try {
        await runTool(bin, "pg_ctl", ["-D", data, "-o", options, "-l", join(dir, "log"), "-w", "-t", "60", "start"]);
        break;
      } catch (error) {
        if (attempt === 3) throw error;
      }
    }
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  let stopped = false;
  const stopSync = () => {
    if (stopped) return;
    stopped = true;
    running.delete(stopSync);
    try {
      const args = [join(bin, "pg_ctl"), "-D", data, "-m", "immediate", "-w", "stop"];
      if (isRoot) execFileSync("runuser", ["-u", "postgres", "--", ...args], { stdio: "ignore" });
      else execFileSync(args[0]!, args.slice(1), { stdio: "ignore" });
    } catch {
      // Already stopped.
    }
    rmSync(dir, { recursive: true, force: true });
  };
  running.add(stopSync);
  stopAllOnExit();

  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    restart: async (downMs = 0) => {
      if (stopped) throw new Error("This Postgres was stopped.");
      await runTool(bin, "pg_ctl", ["-D", data, "-m", "fast", "-w", "-t", "30", "stop"]);
      if (downMs > 0) await new Promise((resolve) => setTimeout(resolve, downMs));
      await runTool(bin, "pg_ctl", ["-D", data, "-o", options, "-l", join(dir, "log"), "-w", "-t", "60", "start"]);
    },
    stop: async () => {
      if (stopped) return;
      stopped = true;
      running.delete(stopSync);
      try {
        await runTool(bin, "pg_ctl", ["-D", data, "-m", "fast", "-w", "-t", "30", "stop"]);
      } catch {
        // Already stopped (or killed); the folder goes anyway.
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
