// The models layer's public surface.
export { createChatModel, fetchModelIds } from "./chat-model.ts";
export { describeModelError, isAbortError } from "./model-errors.ts";
export { EMPTY_MODEL_SETTINGS, isConfigured, modelSettingsSchema, parseModelSettings } from "./model-settings.ts";
