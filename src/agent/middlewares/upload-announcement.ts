// Uploads: the files attached to the user's newest message are announced to the model once, in an
// `<uploaded_files>` block at the start of that message, which is kept in the thread so later turns still see it.
// The UI shows the files as chips instead (the block is taken out again for display, see wire-messages.ts).
import { HumanMessage, type BaseMessage } from "@langchain/core/messages";
import { createMiddleware } from "langchain";
import type { UploadedFileRef } from "../../protocol/index.ts";
import { formatBytes } from "../../shared/text.ts";

/** Set on a human message once its files are announced, so they never are twice. */
export const UPLOADS_ANNOUNCED = "fawn_uploads_announced";

const BLOCK = /^<uploaded_files>[\s\S]*?<\/uploaded_files>\n*/;

/** The files attached to a human message (kept in `additional_kwargs.files`, as DeerFlow does). */
export function uploadedFilesOf(message: BaseMessage): UploadedFileRef[] | undefined {
  const files = message.additional_kwargs?.files;
  if (!Array.isArray(files) || files.length === 0) return undefined;
  return files.flatMap((file: unknown) => {
    if (typeof file !== "object" || file === null) return [];
    const { filename, size, virtual_path, markdown_virtual_path } = file as Record<string, unknown>;
    if (typeof filename !== "string" || typeof virtual_path !== "string") return [];
    return [
      {
        filename,
        size: typeof size === "number" ? size : 0,
        virtual_path,
        ...(typeof markdown_virtual_path === "string" && { markdown_virtual_path }),
      },
    ];
  });
}

export function uploadedFilesBlock(files: readonly UploadedFileRef[]): string {
  const lines = files.map((file) => {
    const markdown = file.markdown_virtual_path ? `; as Markdown: ${file.markdown_virtual_path}` : "";
    return `- ${file.filename} (${formatBytes(file.size)}): ${file.virtual_path}${markdown}`;
  });
  return [
    "<uploaded_files>",
    "The user attached these files to this message:",
    ...lines,
    "Read them with read_file (the Markdown version of a document is easier to read); do not change them.",
    "</uploaded_files>",
  ].join("\n");
}

/** The message text without the block, as the user wrote it. */
export function withoutUploadsBlock(text: string): string {
  return text.replace(BLOCK, "");
}

/** The newest human message with its files announced, or undefined when there is nothing to announce. */
export function announceUploads(messages: readonly BaseMessage[]): HumanMessage | undefined {
  const last = messages.findLast((message) => HumanMessage.isInstance(message));
  if (!last || last.additional_kwargs?.[UPLOADS_ANNOUNCED]) return undefined;
  const files = uploadedFilesOf(last);
  if (!files || typeof last.content !== "string") return undefined;
  return new HumanMessage({
    id: last.id,
    content: `${uploadedFilesBlock(files)}\n\n${last.content}`,
    additional_kwargs: { ...last.additional_kwargs, [UPLOADS_ANNOUNCED]: true },
  });
}

export const uploadsMiddleware = createMiddleware({
  name: "UploadsMiddleware",
  beforeAgent: (state) => {
    const announced = announceUploads(state.messages);
    return announced ? { messages: [announced] } : undefined;
  },
});
