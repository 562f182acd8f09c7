// The models layer's public surface.
export { createChatModel, fetchModelIds, type ChatModelOptions } from "./chat-model.ts";
export { describeModelError, isRetryableModelError } from "./model-errors.ts";
export {
  EMPTY_MODEL_SETTINGS,
  isConfigured,
  MAX_EXTRA_ENDPOINTS,
  modelSettingsSchema,
  parseModelSettings,
  settingsForRun,
} from "./model-settings.ts";
