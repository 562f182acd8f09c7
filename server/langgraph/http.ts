// The LangGraph routes' HTTP plumbing: the hono env (the user's owner id, set by the server's auth), JSON bodies read
// with zod, answers serialised as LangGraph's server serialises them, and every refusal as `{detail}` with its status.
import type { Context } from "hono";
import type { z } from "zod";
import { isUserFacing, userErrorStatus } from "../../src/shared/user-error.ts";

/** What the server's auth middleware leaves for the routes: the requesting user's owner id. */
export interface LangGraphEnv {
  Variables: { owner: string };
}

export type LangGraphContext = Context<LangGraphEnv>;

/** A refusal a route answers with its own status and one sentence. */
export class HttpProblem extends Error {
  constructor(
    readonly status: 400 | 404 | 409 | 422,
    detail: string,
  ) {
    super(detail);
  }
}

/** The owner id the auth middleware set; a route reached without it is a wiring mistake, not a user's. */
export function ownerOf(c: LangGraphContext): string {
  const owner = c.get("owner");
  if (typeof owner !== "string" || owner.length === 0) throw new Error("No authenticated owner on the request.");
  return owner;
}

/** JSON the way LangGraph's server writes it: LangChain messages as `{...data, type}` (their `toDict()`). */
export function serialise(value: unknown): string {
  return JSON.stringify(value, function (this: Record<string, unknown>, key: string, replaced: unknown) {
    const raw = this[key];
    if (raw !== null && typeof raw === "object" && typeof (raw as { toDict?: unknown }).toDict === "function") {
      const { type, data } = (raw as { toDict(): { type: string; data: Record<string, unknown> } }).toDict();
      return { ...data, type };
    }
    return replaced;
  });
}

export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(serialise(body), { status, headers: { "content-type": "application/json", ...headers } });
}

/** The request's JSON body checked against `schema` (an empty body reads as `{}`): 400 bad JSON, 422 wrong shape. */
export async function readBody<T>(c: LangGraphContext, schema: z.ZodType<T>): Promise<T> {
  const text = await c.req.raw.text();
  let body: unknown = {};
  if (text.trim().length > 0) {
    try {
      body = JSON.parse(text);
    } catch {
      throw new HttpProblem(400, "The request body is not valid JSON.");
    }
  }
  return check(body, schema);
}

/** `value` checked against `schema`; a mismatch is a 422 naming each wrong field. */
export function check<T>(value: unknown, schema: z.ZodType<T>): T {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const detail = parsed.error.issues.map((issue) => `${issue.path.join(".") || "body"}: ${issue.message}`);
  throw new HttpProblem(422, `${detail.join("; ")}.`);
}

/** A query flag as the SDK sends it (`"1"`/`"0"`, or `true`/`false`). */
export function queryFlag(value: string | undefined): boolean {
  return value === "1" || value === "true";
}

/** The answer to an error a route threw: its own status and sentence, a user-facing error's, else a bare 500. */
export function errorResponse(error: unknown): Response {
  if (error instanceof HttpProblem) return json({ detail: error.message }, error.status);
  if (isUserFacing(error)) return json({ detail: error.message }, userErrorStatus(error));
  console.error("LangGraph route failed:", error);
  return json({ detail: "The server failed to answer this request." }, 500);
}
