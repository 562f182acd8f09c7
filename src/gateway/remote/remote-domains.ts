// A server workspace's smaller domains (docs/architecture.md#d13-workspaces): memory and skills through DeerFlow's
// REST routes, the server's models for the composer (read-only), `.fawn` export and import, versions, context use and
// share links through Fawn's own routes, approvals and suggestions through Fawn's REST routes. What a server cannot
// answer rejects with one sentence naming the feature and the server.
import { z } from "zod";
import { parseMemoryDocument } from "../../agent/index.ts";
import type {
  ApprovalDecision,
  ApprovalsApi,
  BranchesApi,
  BundlesApi,
  ContextApi,
  GatewayApi,
  MemoryApi,
  MemoryDocument,
  MemoryFactInput,
  MemorySettings,
  ModelSettings,
  SandboxApi,
  SandboxCommandResult,
  SandboxInfo,
  SettingsApi,
  SharingApi,
  SkillInfo,
  SkillsApi,
  SuggestionsApi,
  ThreadCompaction,
  ThreadContextUsage,
  ThreadExport,
  ThreadExportFormat,
  BundleImportOptions,
  ThreadModelChoice,
  ThreadShareLink,
  ThreadSummary,
} from "../../protocol/index.ts";
import type { RemoteContext } from "./remote-context.ts";
import type { RemoteRuns } from "./remote-runs.ts";
import { seg } from "./server-urls.ts";

const JSON_HEADERS = { "content-type": "application/json" };

function jsonInit(method: string, body: unknown): RequestInit {
  return { method, headers: JSON_HEADERS, body: JSON.stringify(body) };
}

export class RemoteMemory implements MemoryApi {
  constructor(private readonly remote: RemoteContext) {}

  private document(value: unknown): MemoryDocument {
    const parsed = parseMemoryDocument(value);
    if (!parsed.ok) throw this.remote.connection.malformed("a memory document");
    return parsed.value;
  }

  private async call(path: string, init?: RequestInit): Promise<MemoryDocument> {
    const rest = this.remote.restFor("memory");
    const document = this.document(await this.remote.restJson(rest, path, z.unknown(), "a memory document", init));
    if (init?.method && init.method !== "GET") this.remote.notify({ type: "memory-changed" });
    return document;
  }

  async get(): Promise<MemoryDocument> {
    return this.remote.connection.read("memory", () => this.call("/memory"));
  }
  addFact(fact: MemoryFactInput & { content: string }): Promise<MemoryDocument> {
    return this.call("/memory/facts", jsonInit("POST", fact));
  }
  updateFact(id: string, patch: MemoryFactInput): Promise<MemoryDocument> {
    return this.call(`/memory/facts/${seg(id)}`, jsonInit("PATCH", patch));
  }
  deleteFact(id: string): Promise<MemoryDocument> {
    return this.call(`/memory/facts/${seg(id)}`, { method: "DELETE" });
  }
  clear(): Promise<MemoryDocument> {
    return this.call("/memory", { method: "DELETE" });
  }
  import(document: unknown): Promise<MemoryDocument> {
    return this.call("/memory/import", jsonInit("POST", document));
  }
  async getSettings(): Promise<MemorySettings> {
    const rest = this.remote.restFor("memory");
    const config = await this.remote.restJson(rest, "/memory/config", memoryConfig, "memory's settings");
    return {
      enabled: config.enabled,
      injectionEnabled: config.injection_enabled,
      debounceSeconds: config.debounce_seconds,
      maxFacts: config.max_facts,
      factConfidenceThreshold: config.fact_confidence_threshold,
      maxInjectionTokens: config.max_injection_tokens,
    };
  }
  async saveSettings(): Promise<MemorySettings> {
    throw this.remote.unavailable("Changing memory's settings");
  }
  async flush(): Promise<void> {
    // The server applies its own memory updates.
  }
}

const memoryConfig = z.object({
  enabled: z.boolean(),
  injection_enabled: z.boolean().catch(true),
  debounce_seconds: z.number().catch(30),
  max_facts: z.number().catch(100),
  fact_confidence_threshold: z.number().catch(0.7),
  max_injection_tokens: z.number().catch(2000),
});

const skillSchema = z.object({
  name: z.string().min(1).max(64),
  description: z.string().max(2000).catch(""),
  license: z.string().max(200).nullish(),
  category: z.enum(["public", "custom"]).catch("custom"),
  enabled: z.boolean(),
  editable: z.boolean().catch(false),
});

