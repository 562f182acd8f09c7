// The relay behind /forward/<url>: reads the target from the path, sends the request on (checking the target policy
// on every hop and every address it connects to), follows redirects itself, and streams the answer back within the
// proxy's time and size limits.
import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import { pipeline, Transform } from "node:stream";
import { MiB } from "./config.ts";
import {
  BODY_HEADERS,
  corsHeaders,
  CROSS_ORIGIN_HEADERS,
  forwardedRequestHeaders,
  forwardedResponseHeaders,
  mergeVary,
  withoutHeaders,
} from "./header-policy.ts";
import { errorBody, sendJson } from "./reply.ts";
import { targetPort, type ResolveHost, type TargetPolicy } from "./target-policy.ts";

export type TargetResult = { ok: true; url: URL } | { ok: false; message: string };

/** The target URL a /forward/ path names, or the sentence saying why it is not one. */
export function parseTarget(rawTarget: string): TargetResult {
  let raw = rawTarget;
  // Some URL joiners percent-encode the whole target or collapse its "//"; both are unambiguous to undo.
  if (/^https?%3a/i.test(raw)) {
    try {
      raw = decodeURIComponent(raw);
    } catch {
      return { ok: false, message: "The target URL is not valid percent-encoding." };
    }
  }
  raw = raw.replace(/^(https?):\/(?!\/)/i, "$1://");
  if (raw === "") return { ok: false, message: "Missing target URL: use /forward/https://host/path." };
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, message: "The target is not an absolute URL: use /forward/https://host/path." };
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    return { ok: false, message: `Only http and https targets are supported, not ${url.protocol}` };
  }
  if (url.username !== "" || url.password !== "") {
    return { ok: false, message: "Credentials in the target URL are not supported; send them as headers." };
  }
  return { ok: true, url };
}

/** Redirect statuses the proxy follows itself; other 3xx answers go to the client as they are. */
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/** A lookup that found a refused address: answered with its sentence (403), not as an unreachable host (502). */
class TargetRefused extends Error {}

/** The time and size limits a relay keeps to (ProxyOptions, with their defaults applied). */
export interface Limits {
  headersTimeoutMs: number;
  idleTimeoutMs: number;
  maxRequestBytes: number;
  maxResponseBytes: number;
  maxRedirects: number;
}

/** What one relay needs from the server that made it. */
export interface RelayContext {
  policy: TargetPolicy;
  limits: Limits;
  resolveHost: ResolveHost;
  httpAgent: http.Agent;
  httpsAgent: https.Agent;
  /** Adds a note to this request's log line. */
  note(text: string): void;
}

