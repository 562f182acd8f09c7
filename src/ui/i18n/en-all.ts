// Every English text in one object: the first screen's (en.ts) and the parts the Settings dialog's chunk adds
// (en-settings.ts, en-models-tools.ts). For tests and checks (the dictionaries' test, plain words); the page never
// imports it.
import { en, type Dictionary } from "./en.ts";
import { enModelsTools } from "./en-models-tools.ts";
import { enSettings } from "./en-settings.ts";
import { enSchedules } from "./en-schedules.ts";
import { enThreadLogs } from "./en-thread-logs.ts";

export const enAll: Dictionary = { ...en, ...enSettings, ...enModelsTools, ...enThreadLogs, ...enSchedules };