function skillInfo(skill: z.infer<typeof skillSchema>): SkillInfo {
  return {
    name: skill.name,
    description: skill.description,
    ...(skill.license && { license: skill.license }),
    category: skill.category,
    enabled: skill.enabled,
    editable: skill.editable,
    path: `/mnt/skills/${skill.category}/${skill.name}/SKILL.md`,
  };
}

export class RemoteSkills implements SkillsApi {
  constructor(private readonly remote: RemoteContext) {}

  async list(): Promise<SkillInfo[]> {
    return this.remote.connection.read("skills", async () => {
      const rest = this.remote.restFor("skills");
      const answer = await this.remote.restJson(
        rest,
        "/skills",
        z.object({ skills: z.array(skillSchema) }),
        "a list of skills",
      );
      return answer.skills.map(skillInfo);
    });
  }
  async setEnabled(name: string, enabled: boolean): Promise<SkillInfo> {
    const rest = this.remote.restFor("skills");
    return skillInfo(
      await this.remote.restJson(rest, `/skills/${seg(name)}`, skillSchema, "a skill", jsonInit("PUT", { enabled })),
    );
  }
  async install(): Promise<SkillInfo> {
    throw this.remote.unavailable("Installing a skill from this device");
  }
  async installFromThread(threadId: string, path: string): Promise<SkillInfo> {
    const rest = this.remote.restFor("skills");
    const answer = await this.remote.restJson(
      rest,
      "/skills/install",
      z.object({ skill_name: z.string() }),
      "an installed skill",
      jsonInit("POST", { thread_id: threadId, path }),
    );
    const skill = (await this.list()).find((item) => item.name === answer.skill_name);
    if (!skill) throw this.remote.connection.malformed("an installed skill");
    return skill;
  }
  async delete(name: string): Promise<void> {
    const rest = this.remote.restFor("skills");
    await this.remote.refusal(await rest(`/skills/custom/${seg(name)}`, { method: "DELETE" }));
  }
}

const modelsSchema = z.object({
  models: z
    .array(
      z.object({
        name: z.string().min(1).max(300),
        model: z.string().max(300).optional(),
        display_name: z.string().max(300).nullish(),
        supports_thinking: z.boolean().nullish(),
        supports_vision: z.boolean().nullish(),
      }),
    )
    .max(1000),
});

/** The endpoint id the server's models are listed under in the composer. */
export const SERVER_ENDPOINT_ID = "server";

/**
 * Settings in a server workspace: the composer's models are the server's (`/api/models`, read-only, the key each
 * run's `model_name` takes); everything else is this browser's settings.
 */
export function remoteSettings(remote: RemoteContext, local: SettingsApi): SettingsApi {
  const serverModels = (): Promise<ModelSettings> =>
    remote.connection.read("models", async () => {
      const rest = remote.restFor("models");
      const { models } = await remote.restJson(rest, "/models", modelsSchema, "a list of models");
      if (models.length === 0) return { endpoints: [] };
      return {
        endpoints: [
          {
            id: SERVER_ENDPOINT_ID,
            name: remote.server.name,
            baseUrl: remote.server.url,
            apiKey: "",
            models: models.map((model) => ({
              id: model.name,
              ...(model.supports_thinking && { thinking: true }),
              ...(model.supports_vision && { vision: true }),
            })),
          },
        ],
        defaultModel: { endpoint: SERVER_ENDPOINT_ID, model: models[0]!.name },
      };
    });
  // A server without the models route (langgraphjs dev) lists none: its graph's own model answers each run.
  const getModels = async (): Promise<ModelSettings> =>
    remote.server.features.models ? serverModels() : { endpoints: [] };
  return {
    getModels,
    saveModels: async () => {
      throw remote.unavailable("Changing the server's models");
    },
    listModels: (endpoint) => local.listModels(endpoint),
    describeModels: (endpoint) => local.describeModels(endpoint),
    // Model files are this browser's, whichever workspace is open.
    listDeviceModels: () => local.listDeviceModels(),
    addDeviceModel: (file, onProgress) => local.addDeviceModel(file, onProgress),
    downloadDeviceModel: (url, onProgress) => local.downloadDeviceModel(url, onProgress),
    cancelDeviceModelCopy: () => local.cancelDeviceModelCopy(),
    removeDeviceModel: (id) => local.removeDeviceModel(id),
    getProxy: () => local.getProxy(),
    saveProxy: (settings) => local.saveProxy(settings),
    getWebTools: () => local.getWebTools(),
    saveWebTools: (settings) => local.saveWebTools(settings),
    getSandbox: () => local.getSandbox(),
    saveSandbox: (settings) => local.saveSandbox(settings),
    getSubagents: () => local.getSubagents(),
    saveSubagents: (settings) => local.saveSubagents(settings),
    // As the subagent settings: this browser's; a server's runs read the server's own, which no route changes.
    getSummariesAndTitles: () => local.getSummariesAndTitles(),
    saveSummariesAndTitles: (settings) => local.saveSummariesAndTitles(settings),
  };
}

