// image_search in the browser: Settings → Web picks Firecrawl for images, the model's call reaches a stand-in for
// Firecrawl, and the step shows the images as a grid that loads nothing from the web until "Show images"; then each
// thumbnail comes without a referrer, and one whose host refuses the page's read offers "Open image".
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test } from "@playwright/test";
import {
  assistantMessages,
  callTool,
  configureEndpoint,
  conversation,
  editSettings,
  openSettings,
  send,
} from "./fixtures.ts";

const COLORS = ["#c0392b", "#2e86c1", "#27ae60", "#8e44ad"];

let server: Server;
let origin = "";
const imageRequests: { path: string; referer: string | undefined }[] = [];
let searches = 0;

test.beforeAll(async () => {
  server = createServer((request, response) => {
    const cors = {
      "access-control-allow-origin": "*",
      "access-control-allow-headers": "authorization, content-type",
      "access-control-allow-methods": "POST",
    };
    const path = request.url ?? "";
    if (request.method === "OPTIONS") {
      response.writeHead(204, cors).end();
    } else if (path === "/v2/search") {
      searches++;
      response.writeHead(200, { ...cors, "content-type": "application/json" });
      response.end(
        JSON.stringify({
          success: true,
          data: {
            images: [
              ...COLORS.map((_, index) => ({
                title: `Red panda ${index + 1}`,
                imageUrl: `${origin}/images/${index}.svg`,
                url: `https://zoo.example/panda-${index + 1}`,
              })),
              { title: "Refuses pages", imageUrl: `${origin}/no-cors/panda.svg`, url: "https://closed.example/" },
            ],
          },
        }),
      );
    } else if (path.startsWith("/images/") || path.startsWith("/no-cors/")) {
      imageRequests.push({ path, referer: request.headers.referer });
      const color = COLORS[Number(/(\d)\.svg$/.exec(path)?.[1] ?? 0)];
      response.writeHead(200, {
        "content-type": "image/svg+xml",
        ...(path.startsWith("/images/") && { "access-control-allow-origin": "*" }),
      });
      response.end(
        `<svg xmlns="http://www.w3.org/2000/svg" width="120" height="120"><rect width="120" height="120" fill="${color}"/><circle cx="60" cy="60" r="30" fill="#fff"/></svg>`,
      );
    } else {
      response.writeHead(404, cors).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
test.afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

test("image_search's thumbnails load only once the user asks, without a referrer", async ({ page }) => {
  await page.goto("/");
  await configureEndpoint(page);
  await editSettings(page, "Web", async (dialog) => {
    await dialog.getByRole("combobox", { name: "Image search provider" }).selectOption({ label: "Firecrawl" });
    await dialog.getByRole("textbox", { name: "Image search API key" }).fill("fc-e2e-key");
    await dialog.getByRole("textbox", { name: "Image search base URL" }).fill(origin);
  });

  await send(page, callTool("image_search", { query: "red panda" }));
  await expect(assistantMessages(page).last()).toContainText("The tool returned:");
  expect(searches).toBe(1);
  const reply = conversation(page);
  await reply.getByText("Searched images for \u201cred panda\u201d").click();
  const grid = reply.getByRole("list", { name: "Image results" });
  await expect(grid.getByRole("listitem")).toHaveCount(5);
  await expect(grid.getByRole("link", { name: "Red panda 1" })).toHaveAttribute("href", "https://zoo.example/panda-1");
  expect(imageRequests, "no image is loaded before Show images").toEqual([]);
  await expect(grid.getByRole("img")).toHaveCount(0);

  const shots = process.env.WB_SHOTS;
  if (shots) await page.screenshot({ path: `${shots}/grid-before.png` });
  await reply.getByRole("button", { name: "Show images" }).click();
  await expect(grid.getByRole("img", { name: /^Red panda \d$/ })).toHaveCount(4);
  await expect(grid.getByRole("link", { name: "Open image" })).toHaveAttribute("href", `${origin}/no-cors/panda.svg`);
  expect(imageRequests.map((request) => request.referer)).toEqual([
    undefined,
    undefined,
    undefined,
    undefined,
    undefined,
  ]);
  await expect(reply.getByRole("button", { name: "Show images" })).toHaveCount(0);

  // Looked at by eye (WB_SHOTS=dir): phone, 600 px and desktop, light and dark.
  if (shots) {
    for (const [width, height] of [
      [390, 844],
      [600, 900],
      [1280, 900],
    ] as const) {
      for (const scheme of ["light", "dark"] as const) {
        await page.setViewportSize({ width, height });
        await page.emulateMedia({ colorScheme: scheme });
        await grid.scrollIntoViewIfNeeded();
        await page.screenshot({ path: `${shots}/grid-${width}-${scheme}.png` });
      }
    }
    await page.setViewportSize({ width: 390, height: 844 });
    await openSettings(page, "Web");
    await page.getByRole("combobox", { name: "Image search provider" }).scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${shots}/web-390-dark.png` });
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.emulateMedia({ colorScheme: "light" });
    await page.screenshot({ path: `${shots}/web-1280-light.png` });
  }
});
