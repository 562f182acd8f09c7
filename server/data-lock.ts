// The embedded Postgres (PGlite) is one process's: a second process opening the same folder would corrupt it. A
// server therefore holds `<dataDir>/server.lock` (its pid and URL) while it runs; another server, or `add-user`, on
// the same folder is refused with a sentence saying what to do instead. A lock whose process is gone is taken over.
import { mkdirSync, openSync, readFileSync, rmSync, writeSync, closeSync } from "node:fs";
import path from "node:path";

export interface DataLockHolder {
  pid: number;
  url?: string;
}

/** The folder is held by another live process. */
export class DataDirInUseError extends Error {
  override name = "DataDirInUseError";

  constructor(
    readonly dataDir: string,
    readonly holder: DataLockHolder,
  ) {
    super(
      `Another Fawn server (process ${holder.pid}${holder.url ? `, ${holder.url}` : ""}) is using ${dataDir}; stop ` +
        "it first, give this one another FAWN_SERVER_DATA, or use one Postgres (DATABASE_URL) for several servers.",
    );
  }
}

const lockFile = (dataDir: string) => path.join(dataDir, "server.lock");

/**
 * What `add-user`, `list-users` or `renew-token` answers while a running server (at `url`) holds the folder: how to do
 * it through that server with the admin's token, which its start banner exported as `$TOKEN`.
 */
export function heldDataDirAdvice(
  command: string,
  name: string,
  dataDir: string,
  holder: DataLockHolder,
  url: string,
): string {
  const held = `The server (process ${holder.pid}) holds ${dataDir}`;
  const auth = '-H "Authorization: Bearer $TOKEN"';
  if (command === "list-users")
    return `${held}: stop it, or list the users through it:\n  curl ${auth} ${url}/admin/users`;
  if (command !== "add-user") return `${held}: stop it first (a running server renews no token).`;
  const body = JSON.stringify({ name: /^[^'\\]+$/.test(name.trim()) ? name.trim() : "NAME" });
  return (
    `${held}: stop it, or add the user through it:\n` +
    `  curl -X POST ${auth} -H "Content-Type: application/json" -d '${body}' ${url}/admin/users`
  );
}

/** Who holds the folder, when a live process does. */
export function dataDirHolder(dataDir: string): DataLockHolder | undefined {
  let holder: DataLockHolder;
  try {
    holder = JSON.parse(readFileSync(lockFile(dataDir), "utf8")) as DataLockHolder;
  } catch {
    return undefined;
  }
  if (!Number.isInteger(holder.pid) || holder.pid === process.pid) return undefined;
  try {
    process.kill(holder.pid, 0);
    return holder;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === "EPERM" ? holder : undefined;
  }
}

/** Takes the folder for this process; throws DataDirInUseError when a live one holds it. */
export function lockDataDir(dataDir: string): { setUrl(url: string): void; release(): void } {
  mkdirSync(dataDir, { recursive: true });
  const file = lockFile(dataDir);
  const write = (holder: DataLockHolder, flag: "wx" | "w") => {
    const fd = openSync(file, flag);
    try {
      writeSync(fd, JSON.stringify(holder));
    } finally {
      closeSync(fd);
    }
  };
  try {
    write({ pid: process.pid }, "wx");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    const holder = dataDirHolder(dataDir);
    if (holder) throw new DataDirInUseError(dataDir, holder);
    write({ pid: process.pid }, "w");
  }
  let released = false;
  return {
    setUrl: (url) => write({ pid: process.pid, url }, "w"),
    release: () => {
      if (released) return;
      released = true;
      rmSync(file, { force: true });
    },
  };
}
