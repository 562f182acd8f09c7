// Reads the backup archive back with every rule checked (member names, declared sizes before anything is inflated,
// the manifest, each record's schema, paths and counts) before the caller writes a thing.
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
import type { GlobalBackup, ThreadBackup } from "../storage/index.ts";
import { threadFilePathProblem } from "../storage/index.ts";
import type {
  McpServerRecord,
  SettingRecord,
  SkillRecord,
  StoreItemRecord,
  ThreadFileRecord,
} from "../storage/index.ts";
import {
  decodeJson,
  fail,
  MANIFEST,
  manifestSchema,
  MEMORY,
  memorySchema,
  parse,
  SETTINGS,
  settingsSchema,
  SKILL_FILE,
  SKILL_JSON,
  skillSchema,
  THREAD_FILE,
  THREAD_JSON,
  threadRecordSchema,
} from "./backup-archive-schema.ts";

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
