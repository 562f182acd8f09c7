// Where each provider's API lives under the Base URL the user typed (with or without its version path).
import type { ModelProvider } from "../protocol/index.ts";

/**
 * The root the provider's SDK appends its own paths to: Anthropic's SDK adds `/v1/messages` and Gemini's
 * `/v1beta/models/…`, so a Base URL typed with that version (as the providers' docs often show it) loses it here.
 * OpenAI-compatible Base URLs keep theirs (`…/v1`), which is how those APIs are addressed.
 */
export function apiRoot(provider: ModelProvider, baseUrl: string): string {
  const trimmed = baseUrl.replace(/\/+$/, "");
  if (provider === "anthropic") return trimmed.replace(/\/v1$/, "");
  if (provider === "gemini") return trimmed.replace(/\/v1(beta|alpha)?$/, "");
  return trimmed;
}

/** The header that tells Anthropic's API a browser calls it on purpose (its SDK's `dangerouslyAllowBrowser`). */
export const ANTHROPIC_BROWSER_HEADER = "anthropic-dangerous-direct-browser-access";
/** The Anthropic API version Fawn speaks. */
export const ANTHROPIC_VERSION = "2023-06-01";
