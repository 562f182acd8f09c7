// @vitest-environment jsdom
import { describe, expect, it } from "vitest";
import {
  INLINE_MAX_FILE_BYTES,
  inlineHtmlArtifact,
  resolveThreadPath,
  type ThreadFileReader,
} from "./html-artifact.ts";

const SITE = "/mnt/user-data/outputs/site";

function reader(files: Record<string, string | Uint8Array>): ThreadFileReader & { asked: string[] } {
  const asked: string[] = [];
  const read = async (path: string) => {
    asked.push(path);
    const content = files[path];
    if (content === undefined) return undefined;
    return { bytes: typeof content === "string" ? new TextEncoder().encode(content) : content, mime_type: "" };
  };
  return Object.assign(read, { asked });
}

function parse(html: string): Document {
  return new DOMParser().parseFromString(html, "text/html");
}

describe("resolveThreadPath", () => {
  it("resolves relative references against the page's folder, within the thread's files only", () => {
    const page = `${SITE}/index.html`;
    expect(resolveThreadPath("css/style.css", page)).toBe(`${SITE}/css/style.css`);
    expect(resolveThreadPath("./app.js?v=2#top", page)).toBe(`${SITE}/app.js`);
    expect(resolveThreadPath("../data/my%20chart.png", page)).toBe("/mnt/user-data/outputs/data/my chart.png");
    expect(resolveThreadPath("../../../../etc/passwd", page)).toBeUndefined();
    expect(resolveThreadPath("/assets/x.css", page)).toBeUndefined();
    expect(resolveThreadPath("https://cdn.example.com/x.js", page)).toBeUndefined();
    expect(resolveThreadPath("//cdn.example.com/x.js", page)).toBeUndefined();
    expect(resolveThreadPath("data:image/png;base64,AAAA", page)).toBeUndefined();
    expect(resolveThreadPath("#section", page)).toBeUndefined();
  });
});

describe("inlineHtmlArtifact", () => {
  it("puts the page's stylesheets, scripts and images inline, fonts in its CSS too", async () => {
    const read = reader({
      [`${SITE}/css/style.css`]: ".navbar { position: fixed; background: url('../img/bg.png'); }",
      [`${SITE}/img/bg.png`]: new Uint8Array([137, 80, 78, 71]),
      [`${SITE}/img/logo.svg`]: "<svg xmlns='http://www.w3.org/2000/svg'/>",
      [`${SITE}/js/app.js`]: "document.title = 'ran'; const end = '</script>';",
    });
    const html = await inlineHtmlArtifact(
      `<!DOCTYPE html><html><head><link rel="stylesheet" href="css/style.css" media="screen">
      <script src="js/app.js" defer></script><script src="https://cdn.example.com/lib.js"></script></head>
      <body><img src="img/logo.svg" srcset="img/logo@2x.svg 2x" alt="logo"></body></html>`,
      `${SITE}/index.html`,
      read,
    );
    expect(html.startsWith("<!DOCTYPE html>")).toBe(true);
    const page = parse(html);
    const style = page.querySelector("style");
    expect(style?.getAttribute("media")).toBe("screen");
    expect(style?.textContent).toContain("position: fixed");
    expect(style?.textContent).toContain('url("data:image/png;base64,iVBORw==")');
    expect(page.querySelector("link")).toBeNull();
    // After the storage stand-in, which comes first.
    const [, local, remote] = [...page.querySelectorAll("script")];
    expect(local?.hasAttribute("src")).toBe(false);
    expect(local?.textContent).toContain("document.title = 'ran'");
    // The code cannot end its element early.
    expect(local?.textContent).toContain("<\\/script>");
    expect(remote?.getAttribute("src")).toBe("https://cdn.example.com/lib.js");
    const image = page.querySelector("img");
    expect(image?.getAttribute("src")).toMatch(/^data:image\/svg\+xml;base64,/);
    expect(image?.hasAttribute("srcset")).toBe(false);
  });

  it("never leaves a relative reference the frame would ask Fawn's server for", async () => {
    const big = new Uint8Array(INLINE_MAX_FILE_BYTES + 1);
    const read = reader({ [`${SITE}/big.png`]: big });
    const html = await inlineHtmlArtifact(
      `<html><head><link rel="stylesheet" href="missing.css"><script src="../../../../../x.js"></script></head>
      <body><img src="big.png"><img src="gone.png"><style>body { background: url(nothere.png) }</style></body></html>`,
      `${SITE}/index.html`,
      read,
    );
    const page = parse(html);
    expect(page.querySelector("link")).toBeNull();
    expect(page.querySelector("script")?.hasAttribute("src")).toBe(false);
    expect([...page.querySelectorAll("img")].map((image) => image.getAttribute("src"))).toEqual([null, null]);
    expect(page.querySelector("style")?.textContent).toBe("body { background: url() }");
    // The path outside the thread's files was never read.
    expect(read.asked.every((path) => path.startsWith("/mnt/user-data/"))).toBe(true);
  });

  it("reads a file used twice once", async () => {
    const read = reader({ [`${SITE}/a.png`]: new Uint8Array([1]) });
    await inlineHtmlArtifact(`<img src="a.png"><img src="./a.png">`, `${SITE}/index.html`, read);
    expect(read.asked).toEqual([`${SITE}/a.png`]);
  });
});

describe("a page with scripts", () => {
  it("gets stand-ins for the storage a sandboxed frame refuses, before its own scripts", async () => {
    const html = await inlineHtmlArtifact(
      `<html><head><script>localStorage.setItem("theme", "dark")</script></head></html>`,
      `${SITE}/index.html`,
      reader({}),
    );
    const scripts = [...parse(html).querySelectorAll("script")];
    expect(scripts).toHaveLength(2);
    expect(scripts[0]?.textContent).toContain("localStorage");
    expect(scripts[1]?.textContent).toBe('localStorage.setItem("theme", "dark")');
    // A page without scripts is left without one.
    expect(await inlineHtmlArtifact("<p>hi</p>", `${SITE}/index.html`, reader({}))).not.toContain("<script");
  });
});
