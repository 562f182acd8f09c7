// The servers `npm run bench:server` measures, each started in a child process of its own: Fawn's server
// (`tsx server/main.ts`, as `npm run server` runs it, over an embedded PGlite in a temporary FAWN_SERVER_DATA, or over
// a Postgres given) and LangGraph's `langgraphjs dev` serving Fawn's graph (langgraph.json → server/graph.ts), both
// with the model from FAWN_MODEL_*. Also the measures of a server's process trees from /proc: memory and CPU time.
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";

/** A server under test, started and ready to answer. */
export interface Target {
  /** "Fawn server" or "langgraphjs dev". */
  name: string;
  /** Where LangGraph's SDK points. */
  apiUrl: string;
  /** The key the SDK sends (x-api-key), or null when the server takes none. */
  apiKey: string | null;
  /** The roots of the processes measured: the server's child process, and its database's when that is apart. */
  pids: number[];
  /** The last lines the server printed (for a failure's report). */
  output(): string;
  stop(): Promise<void>;
}

export interface ModelEnv {
  /** The mock model's OpenAI-compatible base URL (ending in /v1). */
  baseUrl: string;
  model: string;
  apiKey: string;
}

const ROOT = process.cwd();
const BIN = join(ROOT, "node_modules", ".bin");
/** Starting under a shared, busy CPU can be slow: tsx compiles the agent's whole module graph first. */
const START_TIMEOUT_MS = 180_000;
const children = new Set<ChildProcess>();

// A bench that throws or is interrupted still leaves no server behind: each child leads its own process group.
process.once("exit", () => {
  for (const child of children) killGroup(child, "SIGKILL");
});
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => process.exit(130));
}

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // Already gone.
  }
}

/** A port free on 127.0.0.1 now (the system's pick for port 0). */
export async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address ? resolvePort(address.port) : reject(new Error())));
    });
  });
}

/** `roots` and every process below them now (tsx and the dev CLI run the server in a child). */
function processTree(roots: number[]): number[] {
  const parents = new Map<number, number[]>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // Field 4 of /proc/<pid>/stat is the parent's pid; the command (field 2) may hold spaces, so read after ")".
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      parents.set(ppid, [...(parents.get(ppid) ?? []), Number(entry)]);
    } catch {
      // The process ended while we looked.
    }
  }
  const tree: number[] = [];
  const queue = [...roots];
  while (queue.length > 0) {
    const current = queue.pop()!;
    tree.push(current);
    queue.push(...(parents.get(current) ?? []));
  }
  return tree;
}

/**
 * Resident memory in bytes of the process trees under `roots`: each process's proportional set size (Pss in
 * /proc/<pid>/smaps_rollup: its resident pages, a shared page divided among the processes sharing it), so Postgres's
 * shared buffers count once rather than once per backend; VmRSS (/proc/<pid>/status) where that cannot be read.
 */
export function treeRss(roots: number[]): number {
  let total = 0;
  for (const member of processTree(roots)) {
    try {
      let kb: string | undefined;
      try {
        kb = /^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${member}/smaps_rollup`, "utf8"))?.[1];
      } catch {
        kb = undefined;
      }
      kb ??= /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${member}/status`, "utf8"))?.[1];
      total += Number(kb ?? 0) * 1024;
    } catch {
      // The process ended while we looked.
    }
  }
  return total;
}

/** Linux's clock ticks per second, in which /proc/<pid>/stat counts CPU time (USER_HZ, 100 on every common build). */
const CLOCK_TICKS = 100;

/**
 * CPU time in ms (user + system) the live process trees under `roots` have used: fields 14 and 15 of
 * /proc/<pid>/stat, plus 16 and 17 (waited-for children's), so a short-lived child's time counts once it is reaped.
 */
