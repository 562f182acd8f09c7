// The admin's routes: add and list users over HTTP, for a server whose embedded database another process cannot open
// while it runs (and for teams adding people without a shell on the host). Only the admin's token reaches them.
import { Hono } from "hono";
import { z } from "zod";
import { ADMIN_OWNER, UserNameError, type Users } from "../users.ts";
import type { ServerEnv } from "./app.ts";
import { problem } from "./problem.ts";

const newUserBody = z.object({ name: z.string() });

export function adminRoutes(users: Users): Hono<ServerEnv> {
  const app = new Hono<ServerEnv>();
  app.use("*", async (c, next) => {
    if (c.get("owner") !== ADMIN_OWNER) return problem(403, "Only the server's admin can manage users.");
    return next();
  });
  app.get("/users", async (c) => {
    const listed = await users.list();
    return c.json(listed.map((user) => ({ user_id: user.userId, name: user.name, created_at: user.createdAt })));
  });
  app.post("/users", async (c) => {
    let body: unknown;
    try {
      body = await c.req.json();
    } catch {
      return problem(400, "The request body is not valid JSON.");
    }
    const parsed = newUserBody.safeParse(body);
    if (!parsed.success) return problem(422, 'The body must be {"name": "<user name>"}.');
    try {
      const user = await users.add(parsed.data.name);
      return c.json({ user_id: user.userId, name: user.name, token: user.token }, 201);
    } catch (error) {
      if (error instanceof UserNameError) return problem(error.taken ? 409 : 422, error.message);
      throw error;
    }
  });
  return app;
}
