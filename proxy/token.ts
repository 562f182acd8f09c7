// The proxy's secret: made at first start, kept in a file only the user can read, required on every request. A local
// process can forge an Origin header; it cannot read another file of the user's that is mode 0600.
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import path from "node:path";

/** The request header that carries the token. Not `Authorization`: that one carries the provider's key to the target. */
export const PROXY_TOKEN_HEADER = "x-fawn-proxy-token";
/** 256 random bits, base64url: 43 characters. */
const TOKEN_BYTES = 32;
/** What a token file must hold: base64url text of at least 128 bits (22 characters). */
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{22,}$/;
/** The `type` of the proxy's 401 body, which Fawn reads as "the proxy needs its token". */
export const TOKEN_ERROR_TYPE = "proxy_token";

type Env = Readonly<Record<string, string | undefined>>;

/** A token file the proxy cannot use: the start-up stops with this sentence. */
export class TokenFileError extends Error {}

/**
 * Where the token lives: FAWN_PROXY_TOKEN_FILE, else the user's config folder (`$XDG_CONFIG_HOME` or `~/.config`,
 * `%APPDATA%` on Windows) under `fawn-proxy/token`. Per user, not per folder, so it is pasted into Fawn once.
 */
export function tokenFileFromEnv(env: Env, platform: NodeJS.Platform = process.platform, home = homedir()): string {
  const named = env.FAWN_PROXY_TOKEN_FILE?.trim();
  if (named) return path.resolve(named);
  const base =
    platform === "win32"
      ? env.APPDATA?.trim() || path.join(home, "AppData", "Roaming")
      : env.XDG_CONFIG_HOME?.trim() || path.join(home, ".config");
  return path.join(base, "fawn-proxy", "token");
}

function isMissing(error: unknown): boolean {
  return error instanceof Error && "code" in error && error.code === "ENOENT";
}

/** Reads the token at `file`, checking that only its owner, this user, can read it. */
function readToken(file: string): string {
  const stat = statSync(file);
  if (!stat.isFile()) throw new TokenFileError(`the token file ${file} is not a file.`);
  // Windows has no POSIX modes; the file sits in the user's own profile there.
  if (process.platform !== "win32") {
    if (typeof process.getuid === "function" && stat.uid !== process.getuid()) {
      throw new TokenFileError(`the token file ${file} belongs to another user. Delete it to have a new token made.`);
    }
    if ((stat.mode & 0o077) !== 0) {
      const mode = (stat.mode & 0o777).toString(8);
      throw new TokenFileError(
        `the token file ${file} can be read by other users (mode ${mode}). ` +
          `Run chmod 600 ${file}, or delete it to have a new token made.`,
      );
    }
  }
  const token = readFileSync(file, "utf8").trim();
  if (!TOKEN_PATTERN.test(token)) {
    throw new TokenFileError(
      `the token file ${file} does not hold a token (at least 22 letters, digits, "-" or "_"). ` +
        "Delete it to have a new token made.",
    );
  }
  return token;
}

/**
 * The token in `file`, made (256 random bits) and written with mode 0600 in a 0700 folder when there is none yet.
 * `created` says it was made now. Throws TokenFileError for a file it will not use.
 */
export function loadOrCreateToken(file: string): { token: string; created: boolean } {
  try {
    return { token: readToken(file), created: false };
  } catch (error) {
    if (!isMissing(error)) throw error;
  }
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const token = randomBytes(TOKEN_BYTES).toString("base64url");
  try {
    // "wx": never follows or overwrites something planted at the path meanwhile.
    writeFileSync(file, `${token}\n`, { mode: 0o600, flag: "wx" });
  } catch (error) {
    // Another start made it first: use that one.
    if (error instanceof Error && "code" in error && error.code === "EEXIST")
      return { token: readToken(file), created: false };
    throw error;
  }
  return { token, created: true };
}

const digest = (text: string): Buffer => createHash("sha256").update(text, "utf8").digest();

/** True when `given` is the token; compared in constant time (both hashed first, so lengths leak nothing either). */
export function tokenMatches(token: string, given: string | string[] | undefined): boolean {
  if (typeof given !== "string" || given === "") return false;
  return timingSafeEqual(digest(token), digest(given));
}

/** Checks a token passed as an option (tests, embedders), so a weak one cannot stand in for the file's. */
export function assertUsableToken(token: unknown): asserts token is string {
  if (typeof token !== "string" || !TOKEN_PATTERN.test(token)) {
    throw new TokenFileError(
      'the proxy needs a token of at least 22 letters, digits, "-" or "_" (the `token` option).',
    );
  }
}
