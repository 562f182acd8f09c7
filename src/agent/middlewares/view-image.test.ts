import "fake-indexeddb/auto";
import { AIMessage, HumanMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { Command } from "@langchain/langgraph";
import { createAgent, fakeModel, tool } from "langchain";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { BrowserSandbox } from "../../sandbox/browser/browser-sandbox.ts";
import type { Sandbox } from "../../sandbox/sandbox.ts";
import { openFawnDb, ThreadFiles } from "../../storage/index.ts";
import { IndexedDbThreadFileStore } from "../../sandbox/indexed-db-thread-file-store.ts";
import { isHiddenMessage } from "../hidden-messages.ts";
import {
  inspectImage,
  mergeViewedImages,
  sniffImageType,
  VIEW_IMAGE_MAX_BYTES,
  viewableImagePath,
  viewImageMiddleware,
  viewImageTool,
} from "./view-image.ts";
import { toBase64 } from "../../shared/base64.ts";

const W = "/mnt/user-data/workspace";
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 1, 2, 3]);
const JPEG = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46]);
const GIF = new TextEncoder().encode("GIF89a\x01\x00\x01\x00");
const WEBP = new Uint8Array([
  ...new TextEncoder().encode("RIFF"),
  36,
  0,
  0,
  0,
  ...new TextEncoder().encode("WEBPVP8 "),
]);

let dbCount = 0;
async function openSandbox(): Promise<BrowserSandbox> {
  const files = new ThreadFiles(await openFawnDb(`view-image-${dbCount++}`));
  return BrowserSandbox.open({ threadId: "t", files: new IndexedDbThreadFileStore(files) });
}

describe("sniffImageType", () => {
  it("knows PNG, JPEG, GIF and WebP by their first bytes", () => {
    expect(sniffImageType(PNG)).toBe("image/png");
    expect(sniffImageType(JPEG)).toBe("image/jpeg");
    expect(sniffImageType(GIF)).toBe("image/gif");
    expect(sniffImageType(WEBP)).toBe("image/webp");
    expect(sniffImageType(new TextEncoder().encode("not an image"))).toBeUndefined();
    expect(sniffImageType(new Uint8Array([0x89, 0x50]))).toBeUndefined();
  });
});

describe("viewableImagePath", () => {
  it("accepts images in the thread's folders, normalized, with the type their extension promises", () => {
    expect(viewableImagePath("/mnt/user-data/uploads/Photo.JPG")).toEqual({
      path: "/mnt/user-data/uploads/Photo.JPG",
      mimeType: "image/jpeg",
    });
    expect(viewableImagePath(`${W}//charts/a.webp`)).toEqual({ path: `${W}/charts/a.webp`, mimeType: "image/webp" });
  });

  it("refuses other places, escapes and other file types", () => {
    expect(viewableImagePath("/mnt/skills/public/x/logo.png")).toEqual({
      error: expect.stringMatching(/^Error: Only images under \/mnt\/user-data\/workspace, .* can be viewed/),
    });
    expect(viewableImagePath(`${W}/../../etc/a.png`)).toEqual({ error: expect.stringMatching(/^Error: Refused path/) });
    expect(viewableImagePath(`${W}/drawing.bmp`)).toEqual({
      error: `Error: ${W}/drawing.bmp is not an image view_image can read; use a jpg, jpeg, png, webp, gif file.`,
    });
    expect(viewableImagePath(`${W}/noextension`)).toHaveProperty("error");
  });
});

describe("inspectImage", () => {
  it("records the type and size of a good image", async () => {
    const sandbox = await openSandbox();
    await sandbox.writeFile(`${W}/chart.png`, PNG);
    expect(await inspectImage(sandbox, `${W}/chart.png`)).toEqual({
      path: `${W}/chart.png`,
      image: { mime_type: "image/png", size: PNG.length },
    });
  });

  it("says when the file is missing, is not an image, or is another type than its name says", async () => {
    const sandbox = await openSandbox();
    expect(await inspectImage(sandbox, `${W}/none.png`)).toEqual({ error: `Error: No such image: ${W}/none.png` });
    await sandbox.writeFile(`${W}/notes.png`, "just text");
    expect(await inspectImage(sandbox, `${W}/notes.png`)).toEqual({
      error: `Error: ${W}/notes.png is not a valid image: its contents are not JPEG, PNG, WebP or GIF.`,
    });
    await sandbox.writeFile(`${W}/photo.jpg`, PNG);
    expect(await inspectImage(sandbox, `${W}/photo.jpg`)).toEqual({
      error: `Error: ${W}/photo.jpg is named as JPEG but its contents are PNG; rename it to match.`,
    });
  });

  it("refuses images over 20 MiB before reading them", async () => {
    let read = false;
    const big = {
      stat: async (path: string) => ({ path, name: "big.png", type: "file", size: VIEW_IMAGE_MAX_BYTES + 1, mtime: 0 }),
      readFile: async () => {
        read = true;
        return PNG;
      },
    } as unknown as Sandbox;
    expect(await inspectImage(big, `${W}/big.png`)).toEqual({
      error: `Error: ${W}/big.png is too large to view (20.0 MiB; the limit is 20.0 MiB).`,
    });
    expect(read).toBe(false);
  });
});

