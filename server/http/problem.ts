// Every refusal the server's own middleware writes: JSON `{detail}`, one sentence, as LangGraph's API and DeerFlow's
// Gateway answer errors.

/** A JSON `{ detail }` answer with `status`. */
export function problem(status: number, detail: string, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify({ detail }), {
    status,
    headers: { "content-type": "application/json", ...headers },
  });
}
