// DeerFlow's view_image, for vision models: the tool checks an image in the thread's folders and records it in
// `viewed_images`; right before the next model call the middleware shows the model the images viewed since its
// last call, as a hidden message with base64 data URLs added to that request only (never to the thread's state).
import { AIMessage, ToolMessage, type BaseMessage, type HumanMessage } from "@langchain/core/messages";
import { Command, ReducedValue, StateSchema } from "@langchain/langgraph";
import { createMiddleware, tool, type ToolRuntime } from "langchain";
import { z } from "zod";
import { isThreadDataPath, resolveSandboxPath, USER_DATA_DIRS, type Sandbox } from "../../sandbox/sandbox.ts";
import { hiddenMessage } from "../hidden-messages.ts";
import { toBase64 } from "../../shared/base64.ts";

export const VIEW_IMAGE_TOOL_NAME = "view_image";
export const VIEW_IMAGE_MAX_BYTES = 20 * 1024 * 1024;

/** The image types view_image reads, by extension. */
export const IMAGE_MIME_TYPES = {
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  png: "image/png",
  webp: "image/webp",
  gif: "image/gif",
} as const;

export type ImageMimeType = (typeof IMAGE_MIME_TYPES)[keyof typeof IMAGE_MIME_TYPES];

export interface ViewedImage {
  mime_type: string;
  size: number;
}

export type ViewedImages = Record<string, ViewedImage>;

/** DeerFlow's reducer: later records win per path; an empty object clears them all. */
export function mergeViewedImages(current: ViewedImages | undefined, next: ViewedImages | undefined): ViewedImages {
  if (next === undefined) return current ?? {};
  if (Object.keys(next).length === 0) return {};
  return { ...current, ...next };
}

const startsWith = (bytes: Uint8Array, signature: readonly number[], offset = 0) =>
  bytes.length >= offset + signature.length && signature.every((byte, i) => bytes[offset + i] === byte);
const ascii = (text: string) => [...text].map((char) => char.charCodeAt(0));

/** The image type the bytes' signature says, or undefined when they are none of JPEG, PNG, WebP and GIF. */
export function sniffImageType(bytes: Uint8Array): ImageMimeType | undefined {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "image/png";
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return "image/jpeg";
  if (startsWith(bytes, ascii("GIF87a")) || startsWith(bytes, ascii("GIF89a"))) return "image/gif";
  if (startsWith(bytes, ascii("RIFF")) && startsWith(bytes, ascii("WEBP"), 8)) return "image/webp";
  return undefined;
}

const TYPE_NAMES: Record<ImageMimeType, string> = {
  "image/jpeg": "JPEG",
  "image/png": "PNG",
  "image/webp": "WebP",
  "image/gif": "GIF",
};

const EXTENSIONS = Object.keys(IMAGE_MIME_TYPES).join(", ");

/** The normalized path of a viewable image and the type its extension promises, or the error for the model. */
export function viewableImagePath(path: string): { path: string; mimeType: ImageMimeType } | { error: string } {
  let resolved: string;
  try {
    resolved = resolveSandboxPath(path, "read");
  } catch (error) {
    return { error: `Error: ${error instanceof Error ? error.message : String(error)}` };
  }
  if (!isThreadDataPath(resolved)) {
    return { error: `Error: Only images under ${USER_DATA_DIRS.join(", ")} can be viewed: ${path}` };
  }
  const name = resolved.slice(resolved.lastIndexOf("/") + 1);
  const extension = name.includes(".") ? name.slice(name.lastIndexOf(".") + 1).toLowerCase() : "";
  const mimeType = IMAGE_MIME_TYPES[extension as keyof typeof IMAGE_MIME_TYPES];
  if (mimeType === undefined) {
    return { error: `Error: ${path} is not an image view_image can read; use a ${EXTENSIONS} file.` };
  }
  return { path: resolved, mimeType };
}

function megabytes(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
}

/** Checks the image at `path` and returns what to record, or the error for the model. */
export async function inspectImage(
  sandbox: Sandbox,
  path: string,
): Promise<{ path: string; image: ViewedImage } | { error: string }> {
  const checked = viewableImagePath(path);
  if ("error" in checked) return checked;
  const entry = await sandbox.stat(checked.path);
  if (entry?.type !== "file") return { error: `Error: No such image: ${checked.path}` };
  const limit = `the limit is ${megabytes(VIEW_IMAGE_MAX_BYTES)}`;
  if (entry.size > VIEW_IMAGE_MAX_BYTES) {
    return { error: `Error: ${checked.path} is too large to view (${megabytes(entry.size)}; ${limit}).` };
  }
  const bytes = await sandbox.readFile(checked.path);
  if (bytes.length > VIEW_IMAGE_MAX_BYTES) {
    return { error: `Error: ${checked.path} is too large to view (${megabytes(bytes.length)}; ${limit}).` };
  }
  const actual = sniffImageType(bytes);
  if (actual === undefined) {
    return { error: `Error: ${checked.path} is not a valid image: its contents are not JPEG, PNG, WebP or GIF.` };
  }
  if (actual !== checked.mimeType) {
    return {
      error: `Error: ${checked.path} is named as ${TYPE_NAMES[checked.mimeType]} but its contents are ${TYPE_NAMES[actual]}; rename it to match.`,
    };
  }
  return { path: checked.path, image: { mime_type: actual, size: bytes.length } };
}

