// What every Gateway HTTP route file shares: JSON answers, `{detail}` refusals with their status, reading a JSON body
// through a zod schema, and finding a thread or answering 404.
import { Hono } from "hono/tiny";
import type { z } from "zod";
import { isUserFacing, userErrorStatus } from "../../shared/user-error.ts";
import type { Gateway } from "../create-gateway.ts";
import { UploadError } from "../uploads/upload-rules.ts";

/** The hono app every route file registers its routes on (hono/tiny: a few dozen routes need no faster router). */
export type RouteApp = Hono;

/** A route file: registers its routes on `app`, answering from `gateway`. */
export type RouteGroup = (app: RouteApp, gateway: Gateway) => void;

export function newRouteApp(): RouteApp {
  return new Hono({ strict: false });
}

export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", ...headers } });
}

export function problem(status: number, detail: string): Response {
  return json({ detail }, status);
}

/** A refusal a route answers with its own status (bad JSON 400, missing thing 404, too large 413, failed schema 422…). */
export class RouteProblem extends Error {
  constructor(
    readonly status: 400 | 403 | 404 | 409 | 413 | 415 | 422,
    detail: string,
  ) {
    super(detail);
  }
}

/** The status an error thrown by a route answers with, DeerFlow-style as `{detail}`. */
export function errorResponse(error: unknown): Response {
  if (error instanceof RouteProblem) return problem(error.status, error.message);
  // An upload names DeerFlow's own status: 400 a bad name, 404 no such upload, 413 over a limit, 507 storage full.
  if (error instanceof UploadError) return problem(error.status, error.message);
  if (isUserFacing(error)) return problem(userErrorStatus(error), error.message);
  return problem(500, error instanceof Error ? error.message : String(error));
}

/** The request's JSON body checked by `schema`: 400 when it is not JSON, 422 naming each failed field. */
export async function readJson<T>(request: Request, schema: z.ZodType<T>): Promise<T> {
  let body: unknown = {};
  const text = await request.text();
  if (text.trim().length > 0) {
    try {
      body = JSON.parse(text);
    } catch {
      throw new RouteProblem(400, "The request body is not valid JSON.");
    }
  }
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    const detail = parsed.error.issues.map((issue) => `${issue.path.join(".") || "body"}: ${issue.message}`);
    throw new RouteProblem(422, detail.join("; "));
  }
  return parsed.data;
}

/** The request's path without trailing slashes, as the 404 and 405 answers name it. */
export function pathOf(request: Request): string {
  return new URL(request.url).pathname.replace(/\/+$/, "");
}

/** The thread `threadId`, or a 404 refusal naming it. */
export async function findThread(gateway: Gateway, threadId: string) {
  const thread = await gateway.threads.get(threadId);
  if (!thread) throw new RouteProblem(404, `Thread ${threadId} not found.`);
  return thread;
}
