import { describe, expect, it } from "vitest";
import { byteRange, contentDisposition, presentArtifact } from "./artifact-content.ts";

const text = new TextEncoder().encode("plain words");

describe("presentArtifact", () => {
  it("never shows active content: HTML, XHTML, SVG and XML by name or by stored type are downloads", () => {
    for (const name of ["a.html", "a.HTM", "a.xhtml", "a.svg", "a.xml", "a.mhtml"]) {
      expect(presentArtifact(name, "", text, false).attachment, name).toBe(true);
    }
    for (const type of ["text/html", "image/svg+xml", "application/xhtml+xml", "text/html; charset=utf-8"]) {
      expect(presentArtifact("notes.txt", type, text, false).attachment, type).toBe(true);
    }
  });

  it("shows known media inline by its type and other text as text/plain; binary is a download", () => {
    expect(presentArtifact("photo.JPG", "", new Uint8Array([255, 216]), false)).toEqual({
      contentType: "image/jpeg",
      attachment: false,
    });
    expect(presentArtifact("style.css", "text/css", text, false)).toEqual({
      contentType: "text/plain; charset=utf-8",
      attachment: false,
    });
    expect(presentArtifact("data.bin", "", new Uint8Array([1, 0, 2]), false)).toEqual({
      contentType: "application/octet-stream",
      attachment: true,
    });
    expect(presentArtifact("latin1.txt.bak", "", new Uint8Array([0xe9, 0x41]), false).attachment).toBe(true);
    expect(presentArtifact("report.md", "", text, true).attachment).toBe(true);
    // A long UTF-8 text whose first 8 KiB end inside a character is still text.
    const long = new TextEncoder().encode(`${"a".repeat(8191)}é and more`);
    expect(presentArtifact("long.log", "", long, false).contentType).toBe("text/plain; charset=utf-8");
  });
});

describe("byteRange", () => {
  it("reads one range as RFC 9110 writes it, clamped to the file", () => {
    expect(byteRange(null, 10)).toBeUndefined();
    expect(byteRange("bytes=0-1048575", 10)).toEqual({ start: 0, end: 9 });
    expect(byteRange("bytes=4-", 10)).toEqual({ start: 4, end: 9 });
    expect(byteRange("bytes=-4", 10)).toEqual({ start: 6, end: 9 });
    expect(byteRange("bytes=-40", 10)).toEqual({ start: 0, end: 9 });
  });

  it("says unsatisfiable for ranges outside the file, several ranges or another unit", () => {
    for (const header of ["bytes=10-", "bytes=5-2", "bytes=0-1,4-5", "items=0-1", "bytes=-0", "bytes=-"]) {
      expect(byteRange(header, 10), header).toBe("unsatisfiable");
    }
    expect(byteRange("bytes=0-", 0)).toBe("unsatisfiable");
  });
});

describe("contentDisposition", () => {
  it("keeps quotes, newlines and non-ASCII out of the plain name and encodes them in filename*", () => {
    expect(contentDisposition("attachment", 'a"b\r\nc é.txt')).toBe(
      `attachment; filename="a_b__c _.txt"; filename*=UTF-8''a%22b%0D%0Ac%20%C3%A9.txt`,
    );
  });
});
