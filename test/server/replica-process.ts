// One Fawn replica as a deployment runs it: `npm run server` spawned in its own process group (so SIGKILL takes npm,
// tsx and node together) against a shared Postgres and the mock model, resolved once it prints where it listens.
// test/server/crash.test.ts kills and restarts these.
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { Client } from "@langchain/langgraph-sdk";

export interface ReplicaOptions {
  databaseUrl: string;
  /** The mock model's URL (`/v1`). */
  modelUrl: string;
  /** The admin token every replica shares. */
  token: string;
  /** The folder its sandbox data goes under (one per replica name). */
  dataDir: string;
  /** Its port (0: any free one). */
  port: number;
  /** FAWN_RUN_LEASE_MS. */
  leaseMs: number;
}

export interface Replica {
  name: string;
  /** The replica id it printed. */
  id: string;
  url: string;
  /** The admin token it was started with (the Client's key). */
  token: string;
  client: Client;
  process: ChildProcess;
  output: string[];
  /** Whether the process is still running. */
  alive(): boolean;
  /** Signals the whole process group and waits (10 s at most) for it to exit. */
  kill(signal?: NodeJS.Signals): Promise<void>;
}

/** Starts `npm run server`; resolves once it prints where it listens (rejects after 60 s or when it exits first). */
export async function startReplica(name: string, options: ReplicaOptions): Promise<Replica> {
  const child = spawn("npm", ["run", "server", "--silent"], {
    cwd: path.resolve(import.meta.dirname, "../.."),
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      ...process.env,
      DATABASE_URL: options.databaseUrl,
      HOST: "127.0.0.1",
      PORT: String(options.port),
      FAWN_SERVER_TOKEN: options.token,
      FAWN_SERVER_DATA: path.join(options.dataDir, name),
      FAWN_MODEL_BASE_URL: options.modelUrl,
      FAWN_MODEL: "mock-model",
      FAWN_MODEL_API_KEY: "sk-test",
      FAWN_RUN_LEASE_MS: String(options.leaseMs),
    },
  });
  const output: string[] = [];
  let exited = false;
  const exit = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  void exit.then(() => (exited = true));
  const kill = async (signal: NodeJS.Signals = "SIGTERM") => {
    if (exited || child.pid === undefined) return;
    try {
      process.kill(-child.pid, signal);
    } catch {
      // already gone
    }
    await Promise.race([exit, sleep(10_000)]);
  };
  const listening = new Promise<{ url: string; id: string }>((resolve, reject) => {
    child.stdout!.on("data", (chunk: Buffer) => {
      output.push(chunk.toString());
      const found = /listening on (http:\/\/\S+) \(replica ([^)]+)\)/.exec(output.join(""));
      if (found) resolve({ url: found[1]!, id: found[2]! });
    });
    child.stderr!.on("data", (chunk: Buffer) => output.push(chunk.toString()));
    void exit.then(() => reject(new Error(`${name} exited before it listened:\n${output.join("")}`)));
  });
  try {
    const { url, id } = await Promise.race([
      listening,
      sleep(60_000).then(() => Promise.reject(new Error(`${name} did not start:\n${output.join("")}`))),
    ]);
    return {
      name,
      id,
      url,
      token: options.token,
      client: new Client({ apiUrl: `${url}/api`, apiKey: options.token }),
      process: child,
      output,
      alive: () => !exited,
      kill,
    };
  } catch (error) {
    await kill("SIGKILL");
    throw error;
  }
}
