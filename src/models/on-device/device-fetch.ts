// The fetch an on-device endpoint's OpenAI client sends with: `POST …/chat/completions` is answered by the device
// engine in this worker, as an OpenAI-compatible endpoint would (server-sent events when streaming), so streaming,
// tool calls, usage, Stop and errors take the same path as a remote model's. Nothing leaves the browser.
import { isUserFacing } from "../../shared/user-error.ts";
import type { DeviceChatRequest, DeviceEngine, DeviceProgress } from "./device-engine.ts";

const encoder = new TextEncoder();

function jsonResponse(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });
}

function errorResponse(error: unknown): Response {
  const message = isUserFacing(error) || error instanceof Error ? error.message : String(error);
  return jsonResponse(isUserFacing(error) ? 400 : 500, { error: { message, type: "on_device_error" } });
}

/** One streamed completion's chunks folded into a whole completion (for a request without `stream`). */
function folded(chunks: Record<string, unknown>[]): Record<string, unknown> {
  let content = "";
  let finish: unknown = "stop";
  let usage: unknown;
  const calls: { id?: string; type: "function"; function: { name: string; arguments: string } }[] = [];
  for (const chunk of chunks) {
    if (chunk.usage) usage = chunk.usage;
    const choice = (chunk.choices as Record<string, unknown>[] | undefined)?.[0];
    if (!choice) continue;
    if (choice.finish_reason) finish = choice.finish_reason;
    const delta = (choice.delta ?? {}) as {
      content?: string | null;
      tool_calls?: { index: number; id?: string; function?: { name?: string; arguments?: string } }[];
    };
    content += delta.content ?? "";
    for (const call of delta.tool_calls ?? []) {
      const slot = (calls[call.index] ??= { type: "function", function: { name: "", arguments: "" } });
      if (call.id) slot.id = call.id;
      slot.function.name += call.function?.name ?? "";
      slot.function.arguments += call.function?.arguments ?? "";
    }
  }
  const message = { role: "assistant", content: content || null, ...(calls.length > 0 && { tool_calls: calls }) };
  return {
    object: "chat.completion",
    created: Math.floor(Date.now() / 1000),
    choices: [{ index: 0, message, finish_reason: finish }],
    ...(usage !== undefined && { usage }),
  };
}

/** The engine's chunks, each with the completion's id and model. */
async function* withId(
  chunks: AsyncGenerator<Record<string, unknown>>,
  id: string,
  model: string,
): AsyncGenerator<Record<string, unknown>> {
  for await (const chunk of chunks) yield { ...chunk, id, model, object: "chat.completion.chunk" };
}

/**
 * A fetch for the endpoint whose models are device model files; `contextWindow` gives each model's (from its entry in
 * Settings → Models). `onProgress` hears what each request waits for before its reply's first word.
 */
export function deviceFetch(
  engine: DeviceEngine,
  contextWindow: (model: string) => number,
  onProgress?: DeviceProgress,
): typeof fetch {
  return async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const method = (init?.method ?? (input instanceof Request ? input.method : "GET")).toUpperCase();
    if (method !== "POST" || !url.pathname.endsWith("/chat/completions")) {
      return jsonResponse(404, { error: { message: `An on-device model answers chat completions only.` } });
    }
    let request: DeviceChatRequest & { model?: string; stream?: boolean };
    try {
      request = JSON.parse(typeof init?.body === "string" ? init.body : await new Response(init?.body).text());
    } catch {
      return jsonResponse(400, { error: { message: "The request is not JSON." } });
    }
    const model = String(request.model ?? "");
    const signal = init?.signal ?? undefined;
    // wllama's chunks carry an empty id; LangChain names the reply's message by it, and LangGraph's reducer replaces a
    // message of the same id: every completion gets its own.
    const id = `chatcmpl-device-${crypto.randomUUID()}`;
    const chunks = withId(engine.chat(model, contextWindow(model), request, signal, onProgress), id, model);
    if (!request.stream) {
      try {
        const all: Record<string, unknown>[] = [];
        for await (const chunk of chunks) all.push(chunk);
        return jsonResponse(200, { id, model, ...folded(all) });
      } catch (error) {
        return errorResponse(error);
      }
    }
    // The first chunk decides between an error answer and a stream (a load failure is an HTTP error, as elsewhere).
    let first: IteratorResult<Record<string, unknown>>;
    try {
      first = await chunks.next();
    } catch (error) {
      return errorResponse(error);
    }
    let pending: IteratorResult<Record<string, unknown>> | undefined = first;
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        try {
          const next = pending ?? (await chunks.next());
          pending = undefined;
          if (next.done) {
            controller.enqueue(encoder.encode("data: [DONE]\n\n"));
            controller.close();
            return;
          }
          controller.enqueue(encoder.encode(`data: ${JSON.stringify(next.value)}\n\n`));
        } catch (error) {
          controller.error(error);
        }
      },
      async cancel() {
        await chunks.return(undefined);
      },
    });
    return new Response(body, { status: 200, headers: { "content-type": "text/event-stream" } });
  };
}
