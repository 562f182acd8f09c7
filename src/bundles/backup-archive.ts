// The backup archive of "Export all data" (docs/architecture.md#d8-bundles, for everything rather than one thread): written member by
// member as a zip stream, and read back with every rule checked — member names, declared sizes (before anything is
// inflated), the manifest, each record's schema, paths and counts — before the caller writes a thing.
//
// Layout: manifest.json · settings.json · memory.json · threads/<id>/thread.json (its records) ·
// threads/<id>/files/mnt/user-data/… (its files) · skills/<name>/skill.json · skills/<name>/files/… (its files).
// Byte fields of records (serialized checkpoints) are `{"$bytes": "<base64>"}` in JSON.
import { deflateSync, inflateSync, Zip, ZipPassThrough } from "fflate";
import { z } from "zod";
import {
  BACKUP_FORMAT,
  BACKUP_LIMITS,
  BACKUP_VERSION,
  type BackupCounts,
  type BackupLimits,
  type BackupManifest,
} from "../protocol/index.ts";
import { formatBytes } from "../shared/text.ts";
import { canonicalMemberPath, hasZipMagic, unzipWithinLimits } from "../shared/zip-safety.ts";
import type { GlobalBackup, ThreadBackup } from "../storage/backup-store.ts";
import { threadFilePathProblem } from "../storage/thread-files.ts";
import type {
  McpServerRecord,
  SettingRecord,
  SkillRecord,
  StoreItemRecord,
  ThreadFileRecord,
} from "../storage/fawn-db.ts";
import { fromBase64, toBase64 } from "../shared/base64.ts";

/** Why a backup cannot be imported; `message` is one sentence for the user. */
export class BackupArchiveError extends Error {
  override readonly name = "BackupArchiveError";
}

function fail(message: string): never {
  throw new BackupArchiveError(message);
}

const MANIFEST = "manifest.json";
const SETTINGS = "settings.json";
const MEMORY = "memory.json";
const THREAD_JSON = /^threads\/([A-Za-z0-9_-]{1,64})\/thread\.json$/;
// A file's name may hold any character its path rule allows, line breaks included (hence `s`).
const THREAD_FILE = /^threads\/([A-Za-z0-9_-]{1,64})\/files(\/.+)$/s;
const SKILL_JSON = /^skills\/([a-z0-9-]{1,64})\/skill\.json$/;
const SKILL_FILE = /^skills\/([a-z0-9-]{1,64})\/files\/(.+)$/s;

/** Files already compressed gain nothing from deflate: they are stored as they are. */
const STORED_TYPES = /^(image\/(png|jpeg|gif|webp)|application\/(zip|pdf|vnd\.openxmlformats.*)|audio\/|video\/)/;

// ---- JSON with bytes ----

const encoder = new TextEncoder();
const decoder = new TextDecoder("utf-8", { fatal: true });

function encodeJson(value: unknown): Uint8Array {
  return encoder.encode(
    JSON.stringify(value, (_key, item: unknown) => (item instanceof Uint8Array ? { $bytes: toBase64(item) } : item)),
  );
}

function decodeJson(name: string, bytes: Uint8Array): unknown {
  try {
    return JSON.parse(decoder.decode(bytes), (_key, item: unknown) => {
      if (typeof item === "object" && item !== null && !Array.isArray(item)) {
        const keys = Object.keys(item);
        const encoded = (item as { $bytes?: unknown }).$bytes;
        if (keys.length === 1 && typeof encoded === "string") return fromBase64(encoded);
      }
      return item;
    });
  } catch {
    fail(`${name} in the backup is not valid JSON.`);
  }
}

// ---- Schemas: what every record must look like (extra fields from newer Fawns are kept) ----

const text = z.string();
const bytes = z.instanceof(Uint8Array);
const time = z.number().finite();
const count = z.number().int().min(0);
const version = z.union([z.number(), z.string()]);

