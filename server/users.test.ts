// Users over the embedded Postgres: a token shown once and kept only as its hash, found again by that token, renewed;
// the admin's token known without a row. Also the embedded database's folder lock.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DataDirInUseError, dataDirHolder, heldDataDirAdvice, lockDataDir } from "./data-lock.ts";
import { openDatabase, type Database } from "./db/database.ts";
import { ADMIN_OWNER, tokenHash, UserNameError, Users } from "./users.ts";

let db: Database;
let users: Users;
beforeAll(async () => {
  db = await openDatabase();
  users = new Users(db, "the-admin-token");
  // PGlite takes a few seconds to start, more on a busy machine.
}, 60_000);
afterAll(async () => {
  await db?.close();
});

describe("Users", () => {
  it("adds a user with a new token and keeps only its SHA-256", async () => {
    const ada = await users.add("  Ada Lovelace ");
    expect(ada.name).toBe("Ada Lovelace");
    expect(ada.token).toMatch(/^fawn_[A-Za-z0-9_-]{43}$/);
    const rows = await db.query<Record<string, unknown>>("SELECT * FROM fawn_users WHERE user_id = $1", [ada.userId]);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.token_hash).toBe(tokenHash(ada.token));
    expect(JSON.stringify(rows)).not.toContain(ada.token);
    expect(await users.byToken(ada.token)).toEqual({ userId: ada.userId, name: "Ada Lovelace" });
  });

  it("knows the admin by FAWN_SERVER_TOKEN and nobody by a wrong or empty token", async () => {
    expect(await users.byToken("the-admin-token")).toEqual({ userId: ADMIN_OWNER, name: ADMIN_OWNER });
    expect(await users.byToken("the-admin-token ")).toBeUndefined();
    expect(await users.byToken("")).toBeUndefined();
    expect(await users.byToken("fawn_guess")).toBeUndefined();
  });

  it("refuses a taken name, the admin's, and names that are not names", async () => {
    await users.add("Grace");
    await expect(users.add("Grace")).rejects.toMatchObject({
      message: 'A user named "Grace" already exists.',
      taken: true,
    });
    await expect(users.add("admin")).rejects.toThrow(/the server's admin/);
    for (const name of ["", "   ", "-dash", "a/b", "x".repeat(65)]) {
      await expect(users.add(name)).rejects.toBeInstanceOf(UserNameError);
    }
  });

  it("renews a token: the old one stops working at once", async () => {
    const linus = await users.add("Linus");
    const renewed = await users.renewToken("Linus");
    expect(renewed?.userId).toBe(linus.userId);
    expect(await users.byToken(linus.token)).toBeUndefined();
    expect(await users.byToken(renewed!.token)).toMatchObject({ name: "Linus" });
    expect(await users.renewToken("Nobody")).toBeUndefined();
  });

  it("lists users oldest first", async () => {
    expect((await users.list()).map((user) => user.name)).toEqual(["Ada Lovelace", "Grace", "Linus"]);
  });
});

describe("the embedded database's lock", () => {
  it("refuses a second holder while the first lives, and is taken over from a dead one", () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "fawn-lock-"));
    const lockFile = path.join(dataDir, "server.lock");
    try {
      const lock = lockDataDir(dataDir);
      lock.setUrl("http://127.0.0.1:1234");
      expect(JSON.parse(readFileSync(lockFile, "utf8"))).toEqual({ pid: process.pid, url: "http://127.0.0.1:1234" });
      lock.release();
      expect(existsSync(lockFile)).toBe(false);
      // Another live process (this one's parent) holds it.
      writeFileSync(lockFile, JSON.stringify({ pid: process.ppid, url: "http://127.0.0.1:9" }));
      expect(dataDirHolder(dataDir)).toEqual({ pid: process.ppid, url: "http://127.0.0.1:9" });
      expect(() => lockDataDir(dataDir)).toThrow(DataDirInUseError);
      expect(() => lockDataDir(dataDir)).toThrow(
        /^Another Fawn server \(process \d+, http:\/\/127\.0\.0\.1:9\) is using /,
      );
      // A process that is gone (beyond Linux's largest pid) left it: it is taken over.
      writeFileSync(lockFile, JSON.stringify({ pid: 4_194_305 }));
      expect(dataDirHolder(dataDir)).toBeUndefined();
      lockDataDir(dataDir).release();
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it("tells add-user and list-users beside a running server the curl line that does it there, with $TOKEN", () => {
    const holder = { pid: 42, url: "http://127.0.0.1:9" };
    const add = heldDataDirAdvice("add-user", " alice ", "/data", holder, holder.url);
    expect(add).toBe(
      "The server (process 42) holds /data: stop it, or add the user through it:\n" +
        `  curl -X POST -H "Authorization: Bearer $TOKEN" -H "Content-Type: application/json" -d '{"name":"alice"}' ` +
        "http://127.0.0.1:9/admin/users",
    );
    expect(heldDataDirAdvice("add-user", "o'neil", "/data", holder, holder.url)).toContain(`-d '{"name":"NAME"}'`);
    expect(heldDataDirAdvice("list-users", "", "/data", holder, holder.url)).toMatch(
      /list the users through it:\n {2}curl -H "Authorization: Bearer \$TOKEN" http:\/\/127\.0\.0\.1:9\/admin\/users$/,
    );
    const renew = heldDataDirAdvice("renew-token", "alice", "/data", holder, holder.url);
    expect(renew).toBe("The server (process 42) holds /data: stop it first (a running server renews no token).");
  });
});
