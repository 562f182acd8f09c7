// Errors whose message is meant for the user. An error class says so by carrying the `UserFacing` mark (its
// `userFacing` field names what went wrong); services let such errors through as they are, with no re-throw by hand.
// comlink carries `message` to the page, and the HTTP routes answer a marked error with the status its kind names
// (any other error is a 500). `UserError` is the plain one a service throws for a refusal of its own.

/** What went wrong, from the caller's side: bad input (HTTP 422) or a clash with the current state (HTTP 409). */
export type UserErrorKind = "invalid" | "conflict";

/** The mark of an error the user should read: its message is one sentence for them. */
export interface UserFacing {
  readonly userFacing: UserErrorKind;
}

/** Whether `error` carries the `UserFacing` mark. */
export function isUserFacing(error: unknown): error is Error & UserFacing {
  if (!(error instanceof Error) || !("userFacing" in error)) return false;
  return error.userFacing === "invalid" || error.userFacing === "conflict";
}

export class UserError extends Error implements UserFacing {
  override name = "UserError";

  constructor(
    message: string,
    readonly kind: UserErrorKind = "invalid",
  ) {
    super(message);
  }

  get userFacing(): UserErrorKind {
    return this.kind;
  }
}

/** The HTTP status a route answers a user-facing error with. */
export function userErrorStatus(error: UserFacing): 409 | 422 {
  return error.userFacing === "conflict" ? 409 : 422;
}
