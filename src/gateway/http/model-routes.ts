// DeerFlow's model routes: `GET /api/models` (every configured endpoint's models, the default first) and
// `GET /api/models/:name` (one of them, by the `name` a run's `context.model_name` takes).
import { defaultModelKey, modelChoices } from "../../protocol/index.ts";
import type { Gateway } from "../create-gateway.ts";
import { json, RouteProblem, type RouteGroup } from "./route-kit.ts";

/** The models as DeerFlow's ModelResponse lists them, the default first. */
async function models(gateway: Gateway) {
  const settings = await gateway.settings.getModels();
  const fallback = defaultModelKey(settings);
  const choices = modelChoices(settings).sort((a, b) => Number(b.key === fallback) - Number(a.key === fallback));
  return choices.map((choice) => ({
    name: choice.key,
    model: choice.entry.id,
    display_name: `${choice.entry.id} (${choice.endpointName})`,
    supports_thinking: choice.entry.thinking === true,
    supports_reasoning_effort: choice.entry.thinking === true,
    supports_vision: choice.entry.vision === true,
  }));
}

export const modelRoutes: RouteGroup = (app, gateway) => {
  app.get("/api/models", async () => json({ models: await models(gateway), token_usage: { enabled: true } }));
  app.get("/api/models/:model_name", async (c) => {
    const name = c.req.param("model_name");
    const model = (await models(gateway)).find((item) => item.name === name);
    if (!model) throw new RouteProblem(404, `Model ${JSON.stringify(name)} not found.`);
    return json(model);
  });
};
