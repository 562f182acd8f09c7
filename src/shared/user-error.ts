// The one error type whose message is meant for the user. Services throw it; the Gateway passes it on untouched;
// comlink carries `message` to the page, and the HTTP routes answer with the status its kind names.

/** What went wrong, from the caller's side: bad input (HTTP 422) or a clash with the current state (HTTP 409). */
export type UserErrorKind = "invalid" | "conflict";

export class UserError extends Error {
  override name = "UserError";

  constructor(
    message: string,
    readonly kind: UserErrorKind = "invalid",
  ) {
    super(message);
  }
}

/** The HTTP status a route answers a UserError with. */
export function userErrorStatus(error: UserError): 409 | 422 {
  return error.kind === "conflict" ? 409 : 422;
}
