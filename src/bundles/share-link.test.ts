import { deflateSync, strFromU8, strToU8, unzipSync, zipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { toBase64, toBase64Url } from "../shared/base64.ts";
import { decodeShareLink, encodeShareLink, SHARE_LINK_LIMITS, SHARE_LINK_MAX_CHARS } from "./share-link.ts";

/** A zip shaped like a bundle: a manifest and a record file whose byte fields are `{"$bytes": …}`. */
function bundleOf(records: unknown, extra: Record<string, Uint8Array> = {}): Uint8Array {
  return zipSync({
    "manifest.json": strToU8('{"format":"fawn-thread"}'),
    "threads/t-1/thread.json": strToU8(JSON.stringify(records)),
    ...extra,
  });
}

function membersOf(bundle: Uint8Array): Record<string, string> {
  return Object.fromEntries(Object.entries(unzipSync(bundle)).map(([name, data]) => [name, strFromU8(data, true)]));
}

function dataOf(answer: ReturnType<typeof encodeShareLink>): string {
  if (!("data" in answer)) throw new Error(`too big: ${JSON.stringify(answer)}`);
  return answer.data;
}

describe("a share link's data", () => {
  it("decodes to a bundle with the same members, byte fields as they were (text or not)", () => {
    const text = '{"lc":1,"type":"constructor","id":["HumanMessage"],"kwargs":{"content":"héllo"}}';
    const records = {
      messages: Array.from({ length: 20 }, (_, index) => ({ bytes: { $bytes: toBase64(strToU8(`${text}${index}`)) } })),
      binary: { $bytes: toBase64(new Uint8Array([0xff, 0xfe, 0, 1])) },
      other: { $bytes: "not mine", extra: 1 },
    };
    const bundle = bundleOf(records, { "threads/t-1/files/mnt/user-data/outputs/a.txt": strToU8("a\n".repeat(500)) });
    const data = dataOf(encodeShareLink(bundle));
    // Packed: smaller than the bundle itself.
    expect(data.startsWith("t.")).toBe(true);
    expect(data.length).toBeLessThan(toBase64Url(bundle).length);
    const decoded = membersOf(decodeShareLink(data));
    const original = membersOf(bundle);
    expect(Object.keys(decoded).sort()).toEqual(Object.keys(original).sort());
    expect(JSON.parse(decoded["threads/t-1/thread.json"]!)).toEqual(records);
    expect(decoded["threads/t-1/files/mnt/user-data/outputs/a.txt"]).toBe(
      original["threads/t-1/files/mnt/user-data/outputs/a.txt"],
    );
  });

  it("keeps the bundle as it is when a record already has a $text field", () => {
    const bundle = bundleOf({ note: { $text: "mine" }, bytes: { $bytes: toBase64(strToU8("x".repeat(200))) } });
    const data = dataOf(encodeShareLink(bundle));
    expect(data.startsWith("z.")).toBe(true);
    expect(decodeShareLink(data)).toEqual(bundle);
  });

  it("is too big over the limit, with its size and the limit", () => {
    const noise = crypto.getRandomValues(new Uint8Array(SHARE_LINK_MAX_CHARS));
    const answer = encodeShareLink(bundleOf({}, { "threads/t-1/files/mnt/user-data/uploads/noise.bin": noise }));
    expect(answer).toEqual({ too_big: { size: expect.any(Number), limit: SHARE_LINK_MAX_CHARS } });
    if ("too_big" in answer) expect(answer.too_big.size).toBeGreaterThan(SHARE_LINK_MAX_CHARS);
  });

  it("is too big when it would unpack to more than a link may hold, however well it compresses", () => {
    const zeros = new Uint8Array(SHARE_LINK_LIMITS.maxTotalBytes + 1);
    const answer = encodeShareLink(bundleOf({}, { "threads/t-1/files/mnt/user-data/outputs/zeros": zeros }));
    expect(answer).toEqual({ too_big: { size: expect.any(Number), limit: SHARE_LINK_LIMITS.maxTotalBytes } });
  });

  it("refuses damaged, unknown or overlong data with a sentence", () => {
    expect(() => decodeShareLink("t.")).toThrow(/damaged or incomplete/);
    expect(() => decodeShareLink("q.AAAA")).toThrow(/damaged or incomplete/);
    expect(() => decodeShareLink("t.a+b/")).toThrow(/damaged or incomplete/);
    expect(() => decodeShareLink(`t.${toBase64Url(strToU8("not deflate at all"))}`)).toThrow(/damaged or incomplete/);
    expect(() => decodeShareLink(`z.${"A".repeat(SHARE_LINK_MAX_CHARS + 1)}`)).toThrow(/longer than any link/);
  });

  it("refuses data that inflates to more than a link may hold, without holding it all", () => {
    const bomb = deflateSync(new Uint8Array(SHARE_LINK_LIMITS.maxArchiveBytes + 1024 * 1024), { level: 9 });
    expect(() => decodeShareLink(`t.${toBase64Url(bomb)}`)).toThrow(/unpacks to more than a share link may hold/);
  });
});
