// fast-check arbitraries for test/server/fuzz-requests.test.ts: requests to Fawn's server built from its own route
// table (LangGraph's API under /api and /api/langgraph, DeerFlow's REST routes, /api/fawn/…, /admin), each with
// something wrong or odd: bad JSON, wrong types, a valid body with one field swapped for junk, huge or deeply nested
// bodies, odd and unicode path segments, junk queries, missing or wrong auth, the wrong method or content type.
import fc from "fast-check";

/** Ids the test's seeded user really has, so a request can hit real records as well as missing ones. */
export interface KnownIds {
  thread_id: string;
  run_id: string;
  checkpoint_id: string;
  filename: string;
  fact_id: string;
}

const KNOWN = ["thread_id", "run_id", "checkpoint_id", "filename", "fact_id"] as const satisfies (keyof KnownIds)[];

/** Where a known id goes in a generated request; `withIds` puts the current ones in when it is sent. */
const placeholder = (name: string) => `__${name}__`;

/** The request with the seeded user's current ids in place of their placeholders. */
export function withIds(request: FuzzRequest, known: KnownIds): FuzzRequest {
  const fill = (text: string) =>
    text.replace(/__([a-z_]+)__/g, (all, name: string) => known[name as keyof KnownIds] ?? all);
  return { ...request, path: fill(request.path), ...(request.body !== undefined && { body: fill(request.body) }) };
}

/** One generated request, plain data (its description names it in the reliability report). */
export interface FuzzRequest {
  method: string;
  /** Path and query, already encoded. */
  path: string;
  headers: Record<string, string>;
  body?: string;
  /** Files sent as multipart form data instead of `body` (uploads and imports): field name, file name, bytes. */
  form?: { field: string; name: string; bytes: Uint8Array }[];
  /** What is odd about it, short: "bad JSON, no token". */
  what: string;
}

type Template = readonly [method: string, path: string, body?: unknown];

const HUMAN = { messages: [{ type: "human", content: "hello" }] };

/** LangGraph's routes (relative to /api or /api/langgraph) with a valid body where they take one. */
const LANGGRAPH: Template[] = [
  ["POST", "/threads", { metadata: { topic: "fuzz" } }],
  ["POST", "/threads/search", { limit: 5, metadata: { topic: "fuzz" } }],
  ["POST", "/threads/count", { metadata: {} }],
  ["GET", "/threads/:thread_id"],
  ["PATCH", "/threads/:thread_id", { metadata: { topic: "fuzz" } }],
  ["DELETE", "/threads/:thread_id"],
  ["POST", "/threads/:thread_id/copy"],
  ["GET", "/threads/:thread_id/state"],
  ["POST", "/threads/:thread_id/state", { values: { messages: [{ type: "ai", content: "x" }] }, as_node: "model" }],
  ["POST", "/threads/:thread_id/state/checkpoint", { checkpoint: { checkpoint_id: ":checkpoint_id" } }],
  ["GET", "/threads/:thread_id/state/:checkpoint_id"],
  ["POST", "/threads/:thread_id/history", { limit: 2 }],
  ["GET", "/threads/:thread_id/history"],
  ["POST", "/threads/:thread_id/runs", { assistant_id: "lead_agent", input: HUMAN }],
  ["POST", "/threads/:thread_id/runs/stream", { assistant_id: "lead_agent", input: HUMAN, stream_mode: ["values"] }],
  ["POST", "/threads/:thread_id/runs/wait", { assistant_id: "lead_agent", input: HUMAN }],
  ["POST", "/runs/wait", { assistant_id: "lead_agent", input: HUMAN }],
  ["POST", "/runs/stream", { assistant_id: "lead_agent", input: HUMAN }],
  ["GET", "/threads/:thread_id/runs"],
  ["GET", "/threads/:thread_id/runs/:run_id"],
  ["DELETE", "/threads/:thread_id/runs/:run_id"],
  ["GET", "/threads/:thread_id/runs/:run_id/join"],
  ["GET", "/threads/:thread_id/runs/:run_id/stream"],
  ["GET", "/runs/:run_id/stream"],
  ["POST", "/threads/:thread_id/runs/:run_id/cancel"],
  ["POST", "/assistants/search", { limit: 3 }],
  ["POST", "/assistants/count", {}],
  ["GET", "/assistants/:assistant_id"],
  ["GET", "/assistants/:assistant_id/graph"],
  ["GET", "/assistants/:assistant_id/schemas"],
  ["GET", "/assistants/:assistant_id/subgraphs"],
];

