// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from "vitest";
import { downloadBlob, imageUrl, releaseImageUrl, sanitizeSvg, svgDataUrl } from "./image-urls.ts";

const HOSTILE = [
  '<?xml version="1.0" encoding="UTF-8"?>',
  '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="40" height="20"',
  ' viewBox="0 0 40 20" onload="window.__pwned = true">',
  "<script>window.__pwned = true</script>",
  '<defs><linearGradient id="g"><stop offset="0" stop-color="#b5651d"/></linearGradient></defs>',
  '<rect width="40" height="20" fill="url(#g)" onclick="window.__pwned = true"/>',
  '<a href="javascript:window.__pwned = true"><text x="2" y="15">caf\u00e9\u00a0ok</text></a>',
  '<foreignObject width="10" height="10"><body xmlns="http://www.w3.org/1999/xhtml"><img src="x" onerror="1"/></body></foreignObject>',
  '<set attributeName="onmouseover" to="alert(1)"/>',
  '<use xlink:href="#g"/><use href="https://attacker.example/sprite.svg#x"/>',
  "</svg>",
].join("");

function decodeDataUrl(url: string): string {
  const [head, payload = ""] = url.split(",");
  expect(head).toBe("data:image/svg+xml;base64");
  return new TextDecoder().decode(Uint8Array.from(atob(payload), (char) => char.charCodeAt(0)));
}

describe("sanitizeSvg", () => {
  it("keeps the picture and drops script, handlers, foreignObject and javascript: links", () => {
    const svg = sanitizeSvg(HOSTILE) ?? "";
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    expect(svg).toContain('viewBox="0 0 40 20"');
    expect(svg).toContain("<linearGradient");
    expect(svg).toContain('fill="url(#g)"');
    expect(svg).toContain("café");
    // <use> draws from inside the picture only.
    expect(svg).toContain('<use xlink:href="#g"/>');
    expect(svg).not.toContain("attacker.example");
    for (const gone of ["script", "onload", "onclick", "onerror", "javascript:", "foreignObject", "<set", "__pwned"]) {
      expect(svg, gone).not.toContain(gone);
    }
  });

  it("gives XML an image can parse (no HTML entities such as &nbsp;)", () => {
    const svg = sanitizeSvg(HOSTILE) ?? "";
    expect(svg).not.toContain("&nbsp;");
    const parsed = new DOMParser().parseFromString(svg, "image/svg+xml");
    expect(parsed.querySelector("parsererror")).toBeNull();
    expect(parsed.documentElement.localName).toBe("svg");
  });

  it("finds no picture in what is not SVG", () => {
    expect(sanitizeSvg("<p>hello</p>")).toBeUndefined();
    expect(sanitizeSvg("<script>alert(1)</script>")).toBeUndefined();
    expect(sanitizeSvg("")).toBeUndefined();
  });
});

describe("image URLs", () => {
  afterEach(() => vi.unstubAllGlobals());

  it("shows an SVG as a sanitized data: URL, never an object URL", () => {
    const create = vi.fn(() => "blob:nope");
    vi.stubGlobal("URL", { createObjectURL: create, revokeObjectURL: vi.fn() });
    const url = imageUrl(new TextEncoder().encode(HOSTILE), "image/svg+xml") ?? "";
    expect(url.startsWith("data:image/svg+xml;base64,")).toBe(true);
    expect(decodeDataUrl(url)).toBe(sanitizeSvg(HOSTILE));
    expect(svgDataUrl(new TextEncoder().encode("not svg"))).toBeUndefined();
    expect(create).not.toHaveBeenCalled();
  });

  it("shows other images from object URLs of their type, and releases only object URLs", () => {
    const blobs: Blob[] = [];
    const revoke = vi.fn();
    vi.stubGlobal("URL", {
      createObjectURL: (blob: Blob) => (blobs.push(blob), "blob:1"),
      revokeObjectURL: revoke,
    });
    expect(imageUrl(new Uint8Array([1, 2]), "image/png")).toBe("blob:1");
    expect(blobs[0]?.type).toBe("image/png");
    releaseImageUrl("blob:1");
    releaseImageUrl("data:image/svg+xml;base64,AA==");
    expect(revoke.mock.calls).toEqual([["blob:1"]]);
  });

  it("saves a download as plain bytes, whatever the file is", async () => {
    const blob = downloadBlob(new TextEncoder().encode("<svg onload=alert(1)>"));
    expect(blob.type).toBe("application/octet-stream");
    expect(await blob.text()).toBe("<svg onload=alert(1)>");
  });
});
