// The models layer's public surface.
export { createChatModel, fetchModelIds } from "./chat-model.ts";
export { describeModelError } from "./model-errors.ts";
export { EMPTY_MODEL_SETTINGS, isConfigured, modelSettingsSchema, parseModelSettings } from "./model-settings.ts";