export function remoteBundles(remote: RemoteContext): BundlesApi {
  return {
    export: async (threadId: string, format: ThreadExportFormat): Promise<ThreadExport> =>
      remote.fawnFor("Exporting a thread").exportThread(threadId, format),
    import: async (archive: Blob | Uint8Array, options: BundleImportOptions = {}): Promise<ThreadSummary> => {
      const thread = await remote.fawnFor("Importing a .fawn thread").importThread(archive, options);
      remote.notify({ type: "thread-changed", thread_id: thread.thread_id });
      return thread;
    },
    continueThread: async (threadId: string): Promise<ThreadSummary> => {
      const thread = await remote.fawnFor("Continue this thread").continueThread(threadId);
      remote.notify({ type: "thread-changed", thread_id: thread.thread_id });
      return thread;
    },
  };
}

/** Share links of a server's thread come from the server; a shared thread opened to be read is this browser's. */
export function remoteSharing(remote: RemoteContext, local: SharingApi): SharingApi {
  return {
    link: async (threadId: string): Promise<ThreadShareLink> => remote.fawnFor("Share links").shareLink(threadId),
    readLink: (data) => local.readLink(data),
    openBundle: (archive) => local.openBundle(archive),
    close: (threadId) => local.close(threadId),
  };
}

export function remoteBranches(remote: RemoteContext): BranchesApi {
  return {
    showVersion: async (threadId: string, runId: string): Promise<void> => {
      await remote.fawnFor("Moving between versions").showVersion(threadId, runId);
      remote.notify({ type: "thread-changed", thread_id: threadId });
    },
  };
}

export function remoteApprovals(remote: RemoteContext, runs: RemoteRuns): ApprovalsApi {
  return {
    answer: async (approvalId: string, decision: ApprovalDecision, threadId?: string): Promise<void> => {
      const thread = threadId ?? runs.approvalThread(approvalId);
      if (!thread || !remote.rest || remote.server.kind !== "fawn") throw remote.unavailable("Answering this approval");
      const path = `/threads/${seg(thread)}/approvals/${seg(approvalId)}`;
      await remote.refusal(await remote.rest(path, jsonInit("POST", { decision })));
    },
  };
}

export function remoteContextApi(remote: RemoteContext): ContextApi {
  return {
    usage: async (threadId: string, model?: ThreadModelChoice): Promise<ThreadContextUsage> =>
      remote.fawnFor("The context gauge").contextUsage(threadId, model),
    compact: async (threadId: string, model?: ThreadModelChoice): Promise<ThreadCompaction> => {
      const result = await remote.fawnFor("/compact").compact(threadId, model);
      remote.notify({ type: "thread-changed", thread_id: threadId });
      return result;
    },
  };
}

export function remoteSuggestions(remote: RemoteContext): SuggestionsApi {
  return {
    // Never a failure: no suggestions instead, as in this browser.
    suggest: async (threadId: string, model?: ThreadModelChoice): Promise<string[]> => {
      if (!remote.rest || remote.server.kind === "langgraph") return [];
      try {
        const body = { n: 3, ...(model?.model && { model_name: model.model }) };
        const answer = await remote.restJson(
          remote.rest,
          `/threads/${seg(threadId)}/suggestions`,
          z.object({ suggestions: z.array(z.string().max(500)).max(10) }),
          "suggestions",
          jsonInit("POST", body),
        );
        return answer.suggestions.slice(0, 3);
      } catch {
        return [];
      }
    },
  };
}

/** A server thread's commands run on the server, by its agent: the Terminal is this browser's threads' only. */
export function remoteSandbox(remote: RemoteContext): SandboxApi {
  return {
    info: async (): Promise<SandboxInfo> => ({
      kind: "browser",
      cwd: "/mnt/user-data/workspace",
      notice: `This thread's files and commands are on ${remote.connection.label}.`,
    }),
    exec: async (): Promise<SandboxCommandResult> => {
      throw remote.unavailable("The Terminal");
    },
    cancel: async () => undefined,
    attachHost: async () => undefined,
    attachPythonHost: async () => undefined,
  };
}

/** The domains a server workspace answers as this browser's: Settings → Data, Tools (MCP) and Servers. */
export function localDomains(local: GatewayApi): Pick<GatewayApi, "data" | "mcp" | "servers"> {
  return { data: local.data, mcp: local.mcp, servers: local.servers };
}
