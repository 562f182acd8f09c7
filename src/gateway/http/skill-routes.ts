// DeerFlow's skills routes: list, one skill, enable/disable, install from a thread's `.skill` file, delete a custom one.
import { z } from "zod";
import type { SkillInfo } from "../../protocol/index.ts";
import { json, problem, readJson, type RouteGroup } from "./route-kit.ts";

const skillStateBody = z.object({ enabled: z.boolean() });
const skillInstallBody = z.object({ thread_id: z.string().min(1), path: z.string().min(1) });

/** A skill as DeerFlow's `GET /api/skills` lists it. */
function skillResponse(skill: SkillInfo) {
  return {
    name: skill.name,
    description: skill.description,
    ...(skill.license !== undefined && { license: skill.license }),
    category: skill.category,
    enabled: skill.enabled,
    editable: skill.editable,
  };
}

export const skillRoutes: RouteGroup = (app, gateway) => {
  app.get("/api/skills", async () => json({ skills: (await gateway.skills.list()).map(skillResponse) }));
  app.post("/api/skills/install", async (c) => {
    const body = await readJson(c.req.raw, skillInstallBody);
    const path = body.path.startsWith("/") ? body.path : `/${body.path}`;
    const skill = await gateway.skills.installFromThread(body.thread_id, path);
    return json({ success: true, skill_name: skill.name, message: `Skill '${skill.name}' installed successfully` });
  });
  // Skills are read from storage on every call: a reload is a list.
  app.post("/api/skills/reload", async () => json({ skills: (await gateway.skills.list()).map(skillResponse) }));
  app.get("/api/skills/custom", async () => {
    const custom = (await gateway.skills.list()).filter((skill) => skill.category === "custom");
    return json({ skills: custom.map(skillResponse) });
  });
  // Before `/api/skills/:name`, so a custom skill's delete is not read as a skill named "custom".
  app.delete("/api/skills/custom/:name", async (c) => {
    await gateway.skills.delete(c.req.param("name"));
    return json({ success: true });
  });
  app.get("/api/skills/:name", async (c) => {
    const name = c.req.param("name");
    const skill = (await gateway.skills.list()).find((item) => item.name === name);
    return skill ? json(skillResponse(skill)) : problem(404, `Skill ${name} not found.`);
  });
  app.put("/api/skills/:name", async (c) => {
    const body = await readJson(c.req.raw, skillStateBody);
    return json(skillResponse(await gateway.skills.setEnabled(c.req.param("name"), body.enabled)));
  });
};
