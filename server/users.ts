// The people a server answers. A user is added by name and given a token once (printed, never stored: only its
// SHA-256 is kept in fawn_users); every request is matched to its user by that hash. The admin is not a row: their
// token is FAWN_SERVER_TOKEN (or one made at start) and their data is owned by "admin".
import { createHash, randomBytes, randomUUID, timingSafeEqual } from "node:crypto";
import type { Database } from "./db/database.ts";

/** The owner id of the admin's data. */
export const ADMIN_OWNER = "admin";

export interface ServerUser {
  /** Owns the user's rows, threads and runs. */
  userId: string;
  name: string;
}

/** A user just added, with the token they will use (shown once). */
export interface NewUser extends ServerUser {
  token: string;
}

/** A user name refused (empty, too long, taken); one sentence. */
export class UserNameError extends Error {
  override name = "UserNameError";

  constructor(
    message: string,
    /** True when the name is fine but another user has it. */
    readonly taken = false,
  ) {
    super(message);
  }
}

const NAME = /^[A-Za-z0-9][A-Za-z0-9 ._@-]{0,63}$/;

/** A new random token: `fawn_` and 32 random bytes, URL-safe. */
export function newToken(): string {
  return `fawn_${randomBytes(32).toString("base64url")}`;
}

export function tokenHash(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}

export class Users {
  readonly #adminHash: Buffer;

  constructor(
    private readonly db: Database,
    adminToken: string,
  ) {
    this.#adminHash = createHash("sha256").update(adminToken, "utf8").digest();
  }

  /** Adds a user named `name` and returns their token (the only time it can be read). */
  async add(name: string): Promise<NewUser> {
    const trimmed = name.trim();
    if (!NAME.test(trimmed)) {
      throw new UserNameError(
        "A user name is 1 to 64 letters, digits, spaces, dots, dashes, underscores or @, starting with a letter or digit.",
      );
    }
    if (trimmed.toLowerCase() === ADMIN_OWNER)
      throw new UserNameError('"admin" is the name of the server\'s admin.', true);
    const token = newToken();
    const userId = `user_${randomUUID()}`;
    const rows = await this.db.query<{ user_id: string }>(
      `INSERT INTO fawn_users (user_id, name, token_hash) VALUES ($1, $2, $3)
       ON CONFLICT (name) DO NOTHING RETURNING user_id`,
      [userId, trimmed, tokenHash(token)],
    );
    if (rows.length === 0) throw new UserNameError(`A user named "${trimmed}" already exists.`, true);
    return { userId, name: trimmed, token };
  }

  /** The user this token belongs to (the admin included), or undefined. */
  async byToken(token: string): Promise<ServerUser | undefined> {
    if (!token) return undefined;
    const hash = createHash("sha256").update(token, "utf8").digest();
    if (timingSafeEqual(hash, this.#adminHash)) return { userId: ADMIN_OWNER, name: ADMIN_OWNER };
    // The lookup is by the hash, so a guess learns nothing from timing about a stored token.
    const rows = await this.db.query<{ user_id: string; name: string }>(
      "SELECT user_id, name FROM fawn_users WHERE token_hash = $1",
      [hash.toString("hex")],
    );
    const row = rows[0];
    return row && { userId: row.user_id, name: row.name };
  }

  /** Every added user (not the admin), oldest first. */
  async list(): Promise<(ServerUser & { createdAt: string })[]> {
    const rows = await this.db.query<{ user_id: string; name: string; created_at: Date | string }>(
      "SELECT user_id, name, created_at FROM fawn_users ORDER BY created_at, name",
    );
    return rows.map((row) => ({
      userId: row.user_id,
      name: row.name,
      createdAt: new Date(row.created_at).toISOString(),
    }));
  }

  /** Gives the user a new token (the old one stops working at once); undefined when there is no such user. */
  async renewToken(name: string): Promise<NewUser | undefined> {
    const token = newToken();
    const rows = await this.db.query<{ user_id: string; name: string }>(
      "UPDATE fawn_users SET token_hash = $2 WHERE name = $1 RETURNING user_id, name",
      [name.trim(), tokenHash(token)],
    );
    const row = rows[0];
    return row && { userId: row.user_id, name: row.name, token };
  }
}