/** DeerFlow's and Fawn's own routes (under /api only). */
const GATEWAY: Template[] = [
  ["GET", "/models"],
  ["GET", "/models/:name"],
  ["GET", "/features"],
  ["GET", "/memory"],
  ["GET", "/memory/config"],
  ["POST", "/memory/facts", { content: "The user likes tea.", category: "preference" }],
  ["PATCH", "/memory/facts/:fact_id", { content: "The user likes coffee." }],
  ["DELETE", "/memory/facts/:fact_id"],
  ["POST", "/memory/import", { facts: [] }],
  ["GET", "/mcp/config"],
  ["PUT", "/mcp/config", { mcp_servers: { docs: { type: "http", url: "https://example.com/mcp", enabled: false } } }],
  ["PATCH", "/mcp/config", { server_name: "docs", enabled: true }],
  ["GET", "/skills"],
  ["GET", "/skills/:name"],
  ["PUT", "/skills/:name", { enabled: false }],
  ["POST", "/skills/install", { thread_id: ":thread_id", path: "/mnt/user-data/outputs/x.skill" }],
  ["DELETE", "/skills/custom/:name"],
  ["GET", "/agents"],
  ["GET", "/agents/check?name=:name"],
  ["POST", "/agents", { name: "fuzz-agent", description: "d", soul: "s" }],
  ["PUT", "/agents/:name", { description: "d" }],
  ["DELETE", "/agents/:name"],
  ["GET", "/scheduled-tasks"],
  ["POST", "/scheduled-tasks", { name: "n", prompt: "p", schedule: { kind: "interval", minutes: 60 } }],
  ["GET", "/scheduled-tasks/:fact_id"],
  ["DELETE", "/scheduled-tasks/:fact_id"],
  ["GET", "/threads/:thread_id/uploads/list"],
  ["GET", "/threads/:thread_id/uploads/limits"],
  ["DELETE", "/threads/:thread_id/uploads/:filename"],
  ["POST", "/threads/:thread_id/uploads"],
  ["GET", "/threads/:thread_id/artifacts/:path"],
  ["PUT", "/threads/:thread_id/artifacts/:path", { content: "edited" }],
  ["POST", "/threads/:thread_id/suggestions", { messages: [{ role: "user", content: "hi" }], n: 3 }],
  ["GET", "/threads/:thread_id/messages/page?limit=5"],
  ["GET", "/threads/:thread_id/token-usage"],
  ["POST", "/threads/:thread_id/approvals/:fact_id", { decision: "deny" }],
  ["PUT", "/threads/:thread_id/memory", { enabled: false }],
  ["GET", "/threads/:thread_id/runs/:run_id/feedback"],
  ["PUT", "/threads/:thread_id/runs/:run_id/feedback", { rating: 1 }],
  ["GET", "/data/export"],
  ["POST", "/data/import"],
  ["GET", "/fawn/threads"],
  ["POST", "/fawn/threads/search", { query: "hello" }],
  ["GET", "/fawn/threads/:thread_id"],
  ["PATCH", "/fawn/threads/:thread_id", { title: "Renamed" }],
  ["GET", "/fawn/threads/:thread_id/files"],
  ["GET", "/fawn/threads/:thread_id/export?format=markdown"],
  ["POST", "/fawn/threads/:thread_id/continue"],
  ["POST", "/fawn/threads/:thread_id/versions", { run_id: ":run_id" }],
  ["GET", "/fawn/threads/:thread_id/context"],
  ["GET", "/fawn/threads/:thread_id/share-link"],
  ["GET", "/fawn/threads/:thread_id/replay"],
  ["GET", "/fawn/threads/:thread_id/sandbox-log"],
  ["POST", "/fawn/threads/import"],
  ["POST", "/fawn/threads/import-deerflow", { thread_id: "x", values: { messages: [] } }],
];

