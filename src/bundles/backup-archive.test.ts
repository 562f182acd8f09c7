import { strToU8, unzipSync, Zip, ZipPassThrough, zipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { BACKUP_LIMITS } from "../protocol/index.ts";
import type { ThreadBackup } from "../storage/backup-store.ts";
import { readBackupArchive } from "./backup-archive-reader.ts";
import { BackupArchiveWriter } from "./backup-archive-writer.ts";

const THREAD = "t-1";
const PATH = "/mnt/user-data/outputs/a.txt";

function records(overrides: Partial<ThreadBackup> = {}): ThreadBackup {
  return {
    thread: { thread_id: THREAD, title: "Bees", created_at: 1, updated_at: 2, status: "idle" },
    entries: [],
    runs: [],
    checkpoints: [],
    checkpoint_blobs: [],
    checkpoint_writes: [],
    checkpoint_messages: [
      { thread_id: THREAD, message_id: "m1", hash: "h", type: "json", bytes: strToU8('{"content":"hello"}') },
    ],
    files: [{ thread_id: THREAD, path: PATH, size: 3, sha256: "x", mimeType: "text/plain", mtime: 1 }],
    ...overrides,
  };
}

async function archive(thread = records(), files = [{ thread_id: THREAD, path: PATH, bytes: strToU8("abc") }]) {
  const writer = new BackupArchiveWriter();
  writer.addThread(thread, files);
  writer.addSettings([{ key: "sandbox.settings", value: { provider: "browser" } }], []);
  writer.addMemory(null, []);
  const { blob } = writer.finish({ app_version: "0.1.0", created_at: new Date(0), memory_facts: 0 });
  return new Uint8Array(await blob.arrayBuffer());
}

describe("the backup archive", () => {
  it("reads back what was written, bytes included", async () => {
    const read = readBackupArchive(await archive());
    expect(read.manifest).toMatchObject({ format: "fawn-backup", version: 1, counts: { threads: 1, thread_files: 1 } });
    expect(read.threads[0]?.records.checkpoint_messages[0]?.bytes).toEqual(strToU8('{"content":"hello"}'));
    expect(read.threads[0]?.files[0]?.bytes).toEqual(strToU8("abc"));
    expect(read.settings).toEqual([{ key: "sandbox.settings", value: { provider: "browser" } }]);
  });

  it("refuses a thread holding another thread's records", async () => {
    const foreign = records({
      checkpoint_messages: [{ thread_id: "t-2", message_id: "m", hash: "h", type: "json", bytes: new Uint8Array() }],
    });
    const bytes = await archive(foreign);
    expect(() => readBackupArchive(bytes)).toThrow(/holds a record of another thread \(t-2\)/);
  });

  it("refuses a file its thread does not list, and a listed file that is missing or of another size", async () => {
    const extra = await archive(records({ files: [] }));
    expect(() => readBackupArchive(extra)).toThrow(/does not list/);
    const missing = await archive(records(), []);
    expect(() => readBackupArchive(missing)).toThrow(/which the backup does not hold/);
    const resized = await archive(records(), [{ thread_id: THREAD, path: PATH, bytes: strToU8("abcd") }]);
    expect(() => readBackupArchive(resized)).toThrow(/is 4 bytes, not 3/);
  });

  it("names a missing field as missing, not as zod's 'received undefined'", async () => {
    const members = unzipSync(await archive());
    const manifest = JSON.parse(new TextDecoder().decode(members["manifest.json"])) as { counts: object };
    manifest.counts = { ...manifest.counts, threads: undefined };
    const bytes = zipSync({ ...members, "manifest.json": strToU8(JSON.stringify(manifest)) });
    expect(() => readBackupArchive(bytes)).toThrow(
      /^manifest\.json in the backup is not valid: counts\.threads is missing\.$/,
    );
  });

  it("refuses a member whose bytes fail their checksum, and a name held twice (found by bundle-fuzz)", async () => {
    const bytes = await archive();
    // The stored file "abc" with one byte changed: the zip is whole, its checksum says otherwise.
    const flipped = bytes.slice();
    const at = Buffer.from(flipped).indexOf("abc");
    flipped[at] = "x".charCodeAt(0);
    expect(() => readBackupArchive(flipped)).toThrow(
      `The backup's member "threads/t-1/files${PATH}" is damaged: its bytes do not match the checksum the archive ` +
        "records for them.",
    );
    const twice = new Zip();
    const parts: Uint8Array[] = [];
    twice.ondata = (_error, chunk) => parts.push(chunk);
    for (const [name, data] of [...Object.entries(unzipSync(bytes)), ["settings.json", strToU8("{}")] as const]) {
      const member = new ZipPassThrough(name);
      twice.add(member);
      member.push(data, true);
    }
    twice.end();
    expect(() => readBackupArchive(Buffer.concat(parts))).toThrow('The backup holds "settings.json" twice.');
  });

  it("refuses members it does not know, and judges sizes before inflating", async () => {
    const bytes = await archive();
    const members = unzipSync(bytes);
    expect(() => readBackupArchive(zipSync({ ...members, "notes/readme.txt": strToU8("hi") }))).toThrow(
      /"notes\/readme.txt", which a Fawn backup never has/,
    );
    expect(() => readBackupArchive(bytes, { ...BACKUP_LIMITS, maxEntryBytes: 10 })).toThrow(/too large/);
    expect(() => readBackupArchive(bytes, { ...BACKUP_LIMITS, maxTotalBytes: 100 })).toThrow(/once unpacked/);
    expect(() => readBackupArchive(bytes, { ...BACKUP_LIMITS, maxEntries: 2 })).toThrow(/more than 2 members/);
  });

  it("refuses to write what an import would refuse, saying why, and reads back whatever it wrote", async () => {
    const limits = { ...BACKUP_LIMITS, maxEntryBytes: 1000, maxTotalBytes: 2500 };
    const file = (bytes: number) => ({ thread_id: THREAD, path: PATH, bytes: new Uint8Array(bytes) });
    const listed = (bytes: number) => records({ files: [{ ...records().files[0]!, size: bytes }] });
    const big = new BackupArchiveWriter(limits);
    expect(() => big.addThread(listed(1001), [file(1001)])).toThrow(
      '"/mnt/user-data/outputs/a.txt" is 1001 B, and a backup can hold files of at most 1000 B',
    );
    // At the limit: written, and read back by an import held to the same limits. No size between the two fails.
    const atLimit = new BackupArchiveWriter(limits);
    atLimit.addThread(listed(1000), [file(1000)]);
    const { blob } = atLimit.finish({ app_version: "0.1.0", created_at: new Date(0), memory_facts: 0 });
    const read = readBackupArchive(new Uint8Array(await blob.arrayBuffer()), limits);
    expect(read.threads[0]?.files[0]?.bytes.byteLength).toBe(1000);
    const many = new BackupArchiveWriter(limits);
    many.addThread(listed(1000), [file(1000)]);
    expect(() =>
      many.addThread({ ...listed(1000), thread: { ...records().thread, thread_id: "t-2" } }, [
        { ...file(1000), thread_id: "t-2" },
      ]),
    ).toThrow(/^Your data is more than 2.4 KB, the most one backup can hold/);
  });

  it("writes a skill's files under canonical names, so a skill stored with odd ones still restores", async () => {
    const writer = new BackupArchiveWriter();
    const skill = "---\nname: odd\ndescription: Odd paths.\n---\n";
    writer.addSkill({
      name: "odd",
      enabled: true,
      installed_at: 1,
      metadata: { description: "Odd paths." },
      files: { "SKILL.md": strToU8(skill), "docs/./a.md": strToU8("a"), "x//y.txt": strToU8("y") },
    });
    writer.addSettings([], []);
    writer.addMemory(null, []);
    const { blob } = writer.finish({ app_version: "0.1.0", created_at: new Date(0), memory_facts: 0 });
    const read = readBackupArchive(new Uint8Array(await blob.arrayBuffer()));
    expect(Object.keys(read.skills[0]?.files ?? {}).sort()).toEqual(["SKILL.md", "docs/a.md", "x/y.txt"]);
  });

  it("reads an older backup's skill paths (written as installed) in their canonical form", async () => {
    const members = unzipSync(await archive());
    const manifest = JSON.parse(new TextDecoder().decode(members["manifest.json"])) as { counts: { skills: number } };
    manifest.counts.skills = 1;
    const skill = "---\nname: odd\ndescription: Odd paths.\n---\n";
    const bytes = zipSync({
      ...members,
      "manifest.json": strToU8(JSON.stringify(manifest)),
      "skills/odd/skill.json": strToU8(
        JSON.stringify({ name: "odd", enabled: true, installed_at: 1, metadata: { description: "Odd paths." } }),
      ),
      "skills/odd/files/SKILL.md": strToU8(skill),
      "skills/odd/files/docs/./a.md": strToU8("a"),
    });
    expect(Object.keys(readBackupArchive(bytes).skills[0]?.files ?? {}).sort()).toEqual(["SKILL.md", "docs/a.md"]);
  });

  it("reads back, byte for byte, a file fflate's streaming deflater would have written unreadable", async () => {
    // For this input fflate 0.8.3's ZipDeflate writes a stream that does not inflate back ("invalid distance").
    const bytes = new Uint8Array(200 * 1024);
    for (let j = 0; j < bytes.length; j++) bytes[j] = (Math.imul(j + 1, 2654435761) >>> 24) & 0xff;
    const listed = records({ files: [{ ...records().files[0]!, size: bytes.byteLength }] });
    const read = readBackupArchive(await archive(listed, [{ thread_id: THREAD, path: PATH, bytes }]));
    expect(Buffer.compare(Buffer.from(read.threads[0]!.files[0]!.bytes), Buffer.from(bytes))).toBe(0);
  });
});
