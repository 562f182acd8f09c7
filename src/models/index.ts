// The models layer's public surface.
export {
  createChatModel,
  createOpenAiModel,
  loadOpenAi,
  fetchModelIds,
  type ChatModelFactory,
  type ChatModelOptions,
} from "./chat-model.ts";
export { fetchModels, parseAnthropicModels, parseGeminiModels, parseOpenAiModels } from "./fetch-models.ts";
export { reasoningRequest, type ReasoningEffort } from "./reasoning.ts";
export { describeModelError, isRetryableModelError } from "./model-errors.ts";
export {
  EMPTY_MODEL_SETTINGS,
  FIRST_ENDPOINT_ID,
  isConfigured,
  MAX_ENDPOINTS,
  modelSettingsSchema,
  normalizeProxyUrl,
  parseModelSettings,
  parseProxySettings,
  targetForRun,
} from "./model-settings.ts";
export {
  setDeviceRuntime,
  unloadDeviceModel,
  type DeviceModelSource,
  type DeviceRuntime,
} from "./on-device/device-source.ts";
