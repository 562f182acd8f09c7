// DeerFlow's scheduled-task routes (`/api/scheduled-tasks`, a thread's under `/api/threads/{id}/scheduled-tasks`):
// list, create, read, change, pause, resume and delete, answered in DeerFlow's `ScheduledTask` shape (with Fawn's own
// fields under `fawn`). The runs themselves start from the server's scheduler (server/schedules/), never a route.
// The shapes load on a route's first call: the agent worker's first chunk does not carry them.
import type { ScheduleInput } from "../../protocol/index.ts";
import type { Gateway } from "../create-gateway.ts";
import { json, readJson, RouteProblem, type RouteGroup } from "./route-kit.ts";

const tasks = () => import("../schedules/scheduled-tasks.ts");

async function scheduleOr404(gateway: Gateway, id: string) {
  const schedule = (await gateway.schedules.list()).find((candidate) => candidate.id === id);
  if (!schedule) throw new RouteProblem(404, `Scheduled task ${id} not found.`);
  return schedule;
}

export const scheduleRoutes: RouteGroup = (app, gateway) => {
  app.get("/api/scheduled-tasks", async () => {
    const { toScheduledTask } = await tasks();
    return json((await gateway.schedules.list()).map(toScheduledTask));
  });
  app.post("/api/scheduled-tasks", async (c) => {
    const { inputOfTaskBody, scheduledTaskCreateBody, toScheduledTask } = await tasks();
    const body = await readJson(c.req.raw, scheduledTaskCreateBody);
    const input = { enabled: true, thread_id: null, ...inputOfTaskBody(body) } as ScheduleInput;
    return json(toScheduledTask(await gateway.schedules.create(input)), 201);
  });
  app.get("/api/scheduled-tasks/:id", async (c) => {
    const { toScheduledTask } = await tasks();
    return json(toScheduledTask(await scheduleOr404(gateway, c.req.param("id"))));
  });
  app.patch("/api/scheduled-tasks/:id", async (c) => {
    const { inputOfTaskBody, scheduledTaskUpdateBody, toScheduledTask } = await tasks();
    const id = (await scheduleOr404(gateway, c.req.param("id"))).id;
    const body = await readJson(c.req.raw, scheduledTaskUpdateBody);
    return json(toScheduledTask(await gateway.schedules.update(id, inputOfTaskBody(body))));
  });
  for (const [action, enabled] of [
    ["pause", false],
    ["resume", true],
  ] as const) {
    app.post(`/api/scheduled-tasks/:id/${action}`, async (c) => {
      const { toScheduledTask } = await tasks();
      const id = (await scheduleOr404(gateway, c.req.param("id"))).id;
      return json(toScheduledTask(await gateway.schedules.update(id, { enabled })));
    });
  }
  app.delete("/api/scheduled-tasks/:id", async (c) => {
    const id = (await scheduleOr404(gateway, c.req.param("id"))).id;
    await gateway.schedules.delete(id);
    return json({ id, deleted: true });
  });
  app.get("/api/threads/:thread_id/scheduled-tasks", async (c) => {
    const { toScheduledTask } = await tasks();
    const threadId = c.req.param("thread_id");
    if (!(await gateway.threads.exists(threadId))) throw new RouteProblem(404, `Thread ${threadId} not found.`);
    const schedules = await gateway.schedules.list();
    return json(schedules.filter((schedule) => schedule.thread_id === threadId).map(toScheduledTask));
  });
};