const manifestSchema = z.object({
  format: z.string(),
  version: z.number().int().min(1),
  app_version: text.max(100),
  created_at: text.max(100),
  counts: z.object({
    threads: count,
    thread_files: count,
    skills: count,
    memory_facts: count,
    settings: count,
  }),
});

const threadSummarySchema = z.looseObject({
  thread_id: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/),
  title: text.max(1000),
  created_at: time,
  updated_at: time,
  status: z.enum(["idle", "busy", "error"]),
  pinned: z.boolean().optional(),
  read_only: z.boolean().optional(),
});

const threadRecordSchema = z.object({
  thread: threadSummarySchema,
  entries: z.array(
    z.looseObject({
      thread_id: text,
      seq: count,
      entry: z.looseObject({ kind: z.enum(["message", "error", "run-error", "stopped"]) }),
    }),
  ),
  runs: z.array(
    z.looseObject({
      thread_id: text,
      run_id: text,
      status: z.enum(["running", "success", "error", "interrupted"]),
      created_at: time,
      updated_at: time,
      model: text.optional(),
    }),
  ),
  checkpoints: z.array(
    z.looseObject({
      thread_id: text,
      checkpoint_ns: text,
      checkpoint_id: text,
      parent_checkpoint_id: text.optional(),
      v: z.number(),
      type: text,
      checkpoint: bytes,
      metadata_type: text,
      metadata: bytes,
      channel_versions: z.record(z.string(), version),
    }),
  ),
  checkpoint_blobs: z.array(
    z.union([
      z.looseObject({
        thread_id: text,
        checkpoint_ns: text,
        channel: text,
        version,
        kind: z.literal("value"),
        type: text,
        bytes,
      }),
      z.looseObject({
        thread_id: text,
        checkpoint_ns: text,
        channel: text,
        version,
        kind: z.literal("messages"),
        seq: count,
        len: count,
        base: version.optional(),
        refs: z.array(z.tuple([text, text])),
      }),
    ]),
  ),
  checkpoint_writes: z.array(
    z.looseObject({
      thread_id: text,
      checkpoint_ns: text,
      checkpoint_id: text,
      task_id: text,
      idx: z.number().int(),
      task_path: text,
      channel: text,
      type: text,
      bytes,
    }),
  ),
  checkpoint_messages: z.array(z.looseObject({ thread_id: text, message_id: text, hash: text, type: text, bytes })),
  files: z.array(
    z.object({
      thread_id: text,
      path: text,
      size: count,
      sha256: text,
      mimeType: text.max(200),
      mtime: time,
    }),
  ),
});

const skillSchema = z.object({
  name: z.string().regex(/^[a-z0-9-]{1,64}$/),
  enabled: z.boolean(),
  installed_at: time,
  metadata: z.looseObject({ description: text }),
});

const settingsSchema = z.object({
  settings: z.array(z.object({ key: text.min(1).max(200), value: z.unknown() })),
  mcp_servers: z.array(
    z.looseObject({
      name: text.min(1).max(200),
      enabled: z.boolean(),
      transport: z.enum(["streamable-http", "sse", "stdio-proxy"]).optional(),
      url: text,
    }),
  ),
});

const memorySchema = z.object({
  document: z.unknown(),
  store_items: z.array(
    z.looseObject({
      namespace_path: text,
      key: text,
      namespace: z.array(text),
      value: z.record(z.string(), z.unknown()),
      created_at: time,
      updated_at: time,
    }),
  ),
});

/** Parses `value` or fails with the first problem, naming where it is. */
function parse<T>(schema: z.ZodType<T>, value: unknown, where: string): T {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const keys = issue?.path ?? [];
  const path = keys
    .map((key) => (typeof key === "number" ? `[${key}]` : `.${String(key)}`))
    .join("")
    .replace(/^\./, "");
  // zod says "expected string, received undefined" of a field that is not there: say it is missing.
  const found = keys.reduce<unknown>((node, key) => (node as Record<PropertyKey, unknown> | undefined)?.[key], value);
  const problem =
    issue?.code === "invalid_type" && found === undefined ? "is missing" : (issue?.message ?? "is not as expected");
  fail(`${where} in the backup is not valid: ${path ? `${path} ` : ""}${problem}.`);
}

