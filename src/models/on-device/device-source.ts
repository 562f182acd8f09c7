// Where the on-device engine reads model files and its WebAssembly (the worker sets both), the worker's one engine,
// and unloading a model when its file is removed. The engine (device-engine.ts, with wllama behind it) is a chunk of
// its own, fetched when a device model is first used, so the agent worker's first chunk does not carry it.
import type { DeviceEngine, DeviceModelSource, DeviceRuntime } from "./device-engine.ts";

export type { DeviceModelSource, DeviceRuntime };

let currentRuntime: DeviceRuntime | undefined;
let engine: Promise<DeviceEngine> | undefined;

/** Where the worker's engine reads model files and llama.cpp's WebAssembly (workers/agent.worker.ts sets it). */
export function setDeviceRuntime(runtime: DeviceRuntime | undefined): void {
  currentRuntime = runtime;
}

/** The worker's engine, its chunk fetched on the first call. */
export function loadDeviceEngine(): Promise<DeviceEngine> {
  return (engine ??= import("./device-engine.ts").then(({ DeviceEngine }) => new DeviceEngine(() => currentRuntime)));
}

/** Unloads the model `id` when the engine has it loaded (nothing to do when the engine was never fetched). */
export async function unloadDeviceModel(id: string): Promise<void> {
  if (engine) await (await engine).unload(id);
}
