// @vitest-environment jsdom
import { describe, expect, it, vi } from "vitest";
import {
  INLINE_MAX_FILE_BYTES,
  inlineHtmlArtifact,
  linkedThreadFile,
  OPEN_THREAD_FILE,
  type ThreadFileReader,
} from "./html-artifact.ts";
import { resolveThreadPath } from "../markdown/thread-file-references.ts";

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
    // After the storage stand-in and the link handler, which come first.
    const [, , local, remote] = [...page.querySelectorAll("script")];
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
    expect([...page.querySelectorAll("script")].some((script) => script.hasAttribute("src"))).toBe(false);
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
    expect(scripts).toHaveLength(3);
    expect(scripts[0]?.textContent).toContain("localStorage");
    expect(scripts[1]?.textContent).toContain(OPEN_THREAD_FILE);
    expect(scripts[2]?.textContent).toBe('localStorage.setItem("theme", "dark")');
    // A page without scripts gets only the link handler.
    const plain = [...parse(await inlineHtmlArtifact("<p>hi</p>", `${SITE}/index.html`, reader({}))).scripts];
    expect(plain.map((script) => script.textContent?.includes(OPEN_THREAD_FILE))).toEqual([true]);
  });
});

describe("links in a page", () => {
  const PAGE = `${SITE}/index.html`;

  /** Runs the page's link handler here and clicks each link; returns what was opened and what was asked of Fawn. */
  async function click(body: string, pageHandler?: (event: MouseEvent) => void) {
    const html = await inlineHtmlArtifact(`<html><body>${body}</body></html>`, PAGE, reader({}));
    const handler = [...parse(html).scripts].find((script) => script.textContent?.includes(OPEN_THREAD_FILE));
    const opened = vi.spyOn(window, "open").mockImplementation(() => null);
    const posted = vi.spyOn(window.parent, "postMessage").mockImplementation(() => undefined);
    const listeners = new Set<EventListenerOrEventListenerObject>();
    const add = vi.spyOn(window, "addEventListener").mockImplementation((type, listener) => {
      if (type === "click" && listener) listeners.add(listener);
    });
    new Function(handler?.textContent ?? "")();
    add.mockRestore();
    for (const listener of listeners) window.addEventListener("click", listener);
    document.body.innerHTML = body;
    if (pageHandler) document.body.addEventListener("click", pageHandler);
    const followed: boolean[] = [];
    for (const link of document.querySelectorAll("a")) {
      followed.push(link.dispatchEvent(new MouseEvent("click", { bubbles: true, cancelable: true, button: 0 })));
    }
    for (const listener of listeners) window.removeEventListener("click", listener);
    const result = {
      opened: opened.mock.calls.map((call) => [call[0], call[1], call[2]]),
      posted: posted.mock.calls.map((call) => call[0] as unknown),
      followed,
    };
    opened.mockRestore();
    posted.mockRestore();
    return result;
  }

  it("opens web and mail links in a new tab, without an opener, instead of navigating the frame", async () => {
    const { opened, posted, followed } = await click(
      `<a href="https://example.com/a?b=1">web</a><a href="//example.org/x">scheme-relative</a>` +
        `<a href="mailto:team@example.com">mail</a><a href="https://example.com/b" target="_top">top</a>`,
    );
    expect(opened).toEqual([
      ["https://example.com/a?b=1", "_blank", "noopener,noreferrer"],
      ["https://example.org/x", "_blank", "noopener,noreferrer"],
      ["mailto:team@example.com", "_blank", "noopener,noreferrer"],
      ["https://example.com/b", "_blank", "noopener,noreferrer"],
    ]);
    expect(posted).toEqual([]);
    expect(followed).toEqual([false, false, false, false]);
  });

  it("asks Fawn to preview a linked thread file; in-page links and ones the page handles stay the page's", async () => {
    const { opened, posted, followed } = await click(
      `<a href="details.html#part">details</a><a href="#top">top</a><a href="spa" data-own="1">own</a>`,
      (event) => {
        if ((event.target as Element).hasAttribute("data-own")) event.preventDefault();
      },
    );
    expect(opened).toEqual([]);
    expect(posted).toEqual([{ type: OPEN_THREAD_FILE, href: "details.html#part" }]);
    expect(followed).toEqual([false, true, false]);
    expect(linkedThreadFile(posted[0], PAGE)).toBe(`${SITE}/details.html`);
  });

  it("opens only thread files, for messages of the link handler's shape", () => {
    expect(linkedThreadFile({ type: OPEN_THREAD_FILE, href: "../report.md" }, PAGE)).toBe(
      "/mnt/user-data/outputs/report.md",
    );
    expect(linkedThreadFile({ type: OPEN_THREAD_FILE, href: "../../../../etc/passwd" }, PAGE)).toBeUndefined();
    expect(linkedThreadFile({ type: OPEN_THREAD_FILE, href: "https://example.com" }, PAGE)).toBeUndefined();
    expect(linkedThreadFile({ type: "other", href: "a.html" }, PAGE)).toBeUndefined();
    expect(linkedThreadFile({ type: OPEN_THREAD_FILE, href: 42 }, PAGE)).toBeUndefined();
    expect(linkedThreadFile("a.html", PAGE)).toBeUndefined();
    expect(linkedThreadFile(null, PAGE)).toBeUndefined();
  });
});
