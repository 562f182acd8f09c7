// DeerFlow's memory routes: the memory document, its facts one by one, export/import and clearing.
import { z } from "zod";
import { json, readJson, type RouteGroup } from "./route-kit.ts";

const factBody = z.object({
  content: z.string().min(1),
  category: z.string().min(1).default("context"),
  confidence: z.number().min(0).max(1).default(0.5),
});
const factPatchBody = z.object({
  content: z.string().min(1).optional(),
  category: z.string().min(1).optional(),
  confidence: z.number().min(0).max(1).optional(),
});

export const memoryRoutes: RouteGroup = (app, gateway) => {
  app.get("/api/memory", async () => json(await gateway.memory.get()));
  app.get("/api/memory/export", async () => json(await gateway.memory.get()));
  app.delete("/api/memory", async () => json(await gateway.memory.clear()));
  app.post("/api/memory/import", async (c) =>
    json(await gateway.memory.import(await readJson(c.req.raw, z.unknown()))),
  );
  app.post("/api/memory/facts", async (c) => json(await gateway.memory.addFact(await readJson(c.req.raw, factBody))));
  app.patch("/api/memory/facts/:id", async (c) => {
    const body = await readJson(c.req.raw, factPatchBody);
    const patch = Object.fromEntries(Object.entries(body).filter(([, value]) => value !== undefined));
    return json(await gateway.memory.updateFact(c.req.param("id"), patch));
  });
  app.delete("/api/memory/facts/:id", async (c) => json(await gateway.memory.deleteFact(c.req.param("id"))));
};
