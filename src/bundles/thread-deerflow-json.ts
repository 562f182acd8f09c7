// A Fawn thread as DeerFlow's thread.json (the thread state its Gateway answers), the shape planDeerFlowImport reads.
import type { MessageContent, ThreadDetail, WireMessage } from "../protocol/index.ts";

/** LangChain's message dump: the fields every serialized message carries, whatever its type. */
function dumpBase(type: string, id: string, content: MessageContent, kwargs: Record<string, unknown> = {}) {
  // Copies, so the caller's messages never share objects with the JSON handed back.
  return { content: structuredClone(content), additional_kwargs: kwargs, response_metadata: {}, type, name: null, id };
}

function dumpMessage(message: WireMessage): Record<string, unknown> {
  switch (message.type) {
    case "human": {
      // DeerFlow's composer sends the attached files as `additional_kwargs.files`; `path` is the virtual path.
      const files = message.files?.map((file) => ({
        filename: file.filename,
        size: file.size,
        path: file.virtual_path,
        ...(file.markdown_virtual_path !== undefined && { markdown_virtual_path: file.markdown_virtual_path }),
      }));
      return dumpBase("human", message.id, message.content, files ? { files } : {});
    }
    case "system":
      return dumpBase("system", message.id, message.content);
    case "ai":
      return {
        ...dumpBase(
          "ai",
          message.id,
          message.content,
          message.reasoning ? { reasoning_content: message.reasoning } : {},
        ),
        response_metadata: structuredClone(message.response_metadata ?? {}),
        tool_calls: (message.tool_calls ?? []).map((call) => ({
          name: call.name,
          args: structuredClone(call.args),
          id: call.id,
          type: "tool_call",
        })),
        invalid_tool_calls: [],
        usage_metadata: message.usage_metadata ? { ...message.usage_metadata } : null,
      };
    case "tool":
      return {
        ...dumpBase("tool", message.id, message.content),
        name: message.name ?? null,
        tool_call_id: message.tool_call_id,
        artifact: message.artifact === undefined ? null : structuredClone(message.artifact),
        // LangChain defaults a tool message to success; left out when Fawn never said, so it reads back the same.
        ...(message.status !== undefined && { status: message.status }),
      };
  }
}

/**
 * The thread as DeerFlow's thread.json: `{thread_id, created_at, values: {title, messages, artifacts, todos}}`,
 * messages as LangChain dumps them (reasoning in `additional_kwargs.reasoning_content`, attached files in
 * `additional_kwargs.files`). planDeerFlowImport reads it back into the same messages, ids, title, plan and
 * presented files (the files themselves travel beside it). Run errors are left out: they are not messages, and
 * DeerFlow's state has no place for them; so is a message's `stopped` mark.
 *
 * One known asymmetry: an assistant text that itself starts with `<think>…</think>` reads back with that part as
 * reasoning, as DeerFlow shows it.
 */
export function threadToDeerFlowJson(detail: ThreadDetail): unknown {
  const messages = detail.entries.flatMap((entry) => (entry.kind === "message" ? [dumpMessage(entry.message)] : []));
  return {
    thread_id: detail.thread_id,
    created_at: new Date(detail.created_at).toISOString(),
    values: {
      title: detail.title,
      messages,
      artifacts: [...(detail.artifacts ?? [])],
      todos: (detail.todos ?? []).map(({ content, status }) => ({ content, status })),
    },
  };
}
