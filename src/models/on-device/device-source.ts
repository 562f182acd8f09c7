// Where the on-device engine reads model files (the worker sets it: the browser's storage), and unloading a model
// when its file is removed. The engine itself (device-engine.ts) is a chunk of its own, fetched when a device model is
// first used, so the agent worker's first chunk does not carry it.

/** Reads a model file by its id. */
export type DeviceModelSource = (id: string) => Promise<Blob>;

let currentSource: DeviceModelSource | undefined;

/** Where the worker's engine reads model files. */
export function setDeviceModelSource(source: DeviceModelSource | undefined): void {
  currentSource = source;
}

export function deviceModelSource(): DeviceModelSource | undefined {
  return currentSource;
}

/** Unloads the model `id` when the engine has it loaded (nothing to do when the engine was never fetched). */
export async function unloadDeviceModel(id: string): Promise<void> {
  if (!engineFetched) return;
  const { deviceEngine } = await import("./device-engine.ts");
  await deviceEngine.unload(id);
}

let engineFetched = false;

/** The engine's chunk, noted as fetched (chat-model.ts calls this). */
export function loadDeviceEngine(): Promise<typeof import("./device-engine.ts")> {
  engineFetched = true;
  return import("./device-engine.ts");
}
