// DeerFlow's `GET /api/models`: every configured endpoint's models, the default first.
import { defaultModelKey, modelChoices } from "../../protocol/index.ts";
import { json, type RouteGroup } from "./route-kit.ts";

export const modelRoutes: RouteGroup = (app, gateway) => {
  app.get("/api/models", async () => {
    // `name` is what a run's `context.model_name` takes.
    const settings = await gateway.settings.getModels();
    const fallback = defaultModelKey(settings);
    const choices = modelChoices(settings).sort((a, b) => Number(b.key === fallback) - Number(a.key === fallback));
    const models = choices.map((choice) => ({
      name: choice.key,
      model: choice.entry.id,
      display_name: `${choice.entry.id} (${choice.endpointName})`,
      supports_thinking: choice.entry.thinking === true,
      supports_reasoning_effort: choice.entry.thinking === true,
      supports_vision: choice.entry.vision === true,
    }));
    return json({ models, token_usage: { enabled: true } });
  });
};
