/**
 * What a request did wrong, thrown on the server and answered with the error shape of
 * docs/http-api.md: the status says the kind (one class each), `code` the reason a client can
 * branch on. Anything else thrown is the server's fault (lib/server/route.ts answers it 5xx).
 * `ApiError` (fetch-json.ts) is the same error as the browser reads it back.
 */
export abstract class RequestError extends Error {
  abstract readonly status: number;
  /** The rest of the request body is left unread: the answer closes the connection. */
  closesConnection = false;

  constructor(
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** 400: the request cannot be read as one (no body, a broken multipart body, a bad field). */
export class MalformedRequestError extends RequestError {
  readonly status = 400;
}

/** 408: the request body did not arrive in time. */
export class RequestTimeoutError extends RequestError {
  readonly status = 408;
}

/** 413: the request, or what it expands or splits into, is beyond a configured limit. */
export class TooLargeError extends RequestError {
  readonly status = 413;
}

/** 415: the body is not of a media type the route reads. */
export class UnsupportedMediaTypeError extends RequestError {
  readonly status = 415;
}

/** 422: the request is well formed, but what it holds cannot be used (damaged archives, unknown files or runs). */
export class UnusableContentError extends RequestError {
  readonly status = 422;
}