function formatBytes(bytes: number): string {
  if (bytes % MiB === 0) return `${bytes / MiB} MiB`;
  if (bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} bytes`;
}

function formatSeconds(ms: number): string {
  return `${ms / 1000} s`;
}

/** The URL a redirect's Location leads to, if the proxy may follow it (http or https, no credentials). */
function redirectTarget(location: string, from: URL): URL | undefined {
  try {
    const next = new URL(location, from);
    if (next.protocol !== "http:" && next.protocol !== "https:") return undefined;
    if (next.username !== "" || next.password !== "") return undefined;
    return next;
  } catch {
    return undefined;
  }
}

/**
 * One client request relayed upstream. It follows redirects itself, so every hop passes the target policy (before
 * connecting, and on the addresses DNS gives at connect time) and the client only ever sees the final answer.
 * The request body streams through; a copy is kept until the final response so a 307/308 can send it again.
 */
export class Relay {
  private current: http.ClientRequest | undefined;
  private currentUrl: URL;
  /** The upstream request the client's body is streaming into, if any. */
  private bodySink: http.ClientRequest | undefined;
  private bodyCopy: Buffer[] | undefined = [];
  private bodyBytes = 0;
  private bodyEnded = false;
  private redirects = 0;
  private failed = false;
  private headersTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly req: http.IncomingMessage,
    private readonly res: http.ServerResponse,
    private readonly origin: string | undefined,
    private readonly ctx: RelayContext,
    target: URL,
  ) {
    this.currentUrl = target;
  }

  start(): void {
    const { policy, limits } = this.ctx;
    const first = policy.check(this.currentUrl);
    if (!first.ok) {
      this.fail(403, first.message, " (target refused)");
      return;
    }
    if (Number(this.req.headers["content-length"]) > limits.maxRequestBytes) {
      this.refuseBody();
      return;
    }
    // The client hanging up (stop button, closed tab) must cancel the upstream generation too.
    this.res.once("close", () => {
      clearTimeout(this.headersTimer);
      if (!this.res.writableFinished) this.abortUpstream();
    });
    this.req.on("data", (chunk: Buffer) => this.onBodyChunk(chunk));
    this.req.on("end", () => {
      this.bodyEnded = true;
      this.bodySink?.end();
    });
    this.headersTimer = setTimeout(() => {
      const message =
        `${this.currentUrl.host} sent no response within ${formatSeconds(limits.headersTimeoutMs)}; ` +
        "to wait longer, raise FAWN_PROXY_HEADERS_TIMEOUT (seconds).";
      this.fail(504, message, " (upstream timeout)");
    }, limits.headersTimeoutMs);
    this.hop(this.currentUrl, this.req.method ?? "GET", forwardedRequestHeaders(this.req), true, undefined);
  }

  private onBodyChunk(chunk: Buffer): void {
    if (this.failed) return;
    this.bodyBytes += chunk.length;
    if (this.bodyBytes > this.ctx.limits.maxRequestBytes) {
      this.refuseBody();
      return;
    }
    this.bodyCopy?.push(chunk);
    const sink = this.bodySink;
    if (sink !== undefined && !sink.write(chunk)) {
      this.req.pause();
      sink.once("drain", () => this.req.resume());
    }
  }

  private refuseBody(): void {
    const size = formatBytes(this.ctx.limits.maxRequestBytes);
    const message = `The request body is larger than Fawn's proxy accepts (${size}); to send it, raise FAWN_PROXY_MAX_REQUEST_BYTES.`;
    this.fail(413, message, " (body too large)");
  }

  /** Sends one request upstream: `withBody` streams the client's body (what has arrived, then the rest) into it. */
  private hop(url: URL, method: string, headers: http.OutgoingHttpHeaders, withBody: boolean, from?: string): void {
    if (this.failed || this.res.destroyed) return;
    const { policy, resolveHost } = this.ctx;
    const check = policy.check(url, from);
    if (!check.ok) {
      this.fail(403, check.message, " (target refused)");
      return;
    }
    const port = targetPort(url);
    // Runs at connect time for host names (Node skips it for IP literals, which check() has judged), so the addresses
    // checked are the addresses connected to: a name cannot pass here and then rebind to a refused address.
    const lookup: LookupFunction = (hostname, options, callback) => {
      resolveHost(hostname).then(
        (found) => {
          const refusal = check.explicit ? undefined : policy.checkResolved(hostname, port, found, from);
          if (refusal !== undefined) return callback(new TargetRefused(refusal), "");
          const family = options.family === "IPv4" ? 4 : options.family === "IPv6" ? 6 : (options.family ?? 0);
          const usable = found.filter((entry) => family === 0 || entry.family === family);
          const [firstAddress] = usable;
          if (firstAddress === undefined) {
            const error: NodeJS.ErrnoException = new Error(`getaddrinfo ENOTFOUND ${hostname}`);
            error.code = "ENOTFOUND";
            return callback(error, "");
          }
          if (options.all !== true) return callback(null, firstAddress.address, firstAddress.family);
          return callback(
            null,
            usable.map((entry) => ({ address: entry.address, family: entry.family })),
          );
        },
        (error: NodeJS.ErrnoException) => callback(error, ""),
      );
    };
    const secure = url.protocol === "https:";
    const options: http.RequestOptions = {
      method,
      headers,
      lookup,
      agent: secure ? this.ctx.httpsAgent : this.ctx.httpAgent,
    };
    const upstreamReq = secure ? https.request(url, options) : http.request(url, options);
    this.current = upstreamReq;
    this.currentUrl = url;
    upstreamReq.on("response", (upstreamRes) => this.onResponse(upstreamReq, upstreamRes, method, headers));
    upstreamReq.on("error", (err: NodeJS.ErrnoException) => this.onError(upstreamReq, err));
    if (!withBody) {
      this.bodySink = undefined;
      upstreamReq.end();
      return;
    }
    this.bodySink = upstreamReq;
    for (const chunk of this.bodyCopy ?? []) upstreamReq.write(chunk);
    if (this.bodyEnded) upstreamReq.end();
    // It may have been paused for the previous hop's backpressure, whose drain will now never come.
    this.req.resume();
  }

  private onResponse(
    upstreamReq: http.ClientRequest,
    upstreamRes: http.IncomingMessage,
    method: string,
    headers: http.OutgoingHttpHeaders,
  ): void {
    if (upstreamReq !== this.current) {
      upstreamRes.resume();
      return;
    }
    const url = this.currentUrl;
    const status = upstreamRes.statusCode ?? 502;
    const location = upstreamRes.headers.location;
    if (REDIRECT_STATUSES.has(status) && location !== undefined) {
      upstreamRes.on("error", () => {});
      upstreamRes.resume();
      const next = redirectTarget(location, url);
      if (next === undefined) {
        const message = `${url.host} redirected to a URL Fawn's proxy does not follow (only http and https, without credentials).`;
        this.fail(502, message, " (bad redirect)");
        return;
      }
      if (this.redirects >= this.ctx.limits.maxRedirects) {
        const message = `${url.host} redirected more than ${this.ctx.limits.maxRedirects} times, so Fawn's proxy stopped following.`;
        this.fail(502, message, " (too many redirects)");
        return;
      }
      this.redirects += 1;
      // The old request may still be uploading; this hop is over either way.
      this.current = undefined;
      this.bodySink = undefined;
      if (!upstreamReq.writableFinished) upstreamReq.destroy();
      // As fetch does: 303 (and 301/302 after a POST) become a GET without a body; 307/308 resend it.
      const toGet =
        ((status === 301 || status === 302) && method === "POST") ||
        (status === 303 && method !== "GET" && method !== "HEAD");
      let nextHeaders = toGet ? withoutHeaders(headers, (name) => BODY_HEADERS.includes(name)) : headers;
      if (next.origin !== url.origin) {
        nextHeaders = withoutHeaders(nextHeaders, (name) => !CROSS_ORIGIN_HEADERS.has(name));
      }
      this.hop(next, toGet ? "GET" : method, nextHeaders, !toGet, url.host);
      return;
    }
    this.relay(upstreamRes, status, url);
  }

  /** Passes the final response to the client, cutting it on idle or once it passes the size limit. */
  private relay(upstreamRes: http.IncomingMessage, status: number, url: URL): void {
    const { limits } = this.ctx;
    clearTimeout(this.headersTimer);
    this.bodyCopy = undefined;
    const tooLarge =
      `The response from ${url.host} is larger than Fawn's proxy relays (${formatBytes(limits.maxResponseBytes)}); ` +
      "to receive it, raise FAWN_PROXY_MAX_RESPONSE_BYTES.";
    if (Number(upstreamRes.headers["content-length"]) > limits.maxResponseBytes) {
      this.fail(502, tooLarge, " (response too large)");
      return;
    }
    const headers = forwardedResponseHeaders(upstreamRes, url);
    const cors = mergeVary(upstreamRes.headers.vary, corsHeaders(this.origin));
    this.res.writeHead(status, { ...headers, ...cors });
    // Send headers now so an SSE client sees the response before the first event.
    this.res.flushHeaders();

    let received = 0;
    const idleTimer = setTimeout(() => {
      this.ctx.note(" (upstream idle timeout)");
      guard.destroy(new Error(`${url.host} sent nothing for ${formatSeconds(limits.idleTimeoutMs)}.`));
    }, limits.idleTimeoutMs);
    const guard = new Transform({
      transform: (chunk: Buffer, _encoding, callback) => {
        received += chunk.length;
        if (received > limits.maxResponseBytes) {
          this.ctx.note(" (response too large)");
          callback(new Error(tooLarge));
          return;
        }
        idleTimer.refresh();
        callback(null, chunk);
      },
    });
    // On any failure mid-body this destroys `res`, so the client sees a cut stream rather than a clean end.
    pipeline(upstreamRes, guard, this.res, () => clearTimeout(idleTimer));
  }

  private onError(upstreamReq: http.ClientRequest, err: NodeJS.ErrnoException): void {
    if (upstreamReq !== this.current) return;
    this.current = undefined;
    if (err instanceof TargetRefused) {
      this.fail(403, err.message, " (target refused)");
      return;
    }
    const reason = err.message || err.code || "unknown error";
    this.fail(502, `Could not reach ${this.currentUrl.host}: ${reason}`, "");
  }

  private abortUpstream(): void {
    const upstreamReq = this.current;
    this.current = undefined;
    this.bodySink = undefined;
    upstreamReq?.destroy();
  }

  /**
   * Ends the relay with the proxy's own error body, or cuts the response if it has already begun. The rest of the
   * client's body is read and dropped, so the client gets the answer rather than a reset mid-upload.
   */
  private fail(status: number, message: string, note: string): void {
    if (this.failed) return;
    this.failed = true;
    this.ctx.note(note);
    clearTimeout(this.headersTimer);
    this.bodyCopy = undefined;
    this.abortUpstream();
    this.req.resume();
    if (this.res.headersSent) {
      this.res.destroy();
      return;
    }
    if (this.res.destroyed || this.res.writableEnded) return;
    sendJson(this.res, status, errorBody(message), corsHeaders(this.origin));
  }
}