const OTHER: Template[] = [
  ["GET", "/admin/users"],
  ["POST", "/admin/users", { name: "fuzz-person" }],
  ["GET", "/ok"],
  ["GET", "/info"],
  ["GET", "/nothing/here"],
];

/** Every route as [method, full path template, body]. */
export const ROUTES: Template[] = [
  ...LANGGRAPH.flatMap(([method, path, body]) => [
    [method, `/api${path}`, body] as const,
    [method, `/api/langgraph${path}`, body] as const,
  ]),
  ...GATEWAY.map(([method, path, body]) => [method, `/api${path}`, body] as const),
  ...OTHER,
];

const ODD_SEGMENTS = [
  "..",
  "%2e%2e",
  "..%2F..%2Fetc%2Fpasswd",
  "%00",
  "%ZZ",
  "%",
  "%C0%AF",
  "%ED%A0%80",
  "%F0%9F%92%A5",
  " ",
  "null",
  "undefined",
  "-1",
  "0",
  "[object Object]",
  "a".repeat(3000),
  "🦌".repeat(50),
  "main.ts",
  "mnt/user-data/outputs/x.md",
  "lead_agent",
  "00000000-0000-0000-0000-000000000000",
];

/** A string encodeURIComponent takes (lone surrogates become U+FFFD). */
function encodable(text: string): string {
  return text.replace(/[\uD800-\uDFFF]/g, (unit, at: number, whole: string) => {
    const code = unit.charCodeAt(0);
    if (code < 0xdc00) {
      const next = whole.charCodeAt(at + 1);
      if (next >= 0xdc00 && next <= 0xdfff) return unit;
    } else {
      const previous = whole.charCodeAt(at - 1);
      if (previous >= 0xd800 && previous < 0xdc00) return unit;
    }
    return "\uFFFD";
  });
}

const randomText = fc.oneof(
  fc.string({ unit: "grapheme", maxLength: 30 }),
  fc.string({ unit: "binary", maxLength: 30 }),
  fc.string({ maxLength: 30 }),
);

/** A path segment in place of a parameter: a real id (often), or something odd, raw or encoded. */
function segment(known: Record<string, string>, name: string): fc.Arbitrary<[string, string]> {
  const real = known[name];
  return fc
    .oneof(
      {
        weight: 5,
        arbitrary: fc.constant(real ?? "x").map((value) => [encodeURIComponent(value), "a real id"] as const),
      },
      { weight: 2, arbitrary: fc.uuid().map((value) => [value, "an unknown id"] as const) },
      {
        weight: 2,
        arbitrary: fc.constantFrom(...ODD_SEGMENTS).map((value) => [value, `"${value.slice(0, 20)}"`] as const),
      },
      {
        weight: 2,
        arbitrary: randomText.map((value) => [encodeURIComponent(encodable(value)), "a random segment"] as const),
      },
    )
    .map(([value, what]) => [value, what]);
}

const junkQuery = fc.oneof(
  fc.constant(""),
  fc.constant(""),
  fc.constantFrom(
    "?limit=-1",
    "?limit=abc&offset=-5",
    "?limit=99999999999999999999",
    "?format=%00",
    "?format=zip",
    "?stream_mode=bogus",
    "?name=..%2F..",
    "?cancel_on_disconnect=maybe",
    "?%ZZ=1",
    "?a=1&a=2&a=3",
    "?subgraphs=1&checkpoint_ns=%F0%9F%92%A5",
  ),
  randomText.map((text) => `?q=${encodeURIComponent(encodable(text))}`),
);