describe("mergeViewedImages and toBase64", () => {
  it("merges per path, and an empty update clears", () => {
    const a = { "/a.png": { mime_type: "image/png", size: 1 } };
    const b = { "/b.gif": { mime_type: "image/gif", size: 2 } };
    expect(mergeViewedImages(a, b)).toEqual({ ...a, ...b });
    expect(mergeViewedImages(a, undefined)).toEqual(a);
    expect(mergeViewedImages({ ...a, ...b }, {})).toEqual({});
  });

  it("encodes like Node's Buffer, also past one slice", () => {
    const bytes = Uint8Array.from({ length: 70_000 }, (_, i) => (i * 31) % 256);
    expect(toBase64(bytes)).toBe(Buffer.from(bytes).toString("base64"));
  });
});

describe("view_image tool", () => {
  it("records the image in state and answers with a short confirmation, or an error result", async () => {
    const sandbox = await openSandbox();
    await sandbox.writeFile(`${W}/shot.gif`, GIF);
    const viewImage = viewImageTool(async () => sandbox);
    // As the agent's ToolNode calls it: the call's id in the config.
    const call = (id: string, image_path: string) =>
      viewImage.invoke({ id, name: "view_image", args: { image_path }, type: "tool_call" }, {
        toolCallId: id,
      } as object);
    type Update = { viewed_images?: unknown; messages: ToolMessage[] };
    const updateOf = (result: unknown): Update => {
      expect(result).toBeInstanceOf(Command);
      return (result as Command).update as Update;
    };
    const update = updateOf(await call("v1", `${W}/shot.gif`));
    expect(update.viewed_images).toEqual({ [`${W}/shot.gif`]: { mime_type: "image/gif", size: GIF.length } });
    expect(update.messages[0]).toMatchObject({ content: `Image loaded: ${W}/shot.gif`, tool_call_id: "v1" });
    const failed = updateOf(await call("v2", `${W}/x.png`));
    expect(failed.viewed_images).toBeUndefined();
    expect(failed.messages[0]).toMatchObject({ content: `Error: No such image: ${W}/x.png`, status: "error" });
  });
});

describe("viewImageMiddleware", () => {
  it("shows the model the image on its next call only, without storing the image message", async () => {
    const sandbox = await openSandbox();
    await sandbox.writeFile(`${W}/plot.png`, PNG);
    const echo = tool(async () => "echoed", { name: "echo", description: "Echo.", schema: z.object({}) });
    const model = fakeModel()
      .respondWithTools([{ name: "view_image", args: { image_path: `${W}/plot.png` }, id: "v1" }])
      .respondWithTools([{ name: "echo", args: {}, id: "e1" }])
      .respond(new AIMessage("The plot rises."));
    const agent = createAgent({ model, tools: [echo], middleware: [viewImageMiddleware(async () => sandbox)] });
    const result = await agent.invoke({ messages: [new HumanMessage("look at the plot")] });

    const hidden = (messages: BaseMessage[]) => messages.filter(isHiddenMessage);
    expect(hidden(model.calls[0]!.messages)).toHaveLength(0);
    const shown = hidden(model.calls[1]!.messages);
    expect(shown).toHaveLength(1);
    expect(model.calls[1]!.messages.at(-1)).toBe(shown[0]);
    expect(shown[0]!.content).toEqual([
      { type: "text", text: "The images you opened with view_image:" },
      { type: "text", text: `${W}/plot.png (image/png)` },
      { type: "image_url", image_url: { url: `data:image/png;base64,${Buffer.from(PNG).toString("base64")}` } },
    ]);
    expect(hidden(model.calls[2]!.messages)).toHaveLength(0);

    expect(hidden(result.messages)).toHaveLength(0);
    expect(result.viewed_images).toEqual({ [`${W}/plot.png`]: { mime_type: "image/png", size: PNG.length } });
    expect(result.messages.at(-1)?.text).toBe("The plot rises.");
  });

  it("shows nothing for a view_image call that failed", async () => {
    const sandbox = await openSandbox();
    const model = fakeModel()
      .respondWithTools([{ name: "view_image", args: { image_path: `${W}/missing.png` }, id: "v1" }])
      .respond(new AIMessage("I could not find it."));
    const agent = createAgent({ model, tools: [], middleware: [viewImageMiddleware(async () => sandbox)] });
    const result = await agent.invoke({ messages: [new HumanMessage("look")] });
    expect(model.calls[1]!.messages.at(-1)).toBeInstanceOf(ToolMessage);
    expect(result.viewed_images).toBeUndefined();
  });
});
