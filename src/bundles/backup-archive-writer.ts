// Writes the backup archive of "Export all data" (and of one thread, thread-bundle.ts): member by member as a zip
// stream, refusing up front what an import would refuse.
import { deflateSync, inflateSync, Zip, ZipPassThrough } from "fflate";
import {
  BACKUP_FORMAT,
  BACKUP_LIMITS,
  BACKUP_VERSION,
  type BackupCounts,
  type BackupLimits,
  type BackupManifest,
} from "../protocol/index.ts";
import { formatBytes } from "../shared/text.ts";
import { canonicalMemberPath } from "../shared/zip-safety.ts";
import type { ThreadBackup } from "../storage/index.ts";
import { threadFilePathProblem } from "../storage/index.ts";
import type {
  McpServerRecord,
  SettingRecord,
  SkillRecord,
  StoreItemRecord,
  ThreadFileRecord,
} from "../storage/index.ts";
import { encodeJson, fail, MANIFEST, MEMORY, SETTINGS } from "./backup-archive-schema.ts";

/** Files already compressed gain nothing from deflate: they are stored as they are. */
const STORED_TYPES = /^(image\/(png|jpeg|gif|webp)|application\/(zip|pdf|vnd\.openxmlformats.*)|audio\/|video\/)/;

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