export function treeCpuMs(roots: number[]): number {
  let ticks = 0;
  for (const member of processTree(roots)) {
    try {
      const stat = readFileSync(`/proc/${member}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      // After the command: field 3 is index 0, so utime (14) … cstime (17) are indexes 11 … 14.
      ticks += Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
    } catch {
      // The process ended while we looked.
    }
  }
  return (ticks * 1000) / CLOCK_TICKS;
}

interface Started {
  child: ChildProcess;
  output(): string;
}

function startChild(command: string, args: string[], env: NodeJS.ProcessEnv, cwd: string): Started {
  const child = spawn(command, args, { cwd, env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  children.add(child);
  child.once("exit", () => children.delete(child));
  const lines: string[] = [];
  const keep = (chunk: Buffer) => {
    lines.push(...chunk.toString("utf8").split("\n"));
    lines.splice(0, Math.max(0, lines.length - 40));
  };
  child.stdout?.on("data", keep);
  child.stderr?.on("data", keep);
  return { child, output: () => lines.join("\n") };
}

/** Waits until `url` answers 200, or throws with the server's last output when it exits or takes too long. */
async function waitUntilReady(url: string, started: Started, name: string): Promise<void> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (started.child.exitCode !== null || started.child.signalCode !== null) {
      throw new Error(`${name} exited before it answered:\n${started.output()}`);
    }
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(2_000) });
      if (response.ok) return;
    } catch {
      // Not listening yet.
    }
    await sleep(250);
  }
  killGroup(started.child, "SIGKILL");
  throw new Error(`${name} did not answer ${url} within ${START_TIMEOUT_MS / 1000} s:\n${started.output()}`);
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolveExit) => child.once("exit", () => resolveExit()));
  killGroup(child, "SIGTERM");
  const forced = setTimeout(() => killGroup(child, "SIGKILL"), 10_000);
  await exited;
  clearTimeout(forced);
}

function modelVariables(model: ModelEnv): NodeJS.ProcessEnv {
  return { FAWN_MODEL_BASE_URL: model.baseUrl, FAWN_MODEL: model.model, FAWN_MODEL_API_KEY: model.apiKey };
}

/**
 * Fawn's server as `npm run server` starts it, on a free port over a fresh embedded database, or over `database`
 * (a Postgres the caller started, whose processes `database.pids` names for the measures).
 */
export async function startFawnServer(
  model: ModelEnv,
  database?: { url: string; pids: number[]; name: string },
): Promise<Target> {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), "fawn-bench-server-"));
  const token = randomBytes(24).toString("base64url");
  const started = startChild(
    join(BIN, "tsx"),
    ["server/main.ts"],
    {
      ...process.env,
      ...modelVariables(model),
      PORT: String(port),
      HOST: "127.0.0.1",
      FAWN_SERVER_TOKEN: token,
      FAWN_SERVER_DATA: dataDir,
      ...(database && { DATABASE_URL: database.url }),
    },
    ROOT,
  );
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitUntilReady(`${url}/ok`, started, "Fawn's server");
  } catch (error) {
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  return {
    name: database?.name ?? "Fawn server",
    apiUrl: `${url}/api`,
    apiKey: token,
    pids: [started.child.pid!, ...(database?.pids ?? [])],
    output: started.output,
    async stop() {
      await stopChild(started.child);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * `langgraphjs dev` serving Fawn's graph. Its project folder is a temporary one holding a langgraph.json that names
 * the checkout's server/graph.ts, so the dev server's own store (.langgraph_api/, kept in the project folder) starts
 * empty and never meets another run's.
 */
export async function startLangGraphDev(model: ModelEnv): Promise<Target> {
  const port = await freePort();
  const project = mkdtempSync(join(tmpdir(), "fawn-bench-langgraph-"));
  const config = JSON.parse(readFileSync(join(ROOT, "langgraph.json"), "utf8")) as { graphs: Record<string, string> };
  const graphs = Object.fromEntries(
    Object.entries(config.graphs).map(([id, spec]) => {
      const [file, name] = spec.split(":");
      // Relative to the project folder: the dev server joins (not resolves) a graph's path onto it.
      return [id, `${relative(project, resolve(ROOT, file!))}:${name}`];
    }),
  );
  writeFileSync(join(project, "langgraph.json"), JSON.stringify({ ...config, graphs }, null, 2));
  const started = startChild(
    join(BIN, "langgraphjs"),
    ["dev", "--port", String(port), "--host", "127.0.0.1", "--no-browser", "--no-reload", "--config", project],
    {
      ...process.env,
      ...modelVariables(model),
      LANGGRAPH_CLI_NO_ANALYTICS: "1",
      LANGSMITH_TRACING: "false",
      LANGCHAIN_TRACING_V2: "false",
    },
    project,
  );
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitUntilReady(`${url}/ok`, started, "langgraphjs dev");
  } catch (error) {
    rmSync(project, { recursive: true, force: true });
    throw error;
  }
  return {
    name: "langgraphjs dev",
    apiUrl: url,
    apiKey: null,
    pids: [started.child.pid!],
    output: started.output,
    async stop() {
      await stopChild(started.child);
      rmSync(project, { recursive: true, force: true });
    },
  };
}

/** The postmaster of the Postgres listening on `port` (its backends are its children), found by its command line. */
export function postmasterPid(port: number): number | undefined {
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const args = readFileSync(`/proc/${entry}/cmdline`, "utf8").split("\0");
      if (args[0]?.endsWith("/postgres") && args.join(" ").includes(`-p ${port} `)) return Number(entry);
    } catch {
      // The process ended while we looked.
    }
  }
  return undefined;
}
