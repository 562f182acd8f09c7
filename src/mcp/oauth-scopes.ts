// The OAuth scopes of a server's sign-ins, as plain data (no SDK here: the Gateway reads it without loading the MCP
// client): what the next sign-in asks for, what the tokens were granted, and how many step-ups in a row there were.
// A step-up is pending when a server asked for a scope (403 insufficient_scope) the tokens were not granted.

/** The scopes of a server's sign-ins (the `scope` record). */
export interface McpOAuthScopes {
  /** What the next sign-in asks for: the scope a 401 or a 403 insufficient_scope named, with what was granted. */
  next?: string;
  /** What the sign-in under way asked for. */
  asking?: string;
  /** What the stored tokens were granted (the token response's `scope`, else what their sign-in asked for). */
  granted?: string;
  /** Step-ups (a 403 insufficient_scope asking for more) since the last sign-in that was not one. */
  stepUps?: number;
}

/** At most this many step-up sign-ins in a row: a server that keeps asking for more is refused with a sentence. */
export const MCP_SCOPE_STEP_UP_LIMIT = 3;

/** What a 403 insufficient_scope leads to: a new sign-in for `scope`, or a refusal (the scope was granted already). */
export type McpScopeChallenge =
  { signIn: true; scope: string } | { signIn: false; scope: string; reason: "granted" | "limit" };

/** A space-separated scope as a list of its words. */
function scopeWords(scope: string | undefined): string[] {
  return (scope ?? "").split(/\s+/).filter(Boolean);
}

/** The union of scopes, in first-seen order; undefined when empty. */
export function joinScopes(...scopes: (string | undefined)[]): string | undefined {
  const words = [...new Set(scopes.flatMap(scopeWords))];
  return words.length > 0 ? words.join(" ") : undefined;
}

/** True when every word of `wanted` is in `held`. */
export function covers(held: string | undefined, wanted: string): boolean {
  const have = new Set(scopeWords(held));
  return scopeWords(wanted).every((word) => have.has(word));
}

/** True when the server asked for more than the stored tokens were granted: the next sign-in is a step-up. */
export function stepUpPending(scopes: McpOAuthScopes | undefined): boolean {
  return Boolean(scopes?.next && scopes.granted !== undefined && !covers(scopes.granted, scopes.next));
}