/** Sets a random JSON path of `body` (a deep copy) to `value`, or deletes that key when value is undefined. */
function swapField(body: unknown, pick: number, value: unknown): unknown {
  const copy = JSON.parse(JSON.stringify(body)) as unknown;
  const slots: [Record<string, unknown> | unknown[], string | number][] = [];
  const walk = (node: unknown) => {
    if (Array.isArray(node)) {
      node.forEach((item, index) => {
        slots.push([node, index]);
        walk(item);
      });
    } else if (node && typeof node === "object") {
      for (const [key, item] of Object.entries(node)) {
        slots.push([node as Record<string, unknown>, key]);
        walk(item);
      }
    }
  };
  walk(copy);
  const slot = slots[pick % Math.max(1, slots.length)];
  if (!slot) return value;
  const [holder, key] = slot;
  if (value === undefined && !Array.isArray(holder)) delete holder[key as string];
  else (holder as Record<string | number, unknown>)[key] = value;
  return copy;
}

const junkValue = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  randomText,
  fc.constantFrom(null, true, 0, -1, 1e308, "", [], {}, "__proto__", "lead_agent", undefined),
);

const deep = (depth: number) => `${"[".repeat(depth)}${"]".repeat(depth)}`;

/** A body for the route's template, with what is odd about it. */
function bodyFor(template: unknown, maxBodyBytes: number): fc.Arbitrary<[string | undefined, string]> {
  const options: { weight: number; arbitrary: fc.Arbitrary<[string | undefined, string]> }[] = [
    { weight: 1, arbitrary: fc.constant([undefined, "no body"]) },
    { weight: 1, arbitrary: fc.constant(["", "an empty body"]) },
    {
      weight: 3,
      arbitrary: fc
        .oneof(
          fc.constantFrom("{", "[1,", '{"a":}', "nul", "\u0000", "\uFEFF{}", "{'a': 1}", '{"a": 1}}', "NaN", "--"),
          randomText.filter((text) => {
            try {
              JSON.parse(text);
              return false;
            } catch {
              return true;
            }
          }),
        )
        .map((text) => [text, "bad JSON"]),
    },
    { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 4 }).map((value) => [JSON.stringify(value), "random JSON"]) },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom(maxBodyBytes + 10, maxBodyBytes * 3)
        .map((size) => [JSON.stringify({ metadata: { filler: "x".repeat(size) } }), `a ${size}-byte body`]),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom(1_000, 50_000, 200_000).map((depth) => [deep(depth), `JSON nested ${depth} deep`]),
    },
  ];
  if (template !== undefined) {
    options.push(
      { weight: 3, arbitrary: fc.constant([JSON.stringify(template), "a valid body"]) },
      {
        weight: 6,
        arbitrary: fc
          .tuple(fc.nat(), junkValue)
          .map(([pick, value]) => [
            JSON.stringify(swapField(template, pick, value)),
            "a valid body with a field swapped",
          ]),
      },
    );
  }
  return fc.oneof(...options);
}

/** Routes that take files as multipart form data. */
const FILE_ROUTE = /\/(uploads|data\/import|threads\/import(-deerflow)?)$/;

const formFiles = fc.array(
  fc.record({
    field: fc.constantFrom("files", "file", "files", ""),
    name: fc.oneof(
      fc.constantFrom("notes.txt", "..", "../../etc/passwd", "a/b.md", ".hidden", "x.fawn", "backup.zip", "🦌.pdf", ""),
      randomText.map(encodable),
    ),
    bytes: fc.oneof(
      fc.uint8Array({ maxLength: 200 }),
      fc.constantFrom(
        new TextEncoder().encode("%PDF-1.4 broken"),
        new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0, 0, 0]),
        new TextEncoder().encode('{"version": 99, "threads": "no"}'),
      ),
    ),
  }),
  { minLength: 0, maxLength: 3 },
);

