// DeerFlow's memory routes: the memory document, its facts one by one, export/import and clearing, and its
// configuration and status (read-only here: Settings → Memory changes it).
import { z } from "zod";
import type { Gateway } from "../create-gateway.ts";
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

/** Memory's settings in DeerFlow's MemoryConfigResponse words (Fawn learns after each run: its "middleware" mode). */
async function memoryConfig(gateway: Gateway) {
  const settings = await gateway.memory.getSettings();
  return {
    enabled: settings.enabled,
    mode: "middleware",
    injection_enabled: settings.injectionEnabled,
    debounce_seconds: settings.debounceSeconds,
    max_facts: settings.maxFacts,
    fact_confidence_threshold: settings.factConfidenceThreshold,
    max_injection_tokens: settings.maxInjectionTokens,
  };
}

export const memoryRoutes: RouteGroup = (app, gateway) => {
  app.get("/api/memory", async () => json(await gateway.memory.get()));
  // Memory is read from storage on every call: a reload is a read.
  app.post("/api/memory/reload", async () => json(await gateway.memory.get()));
  app.get("/api/memory/config", async () => json(await memoryConfig(gateway)));
  app.get("/api/memory/status", async () =>
    json({ config: await memoryConfig(gateway), data: await gateway.memory.get() }),
  );
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
