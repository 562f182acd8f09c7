// `npm run server`: Fawn's agent and Gateway on Node, serving LangGraph's API and DeerFlow's REST routes under /api.
// `npm run server -- add-user NAME` adds a user and prints their token once; `list-users` and `renew-token NAME`
// manage them. Prints, on start, the URL and exactly how to call it.
import { register } from "node:module";
import { loadConfig, ConfigError, type ServerConfig } from "./config.ts";
import { DataDirInUseError, dataDirHolder, heldDataDirAdvice } from "./data-lock.ts";
import { DatabaseUnreachableError, openDatabase } from "./db/database.ts";
import { UserNameError, Users } from "./users.ts";

// Vite's import.meta.glob (the shipped skills) read from disk on Node; before any of src/ is imported.
register("./vite-globs.ts", import.meta.url);

const USAGE = `Usage:
  npm run server                      start the server (PORT, FAWN_SERVER_TOKEN, DATABASE_URL… or fawn-server.json)
  npm run server -- add-user NAME     add a user and print their token (shown once)
  npm run server -- list-users        list the users
  npm run server -- renew-token NAME  give a user a new token (the old one stops working)`;

async function main(args: string[]): Promise<number> {
  const [command, ...rest] = args;
  if (command === "--help" || command === "-h" || command === "help") {
    console.log(USAGE);
    return 0;
  }
  const config = loadConfig();
  switch (command) {
    case undefined:
    case "start":
      return serve(config);
    case "add-user":
    case "list-users":
    case "renew-token":
      return manageUsers(config, command, rest.join(" "));
    default:
      console.error(`Unknown command "${command}".\n${USAGE}`);
      return 2;
  }
}

async function serve(config: ServerConfig): Promise<number> {
  const { startServer } = await import("./http/start-server.ts");
  const server = await startServer(config);
  const model = config.models?.defaultModel;
  const lines = [
    `Fawn server listening on ${server.url} (replica ${server.replicaId})`,
    `  database: ${config.databaseUrl ? "Postgres at DATABASE_URL" : `embedded Postgres in ${config.dataDir}`}`,
    `  config:   ${config.source}`,
    `  model:    ${model ? `${model.model} (${model.endpoint})` : "none: set FAWN_MODEL_BASE_URL and FAWN_MODEL, or fawn-server.json"}`,
    `  CORS:     ${config.origins.length ? config.origins.join(", ") : "no web origins (FAWN_SERVER_ORIGINS)"}`,
    "",
    server.adminTokenGenerated
      ? "Admin token, made for this start (set FAWN_SERVER_TOKEN to keep one):"
      : "Admin token: the value of FAWN_SERVER_TOKEN.",
    `  export TOKEN=${server.adminTokenGenerated ? server.adminToken : '"$FAWN_SERVER_TOKEN"'}`,
    "",
    "Call it with curl:",
    `  curl -H "Authorization: Bearer $TOKEN" -H "Content-Type: application/json" -d '{}' ${server.apiUrl}/threads/search`,
    "Or with LangGraph's SDK (@langchain/langgraph-sdk):",
    `  new Client({ apiUrl: "${server.apiUrl}", apiKey: process.env.TOKEN })`,
    "DeerFlow's frontend takes the same server at /api/langgraph. More users: npm run server -- add-user NAME",
  ];
  console.log(lines.join("\n"));
  const stop = (signal: string) => {
    console.log(`\n${signal}: closing the server…`);
    const forced = setTimeout(() => process.exit(1), 10_000);
    forced.unref();
    void server.close().then(() => process.exit(0));
  };
  process.once("SIGINT", () => stop("SIGINT"));
  process.once("SIGTERM", () => stop("SIGTERM"));
  return new Promise<number>(() => undefined);
}

async function manageUsers(config: ServerConfig, command: string, name: string): Promise<number> {
  // A running server holds the embedded database: users are then added through it.
  const holder = config.databaseUrl ? undefined : dataDirHolder(config.dataDir);
  if (holder) {
    const url = holder.url ?? `http://127.0.0.1:${String(config.port)}`;
    console.error(heldDataDirAdvice(command, name, config.dataDir, holder, url));
    return 1;
  }
  const db = await openDatabase(config.databaseUrl ? { url: config.databaseUrl } : { dataDir: config.dataDir });
  try {
    // The admin's token is not needed to manage users; a throwaway one keeps Users' admin check inert.
    const users = new Users(db, crypto.randomUUID());
    if (command === "list-users") {
      const listed = await users.list();
      if (listed.length === 0) console.log("No users yet: npm run server -- add-user NAME");
      for (const user of listed) console.log(`${user.name}\t${user.userId}\tadded ${user.createdAt}`);
      return 0;
    }
    if (!name.trim()) {
      console.error(`${command} needs a user name.\n${USAGE}`);
      return 2;
    }
    const user = command === "add-user" ? await users.add(name) : await users.renewToken(name);
    if (!user) {
      console.error(`There is no user named "${name.trim()}".`);
      return 1;
    }
    console.log(
      `${command === "add-user" ? "Added" : "New token for"} ${user.name} (${user.userId}). Their token, shown only now:\n  ${user.token}`,
    );
    return 0;
  } finally {
    await db.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    const told = [ConfigError, UserNameError, DataDirInUseError, DatabaseUnreachableError];
    if (told.some((kind) => error instanceof kind)) {
      console.error((error as Error).message);
    } else console.error("The server could not start:", error);
    process.exit(1);
  },
);