/** What the Authorization header says: the user's token mostly. */
function authFor(tokens: { user: string; admin: string }): fc.Arbitrary<[Record<string, string>, string]> {
  return fc
    .oneof(
      { weight: 12, arbitrary: fc.constant([{ authorization: `Bearer ${tokens.user}` }, "the user's token"] as const) },
      {
        weight: 2,
        arbitrary: fc.constant([{ authorization: `Bearer ${tokens.admin}` }, "the admin's token"] as const),
      },
      { weight: 1, arbitrary: fc.constant([{ "x-api-key": tokens.user }, "x-api-key"] as const) },
      { weight: 1, arbitrary: fc.constant([{}, "no token"] as const) },
      {
        weight: 2,
        arbitrary: fc
          .constantFrom(
            "Bearer",
            "Bearer ",
            `Bearer ${tokens.user}x`,
            `Basic ${tokens.user}`,
            "Bearer fawn_wrong",
            `bearer ${tokens.user.toUpperCase()}`,
            "Bearer \u00e9\u00e9",
          )
          .map((value) => [{ authorization: value }, "a wrong token"] as const),
      },
    )
    .map(([headers, what]) => [{ ...headers }, what]);
}

const CONTENT_TYPES = [
  "application/json",
  "application/json",
  "application/json; charset=utf-8",
  "text/plain",
  "multipart/form-data; boundary=nothing",
  "multipart/form-data",
  "application/x-www-form-urlencoded",
  "application/octet-stream",
  "",
];

const OTHER_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"];

/** Requests to Fawn's server: a route, its parameters, query, method, body, content type and auth, each maybe odd. */
export function fuzzRequest(tokens: { user: string; admin: string }, maxBodyBytes: number): fc.Arbitrary<FuzzRequest> {
  const ids: Record<string, string> = {
    ...Object.fromEntries(KNOWN.map((name) => [name, placeholder(name)])),
    name: "deep-research",
    assistant_id: "lead_agent",
    path: "mnt/user-data/outputs/notes.md",
  };
  return fc.constantFrom(...ROUTES).chain(([method, template, body]) => {
    const names = [...template.matchAll(/:([a-z_]+)/g)].map((match) => match[1]!);
    return fc
      .record({
        params: fc.tuple(...names.map((name) => segment(ids, name))),
        query: junkQuery,
        method: fc.oneof({ weight: 5, arbitrary: fc.constant(method) }, fc.constantFrom(...OTHER_METHODS)),
        body: bodyFor(
          body === undefined
            ? undefined
            : JSON.parse(
                JSON.stringify(body).replace(/":([a-z_]+)"/g, (_all, name: string) => `"${ids[name] ?? name}"`),
              ),
          maxBodyBytes,
        ),
        contentType: fc.constantFrom(...CONTENT_TYPES),
        auth: authFor(tokens),
        slash: fc.constantFrom("", "", "", "/", "//"),
        form: FILE_ROUTE.test(template) ? fc.option(formFiles, { freq: 2 }) : fc.constant(null),
      })
      .map(
        ({
          params,
          query,
          method: sent,
          body: [text, bodyWhat],
          contentType,
          auth: [headers, authWhat],
          slash,
          form,
        }) => {
          let at = 0;
          const path = template.replace(/:([a-z_]+)/g, () => params[at++]![0]);
          const whatParams = params.map(([, what]) => what).filter((what) => what !== "a real id");
          const canSend = sent !== "GET" && sent !== "HEAD";
          const hasBody = text !== undefined && canSend && !form;
          const joined = path.includes("?") ? path + query.replace(/^\?/, "&") : `${path}${slash}${query}`;
          return {
            method: sent,
            path: joined,
            headers: { ...headers, ...(contentType && hasBody && { "content-type": contentType }) },
            ...(hasBody && { body: text }),
            ...(form && canSend && { form }),
            what: [
              form && canSend ? `a form of ${form.length} file(s)` : hasBody ? bodyWhat : "no body",
              authWhat,
              ...whatParams,
            ].join(", "),
          };
        },
      );
  });
}
