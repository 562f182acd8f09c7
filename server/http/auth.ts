// Who is asking: the token in `Authorization: Bearer …` or LangGraph's `x-api-key`, matched to a user (users.ts).
// A request without one, or with one no user holds, is refused with 401 and one sentence; the token is never logged.
import type { MiddlewareHandler } from "hono";
import type { Users } from "../users.ts";
import type { ServerEnv } from "./app.ts";
import { problem } from "./problem.ts";

/** The request's token, from `Authorization: Bearer …` or `x-api-key`; empty when it carries none. */
export function tokenOf(headers: Headers): string {
  const authorization = headers.get("authorization")?.trim() ?? "";
  const bearer = /^Bearer\s+(\S+)$/i.exec(authorization)?.[1];
  return bearer ?? headers.get("x-api-key")?.trim() ?? "";
}

export function authenticate(users: Users): MiddlewareHandler<ServerEnv> {
  return async (c, next) => {
    // A CORS preflight carries no credentials; the CORS middleware before this one answers it.
    if (c.req.method === "OPTIONS") return next();
    const token = tokenOf(c.req.raw.headers);
    const challenge = { "www-authenticate": 'Bearer realm="fawn"' };
    if (!token) {
      return problem(
        401,
        "This server needs a token: send it as `Authorization: Bearer <token>` or `x-api-key: <token>`.",
        challenge,
      );
    }
    const user = await users.byToken(token);
    if (!user) return problem(401, "This token is not valid on this server.", challenge);
    c.set("owner", user.userId);
    c.set("user", user);
    return next();
  };
}
