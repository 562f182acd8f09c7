// The deployment files, checked without Docker (not on CI's machines): compose.yaml parses and runs two Fawn servers
// over Postgres 17 with what they need; the Dockerfile runs `npm run server` and holds every file the server loads;
// .dockerignore keeps out what must never reach an image (local data, secrets, node_modules) and nothing it needs.
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";

const REPO = resolve(import.meta.dirname, "../..");
const read = (file: string) => readFileSync(join(REPO, file), "utf8");

interface ComposeService {
  image?: string;
  build?: string;
  environment?: Record<string, string>;
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test: string[] | string };
  ports?: string[];
  volumes?: string[];
}
const compose = parse(read("compose.yaml"), { merge: true }) as {
  services: Record<string, ComposeService>;
  volumes?: Record<string, unknown>;
};
const fawnServices = Object.entries(compose.services).filter(([, service]) => service.build === ".");

/** The Dockerfile's instructions of the final stage, continuation lines joined. */
function dockerInstructions(): { op: string; args: string }[] {
  const lines = read("Dockerfile")
    .replace(/\\\n/g, " ")
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith("#"));
  const stages = lines.map((line, index) => (/^FROM /i.test(line) ? index : -1)).filter((index) => index >= 0);
  return lines.slice(stages.at(-1)).map((line) => {
    const [op = "", ...rest] = line.split(/\s+/);
    return { op: op.toUpperCase(), args: rest.join(" ") };
  });
}

/** Repository files the server loads, following relative imports from its entry points (src/ and server/ alike). */
function serverModules(entries: string[]): Set<string> {
  const seen = new Set<string>();
  const pending = entries.map((entry) => join(REPO, entry));
  const specifiers =
    /(?:from\s+|import\s*\(\s*|register\(\s*|new URL\(\s*|import\.meta\.glob(?:<[^>]*>)?\(\s*)["'](\.[^"'?]+)/g;
  while (pending.length) {
    const file = pending.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    if (!/\.(ts|tsx|mts|mjs|js)$/.test(file)) continue;
    for (const [, specifier] of readFileSync(file, "utf8").matchAll(specifiers)) {
      const target = resolve(dirname(file), specifier!.replace(/\/\*\*\/\*$/, ""));
      if (existsSync(target)) pending.push(target);
    }
  }
  return new Set([...seen].map((file) => relative(REPO, file)));
}

describe("compose.yaml", () => {
  it("runs Postgres 17 with a volume and a readiness check", () => {
    const postgres = compose.services.postgres!;
    expect(postgres.image).toMatch(/^postgres:17/);
    expect(postgres.volumes?.some((volume) => volume.endsWith(":/var/lib/postgresql/data"))).toBe(true);
    expect(JSON.stringify(postgres.healthcheck?.test)).toContain("pg_isready");
    expect(Object.keys(compose.volumes ?? {})).toContain("postgres-data");
  });

  it("runs two Fawn servers from this Dockerfile, each with the database, the admin token and a health check", () => {
    expect(fawnServices).toHaveLength(2);
    for (const [name, service] of fawnServices) {
      const env = service.environment ?? {};
      expect(env.DATABASE_URL, name).toMatch(/^postgres:\/\/[^@]+@postgres:5432\/\w+$/);
      expect(env.FAWN_SERVER_TOKEN, name).toMatch(/^\$\{FAWN_SERVER_TOKEN:\?.+\}$/);
      expect(env.HOST, name).toBe("0.0.0.0");
      expect(service.depends_on?.postgres?.condition, name).toBe("service_healthy");
      expect(JSON.stringify(service.healthcheck?.test), name).toContain(`/ok`);
    }
  });

  it("publishes the replicas on different host ports, both to the server's port", () => {
    const ports = fawnServices.flatMap(([, service]) => service.ports ?? []);
    const hostPorts = ports.map((mapping) => mapping.split(":")[0]);
    expect(new Set(hostPorts).size).toBe(fawnServices.length);
    for (const mapping of ports) expect(mapping.split(":")[1]).toBe(fawnServices[0]![1].environment?.PORT);
  });

  it("writes no secret into the file: keys and tokens come from the environment", () => {
    for (const [, service] of fawnServices) {
      for (const [name, value] of Object.entries(service.environment ?? {})) {
        if (/KEY|TOKEN/.test(name)) expect(value, name).toMatch(/^\$\{/);
      }
    }
  });
});

describe("Dockerfile", () => {
  const instructions = dockerInstructions();
  const last = (op: string) => instructions.filter((instruction) => instruction.op === op).at(-1)?.args;

  it("runs `npm run server` on Node 20, as an unprivileged user, listening on all interfaces", () => {
    expect(read("Dockerfile")).toMatch(/^FROM node:20/m);
    expect(JSON.parse(last("CMD")!)).toEqual(["npm", "run", "server"]);
    expect((JSON.parse(read("package.json")) as { scripts: Record<string, string> }).scripts.server).toBe(
      "tsx server/main.ts",
    );
    expect(last("USER")).toBe("node");
    expect(last("ENV")).toMatch(/HOST=0\.0\.0\.0/);
    expect(last("EXPOSE")).toBe("2024");
    expect(last("HEALTHCHECK")).toContain("/ok");
  });

  it("copies every repository file the server loads, and .dockerignore keeps none of them out", () => {
    const copied = instructions
      .filter((instruction) => instruction.op === "COPY" && !instruction.args.startsWith("--from"))
      .flatMap((instruction) => instruction.args.split(/\s+/).slice(0, -1));
    for (const source of copied) expect(existsSync(join(REPO, source)), source).toBe(true);
    const ignored = read(".dockerignore")
      .split("\n")
      .map((line) => line.trim())
      .filter((line) => line && !line.startsWith("#"));
    const modules = serverModules(["server/main.ts", "server/sandbox/python-process.ts"]);
    expect(modules.size).toBeGreaterThan(50);
    // workers/ holds the browser's Web Worker entries, which src/ starts only where Web Workers exist (not on Node).
    const tops = new Set([...modules].map((module) => module.split("/")[0]!).filter((top) => top !== "workers"));
    expect([...tops]).toEqual(expect.arrayContaining(["server", "src", "skills"]));
    expect([...tops].filter((top) => !copied.includes(top))).toEqual([]);
    expect([...tops].filter((top) => ignored.includes(top))).toEqual([]);
  });

  it("keeps local data, secrets, git and node_modules out of the build", () => {
    const ignored = read(".dockerignore").split("\n");
    for (const entry of [".git", "node_modules", ".env", ".fawn-server", ".langgraph_api", "fawn-server.json"]) {
      expect(ignored, entry).toContain(entry);
    }
  });
});

describe(".gitignore", () => {
  it("keeps the embedded database's default folder (users' data and token hashes) out of git, as out of the image", () => {
    expect(read(".gitignore").split("\n")).toContain(".fawn-server/");
  });
});