// ---- Writing ----

/**
 * A member stored deflated: the bytes are compressed in one go and inflated back before they are trusted. fflate's
 * streaming deflater (ZipDeflate, 0.8.3) writes, for rare inputs, a stream that does not inflate back ("invalid
 * distance"), which made such a backup unreadable; see `compressedOrUndefined`.
 */
class DeflatedMember extends ZipPassThrough {
  constructor(
    name: string,
    private readonly deflated: Uint8Array,
  ) {
    super(name);
    this.compression = 8;
  }

  // push() hands the original bytes (their CRC and size go in the header); what is written is the deflated form.
  override process(_chunk: Uint8Array, final: boolean): void {
    this.ondata(null, this.deflated as Uint8Array<ArrayBuffer>, final);
  }
}

/** `data` deflated, when that is smaller and inflates back to exactly `data`; otherwise undefined (store it). */
function compressedOrUndefined(data: Uint8Array): Uint8Array | undefined {
  const deflated = deflateSync(data, { level: 6 });
  if (deflated.byteLength >= data.byteLength) return undefined;
  const back = inflateSync(deflated, { out: new Uint8Array(data.byteLength) });
  for (let i = 0; i < data.byteLength; i++) if (back[i] !== data[i]) return undefined;
  return deflated;
}

/**
 * A backup written as a zip stream: each member is compressed as it is added and its bytes can be dropped by the
 * caller; the archive's chunks are gathered into Blobs as they come, so a large store is not held twice.
 */
export class BackupArchiveWriter {
  private readonly parts: Blob[] = [];
  private chunks: Uint8Array[] = [];
  private chunkBytes = 0;
  private failure: unknown;
  private readonly zip: Zip;
  private readonly counts: Omit<BackupCounts, "memory_facts"> = { threads: 0, thread_files: 0, skills: 0, settings: 0 };
  private members = 0;
  private unpackedBytes = 0;

  /** @param limits What an import accepts (readBackupArchive): the writer refuses to write more. */
  constructor(private readonly limits: BackupLimits = BACKUP_LIMITS) {
    this.zip = new Zip((error, chunk) => {
      if (error) {
        this.failure = error;
        return;
      }
      this.chunks.push(chunk.slice());
      this.chunkBytes += chunk.byteLength;
      // Folding chunks into a Blob lets the browser keep them outside the worker's heap (on disk when large).
      if (this.chunkBytes >= 8 * 1024 * 1024) this.flushChunks();
    });
  }

  /** One thread: its records and the bytes of its files. */
  addThread(records: ThreadBackup, files: readonly ThreadFileRecord[]): void {
    const folder = `threads/${records.thread.thread_id}`;
    this.add(`${folder}/thread.json`, encodeJson(records), true, records.thread.updated_at);
    const metas = new Map(records.files.map((meta) => [meta.path, meta]));
    for (const file of files) {
      // The rule the import holds each path to; a path stored before a rule was added is named here, not there.
      const problem = threadFilePathProblem(file.path);
      if (problem) {
        fail(
          `The thread ${JSON.stringify(records.thread.title)} holds the file ${JSON.stringify(file.path)}, which ` +
            `Fawn cannot export (${problem}): rename or delete it, then export.`,
        );
      }
      const meta = metas.get(file.path);
      const compress = !STORED_TYPES.test(meta?.mimeType ?? "");
      this.add(`${folder}/files${file.path}`, file.bytes, compress, meta?.mtime);
      this.counts.thread_files += 1;
    }
    this.counts.threads += 1;
  }