/** The images whose view_image calls answered since the model's last message, as [path, record] pairs. */
export function imagesViewedSinceLastModelCall(
  messages: readonly BaseMessage[],
  viewed: ViewedImages | undefined,
): [string, ViewedImage][] {
  const lastAi = messages.findLastIndex((message) => AIMessage.isInstance(message));
  const ai = messages[lastAi];
  if (ai === undefined || !AIMessage.isInstance(ai)) return [];
  const succeeded = new Set(
    messages
      .slice(lastAi + 1)
      .filter(ToolMessage.isInstance)
      .filter((message) => message.name === VIEW_IMAGE_TOOL_NAME && message.status !== "error")
      .map((message) => message.tool_call_id),
  );
  const images = new Map<string, ViewedImage>();
  for (const call of ai.tool_calls ?? []) {
    if (call.name !== VIEW_IMAGE_TOOL_NAME || call.id === undefined || !succeeded.has(call.id)) continue;
    const checked = viewableImagePath(String((call.args as { image_path?: unknown }).image_path ?? ""));
    if ("error" in checked) continue;
    const record = viewed?.[checked.path];
    if (record !== undefined) images.set(checked.path, record);
  }
  return [...images];
}

/** The hidden message that shows the model its images; a file that can no longer be read is named instead. */
export async function imageMessage(sandbox: Sandbox, images: readonly [string, ViewedImage][]): Promise<HumanMessage> {
  const content: ({ type: "text"; text: string } | { type: "image_url"; image_url: { url: string } })[] = [
    { type: "text", text: "The images you opened with view_image:" },
  ];
  for (const [path, image] of images) {
    try {
      const bytes = await sandbox.readFile(path);
      content.push({ type: "text", text: `${path} (${image.mime_type})` });
      content.push({ type: "image_url", image_url: { url: `data:${image.mime_type};base64,${toBase64(bytes)}` } });
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      content.push({ type: "text", text: `${path} could not be loaded again: ${reason}` });
    }
  }
  return hiddenMessage(content);
}

const viewedImageSchema = z.record(z.string(), z.object({ mime_type: z.string(), size: z.number() }));

const viewImageState = new StateSchema({
  // Optional rather than defaulted: createAgent refuses to start while a required field is missing from the input.
  viewed_images: new ReducedValue(viewedImageSchema.optional(), {
    inputSchema: viewedImageSchema.optional(),
    reducer: mergeViewedImages,
  }),
});

/** The view_image tool alone; the middleware adds it for you. */
export function viewImageTool(getSandbox: () => Promise<Sandbox>) {
  return tool(
    async ({ image_path }, runtime: ToolRuntime) => {
      const reply = (content: string, viewed?: ViewedImages) =>
        new Command({
          update: {
            ...(viewed && { viewed_images: viewed }),
            messages: [
              new ToolMessage({
                content,
                tool_call_id: runtime.toolCallId,
                name: VIEW_IMAGE_TOOL_NAME,
                ...(viewed === undefined && { status: "error" as const }),
              }),
            ],
          },
        });
      try {
        const result = await inspectImage(await getSandbox(), image_path);
        if ("error" in result) return reply(result.error);
        return reply(`Image loaded: ${result.path}`, { [result.path]: result.image });
      } catch (error) {
        return reply(`Error: ${error instanceof Error ? error.message : String(error)}`);
      }
    },
    {
      name: VIEW_IMAGE_TOOL_NAME,
      description:
        "Look at an image file: a chart you drew, a screenshot, a photo the user uploaded. The image is shown " +
        `to you right after this call. Reads ${EXTENSIONS} files up to 20 MiB under /mnt/user-data ` +
        "(workspace, uploads or outputs).",
      schema: z.object({
        image_path: z.string().describe("Absolute path of the image, e.g. /mnt/user-data/uploads/photo.png."),
      }),
    },
  );
}

/**
 * Adds `viewed_images` to the agent's state and the view_image tool, and shows the model the images it viewed
 * before its next call. Register it only for models that accept images.
 */
export function viewImageMiddleware(getSandbox: () => Promise<Sandbox>) {
  return createMiddleware({
    name: "ViewImageMiddleware",
    stateSchema: viewImageState,
    tools: [viewImageTool(getSandbox)],
    wrapModelCall: async (request, handler) => {
      const images = imagesViewedSinceLastModelCall(request.messages, request.state.viewed_images);
      if (images.length === 0) return handler(request);
      const message = await imageMessage(await getSandbox(), images);
      return handler({ ...request, messages: [...request.messages, message] });
    },
  });
}