  addSkill(skill: SkillRecord): void {
    const { files, ...record } = skill;
    this.add(`skills/${skill.name}/skill.json`, encodeJson(record), true, skill.installed_at);
    const written = new Set<string>();
    for (const [stored, data] of Object.entries(files)) {
      // The name an import reads back: installs store this form, older ones may not have.
      const path = canonicalMemberPath(stored);
      if (path === undefined || written.has(path)) {
        fail(
          `The skill '${skill.name}' holds a file named ${JSON.stringify(stored)}, which a backup cannot carry; ` +
            "delete the skill and install it again, then export.",
        );
      }
      written.add(path);
      this.add(`skills/${skill.name}/files/${path}`, data, true);
    }
    this.counts.skills += 1;
  }

  /** Settings (no secrets: the caller strips them) and MCP servers. */
  addSettings(settings: readonly SettingRecord[], mcpServers: readonly McpServerRecord[]): void {
    this.add(SETTINGS, encodeJson({ settings, mcp_servers: mcpServers }), true);
    this.counts.settings += settings.length;
  }

  /** The memory document (or null) and the long-term memory items. */
  addMemory(document: unknown, storeItems: readonly StoreItemRecord[]): void {
    this.add(MEMORY, encodeJson({ document: document ?? null, store_items: storeItems }), true);
  }

  /** Adds the manifest last (counts are known only then) and returns the archive. */
  finish(
    meta: { app_version: string; created_at: Date; memory_facts: number },
    /** A thread bundle (thread-bundle.ts) is this archive holding one thread and nothing else, under its own name. */
    format: string = BACKUP_FORMAT,
  ): {
    blob: Blob;
    manifest: BackupManifest;
  } {
    const manifest: BackupManifest = {
      format: format as typeof BACKUP_FORMAT,
      version: BACKUP_VERSION,
      app_version: meta.app_version,
      created_at: meta.created_at.toISOString(),
      counts: { ...this.counts, memory_facts: meta.memory_facts },
    };
    this.add(MANIFEST, encodeJson(manifest), true);
    this.zip.end();
    if (this.failure) throw this.failure;
    this.flushChunks();
    const blob = new Blob(this.parts, { type: "application/zip" });
    if (blob.size > this.limits.maxArchiveBytes) {
      fail(
        `Your data makes a ${formatBytes(blob.size)} backup, and a backup can hold at most ` +
          `${formatBytes(this.limits.maxArchiveBytes)}: delete or export some threads first.`,
      );
    }
    return { blob, manifest };
  }

  /**
   * Refuses, before the member is written, what an import would refuse: the same limits, counted the same way. The
   * backstop of checkPlannedBackup, which judges the files from their stored sizes before anything is written.
   */
  private admit(name: string, bytes: number): void {
    this.members += 1;
    this.unpackedBytes += bytes;
    if (bytes > this.limits.maxEntryBytes) fail(fileTooLarge(name, bytes, this.limits));
    if (this.unpackedBytes > this.limits.maxTotalBytes) {
      fail(
        `Your data is more than ${formatBytes(this.limits.maxTotalBytes)}, the most one backup can hold: delete or ` +
          "export some threads first.",
      );
    }
    if (this.members > this.limits.maxEntries) {
      fail(
        `Your data has more than ${this.limits.maxEntries.toLocaleString("en")} files, the most one backup can ` +
          "hold: delete some threads first.",
      );
    }
  }

  private add(name: string, data: Uint8Array, compress: boolean, mtime?: number): void {
    this.admit(name.replace(/^threads\/[^/]+\/files/, "").replace(/^skills\/[^/]+\/files\//, ""), data.byteLength);
    const deflated = compress ? compressedOrUndefined(data) : undefined;
    const member = deflated ? new DeflatedMember(name, deflated) : new ZipPassThrough(name);
    if (mtime !== undefined && Number.isFinite(mtime) && mtime > 315_532_800_000) member.mtime = mtime;
    this.zip.add(member);
    member.push(data, true);
    if (this.failure) throw this.failure;
  }

  private flushChunks(): void {
    if (this.chunks.length === 0) return;
    this.parts.push(new Blob(this.chunks as Uint8Array<ArrayBuffer>[]));
    this.chunks = [];
    this.chunkBytes = 0;
  }
}

function fileTooLarge(name: string, bytes: number, limits: BackupLimits): string {
  return (
    `${JSON.stringify(name)} is ${formatBytes(bytes)}, and a backup can hold files of at most ` +
    `${formatBytes(limits.maxEntryBytes)}: delete it, or download it on its own, then export.`
  );
}

/** What an export will write, known from stored sizes before any file is read or deflated. */
export interface PlannedBackup {
  /** Every file: a thread's by its path, a skill's by its path in the skill (as `admit` names them). */
  files: readonly { name: string; size: number }[];
  /** Members beside the files: each thread's and skill's record, settings, memory, the manifest. */
  records: number;
}

/**
 * Refuses up front, with the reason and the size, an export an import would refuse (BackupArchiveWriter's `admit` is
 * the backstop, for the records' own bytes): a file over the member limit, files over the total, too many members.
 */
export function checkPlannedBackup(planned: PlannedBackup, limits: BackupLimits = BACKUP_LIMITS): void {
  let total = 0;
  for (const file of planned.files) {
    if (file.size > limits.maxEntryBytes) fail(fileTooLarge(file.name, file.size, limits));
    total += file.size;
  }
  if (total > limits.maxTotalBytes) {
    fail(
      `Your data is ${formatBytes(total)}, and one backup can hold at most ${formatBytes(limits.maxTotalBytes)}: ` +
        "delete or export some threads first.",
    );
  }
  const members = planned.files.length + planned.records;
  if (members > limits.maxEntries) {
    fail(
      `Your data has ${members.toLocaleString("en")} files, and one backup can hold at most ` +
        `${limits.maxEntries.toLocaleString("en")}: delete some threads first.`,
    );
  }
}

// ---- Reading ----

/** A backup read and checked whole; thread files carry the meta the backup declared for them. */
export interface BackupContents {
  manifest: BackupManifest;
  threads: { records: ThreadBackup; files: ThreadFileRecord[] }[];
  skills: SkillRecord[];
  settings: GlobalBackup["settings"];
  mcp_servers: GlobalBackup["mcp_servers"];
  /** The memory document as stored (the caller validates its meaning), or null when the backup had none. */
  memory_document: unknown;
  store_items: GlobalBackup["store_items"];
}

/**
 * Reads and checks a backup archive: zip signature and size, every member's name (nothing outside its folder, no
 * unknown member) and declared size (BACKUP_LIMITS) before anything is inflated, then the manifest (format, version,
 * counts), every record's schema, that each thread's records all belong to it and its files match their meta.
 * Throws a BackupArchiveError with one sentence naming the first problem.
 */
export function readBackupArchive(
  archive: Uint8Array,
  limits: BackupLimits = BACKUP_LIMITS,
  format: string = BACKUP_FORMAT,
): BackupContents {
  if (archive.byteLength > limits.maxArchiveBytes) {
    fail(
      `The backup is too large (${formatBytes(archive.byteLength)}; at most ${formatBytes(limits.maxArchiveBytes)}).`,
    );
  }
  if (!hasZipMagic(archive)) fail("This file is not a zip archive, so it is not a Fawn backup.");

  const members = unzipWithinLimits(
    archive,
    { maxEntries: limits.maxEntries, maxMemberBytes: limits.maxEntryBytes, maxTotalBytes: limits.maxTotalBytes },
    {
      tooManyEntries: `The backup has more than ${limits.maxEntries.toLocaleString("en")} members.`,
      unsafeName: (name) => `The backup contains an unsafe path ${JSON.stringify(name)}.`,
      memberTooLarge: (name, declared) =>
        `The backup's member ${JSON.stringify(name)} is too large (${formatBytes(declared)} uncompressed; ` +
        `at most ${formatBytes(limits.maxEntryBytes)}).`,
      totalTooLarge: `The backup is too large once unpacked (more than ${formatBytes(limits.maxTotalBytes)} in all).`,
      notZip: "This file is not a valid zip archive, so it is not a Fawn backup.",
      duplicateName: (name) => `The backup holds ${JSON.stringify(name)} twice.`,
      damaged: (name) =>
        `The backup's member ${JSON.stringify(name)} is damaged: its bytes do not match the checksum the archive ` +
        "records for them.",
    },
    fail,
    // Every name is matched below to a folder and then held to its path rule: a thread file's path may hold ":", as
    // the sandbox allows; a skill file's may not (canonicalMemberPath, as install).
    { allowColon: true },
  );

  const manifestBytes = members[MANIFEST];
  if (!manifestBytes) fail("This archive has no manifest.json, so it is not a Fawn backup.");
  const manifest = parse(manifestSchema, decodeJson(MANIFEST, manifestBytes), MANIFEST);
  if (manifest.format !== format) {
    fail(`This archive is not a Fawn backup: its manifest names the format ${JSON.stringify(manifest.format)}.`);
  }
  if (manifest.version > BACKUP_VERSION) {
    fail(`This backup was made by a newer Fawn (format version ${manifest.version}); update Fawn to import it.`);
  }

  const threadJson = new Map<string, Uint8Array>();
  const threadFiles = new Map<string, Map<string, Uint8Array>>();
  const skillJson = new Map<string, Uint8Array>();
  const skillFiles = new Map<string, Record<string, Uint8Array>>();
  for (const [name, data] of Object.entries(members)) {
    if (name === MANIFEST || name === SETTINGS || name === MEMORY) continue;
    let match: RegExpExecArray | null;
    if ((match = THREAD_JSON.exec(name))) threadJson.set(match[1] as string, data);
    else if ((match = THREAD_FILE.exec(name))) {
      const [, threadId, path] = match as unknown as [string, string, string];
      const problem = threadFilePathProblem(path);
      if (problem) fail(`The backup's file ${JSON.stringify(name)} cannot be imported: ${problem}.`);
      const files = threadFiles.get(threadId) ?? new Map<string, Uint8Array>();
      files.set(path, data);
      threadFiles.set(threadId, files);
    } else if ((match = SKILL_JSON.exec(name))) skillJson.set(match[1] as string, data);
    else if ((match = SKILL_FILE.exec(name))) {
      const [, skillName, written] = match as unknown as [string, string, string];
      // Backups from before one rule set held a skill's paths as installed (`docs/./a.md`): read as today's.
      const path = canonicalMemberPath(written);
      if (path === undefined) {
        fail(`The backup's file ${JSON.stringify(name)} cannot be imported: a path may not climb out of its skill.`);
      }
      const files = skillFiles.get(skillName) ?? {};
      if (Object.hasOwn(files, path)) fail(`The backup holds the skill file ${JSON.stringify(path)} twice.`);
      files[path] = data;
      skillFiles.set(skillName, files);
    } else fail(`The backup holds ${JSON.stringify(name)}, which a Fawn backup never has.`);
  }

  const threads: BackupContents["threads"] = [];
  for (const [threadId, data] of threadJson) {
    const where = `threads/${threadId}/thread.json`;
    const records = parse(threadRecordSchema, decodeJson(where, data), where) as unknown as ThreadBackup;
    if (records.thread.thread_id !== threadId) fail(`${where} describes another thread (${records.thread.thread_id}).`);
    const foreign = [
      ...records.entries,
      ...records.runs,
      ...records.checkpoints,
      ...records.checkpoint_blobs,
      ...records.checkpoint_writes,
      ...records.checkpoint_messages,
      ...records.files,
    ].find((record) => record.thread_id !== threadId);
    if (foreign) fail(`${where} holds a record of another thread (${foreign.thread_id}).`);
    const files = threadFiles.get(threadId) ?? new Map<string, Uint8Array>();
    threadFiles.delete(threadId);
    const declared = new Set<string>();
    for (const meta of records.files) {
      const problem = threadFilePathProblem(meta.path);
      if (problem) fail(`${where} lists the file ${JSON.stringify(meta.path)}, which cannot be imported: ${problem}.`);
      if (declared.has(meta.path)) fail(`${where} lists the file ${JSON.stringify(meta.path)} twice.`);
      declared.add(meta.path);
      const data = files.get(meta.path);
      if (!data) fail(`${where} lists the file ${JSON.stringify(meta.path)}, which the backup does not hold.`);
      if (data.byteLength !== meta.size) {
        fail(`The file ${JSON.stringify(meta.path)} in the backup is ${data.byteLength} bytes, not ${meta.size}.`);
      }
    }
    const extra = [...files.keys()].find((path) => !declared.has(path));
    if (extra !== undefined) fail(`The backup holds the file ${JSON.stringify(extra)} that ${where} does not list.`);
    threads.push({
      records,
      files: records.files.map((meta) => ({
        thread_id: threadId,
        path: meta.path,
        bytes: files.get(meta.path) as Uint8Array,
      })),
    });
  }
  const orphan = threadFiles.keys().next();
  if (!orphan.done) fail(`The backup holds files of a thread (${orphan.value}) it has no thread.json for.`);

  const skills: SkillRecord[] = [];
  for (const [skillName, data] of skillJson) {
    const where = `skills/${skillName}/skill.json`;
    const record = parse(skillSchema, decodeJson(where, data), where);
    if (record.name !== skillName) fail(`${where} describes another skill (${record.name}).`);
    const files = skillFiles.get(skillName) ?? {};
    skillFiles.delete(skillName);
    if (!files["SKILL.md"]) fail(`The backup's skill ${JSON.stringify(skillName)} has no SKILL.md.`);
    skills.push({ ...record, metadata: record.metadata as SkillRecord["metadata"], files });
  }
  const orphanSkill = skillFiles.keys().next();
  if (!orphanSkill.done) fail(`The backup holds files of a skill (${orphanSkill.value}) it has no skill.json for.`);

  const settingsBytes = members[SETTINGS];
  const settings = settingsBytes
    ? parse(settingsSchema, decodeJson(SETTINGS, settingsBytes), SETTINGS)
    : { settings: [], mcp_servers: [] };
  const keys = new Set<string>();
  for (const { key } of settings.settings) {
    if (keys.has(key)) fail(`settings.json in the backup has the setting ${JSON.stringify(key)} twice.`);
    keys.add(key);
  }
  const memoryBytes = members[MEMORY];
  const memory = memoryBytes
    ? parse(memorySchema, decodeJson(MEMORY, memoryBytes), MEMORY)
    : { document: null, store_items: [] };
  const facts = (memory.document as { facts?: unknown } | null)?.facts;

  const found: BackupCounts = {
    threads: threads.length,
    thread_files: threads.reduce((sum, thread) => sum + thread.files.length, 0),
    skills: skills.length,
    memory_facts: Array.isArray(facts) ? facts.length : 0,
    settings: settings.settings.length,
  };
  for (const key of Object.keys(found) as (keyof BackupCounts)[]) {
    if (found[key] !== manifest.counts[key]) {
      fail(
        `The backup's manifest counts ${manifest.counts[key]} ${key.replace("_", " ")} but the archive holds ` +
          `${found[key]}: it is incomplete or was changed.`,
      );
    }
  }

  return {
    manifest: manifest as BackupManifest,
    threads,
    skills,
    settings: settings.settings as SettingRecord[],
    mcp_servers: settings.mcp_servers as McpServerRecord[],
    memory_document: memory.document,
    store_items: memory.store_items as StoreItemRecord[],
  };
}
