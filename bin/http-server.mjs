// The HTTP server in front of the built app (Next's custom-server API). `next start` leaves
// Node's request timeout at its 300 s default, which cut long uploads off with an empty 408
// before RUNLENS_UPLOAD_TIMEOUT_MS could take effect; here the upload timeout governs, and every
// answer the server writes itself has the JSON error shape of the routes.
import http from "node:http";
import { warmRunPage, warmUpEnabled } from "./warm-routes.mjs";

/** Methods the app's routes can answer; Next fails with a 500 on any other. */
export const ALLOWED_METHODS = ["GET", "HEAD", "OPTIONS", "POST", "PUT", "DELETE", "PATCH"];

const UPLOAD_TIMEOUT_DEFAULT_MS = 30 * 60_000;
/** Node's own default for receiving a request head: ample for any client. */
const HEADERS_TIMEOUT_MS = 60_000;
/** Longer than the 60 s idle timeout of common proxies, so the proxy, not Runlens, closes first. */
const KEEP_ALIVE_TIMEOUT_MS = 65_000;
/** Time after the upload timeout for the route's own 408 to be written before Node cuts the request. */
const GRACE_MS = 30_000;

/** Read like lib/server/config.ts reads it: a positive number, else the default. */
function uploadTimeoutMs(env) {
  const n = Number(env.RUNLENS_UPLOAD_TIMEOUT_MS);
  return env.RUNLENS_UPLOAD_TIMEOUT_MS && Number.isFinite(n) && n > 0
    ? Math.floor(n)
    : UPLOAD_TIMEOUT_DEFAULT_MS;
}

/**
 * Options for `http.createServer`. The whole-request cut-off comes after the upload timeout, so
 * a slow upload gets the route's `408 upload_timeout`; Node's cut-off is left for a request that
 * stalls outside the route (its head, or a body no route reads). Small upload timeouts (tests)
 * shrink the grace, the head timeout and the interval at which Node checks both.
 */
export function serverOptions(env = process.env) {
  const upload = uploadTimeoutMs(env);
  const requestTimeout = upload + Math.min(GRACE_MS, upload);
  return {
    requestTimeout,
    headersTimeout: Math.min(HEADERS_TIMEOUT_MS, requestTimeout),
    keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS,
    connectionsCheckingInterval: Math.max(100, Math.min(30_000, Math.floor(requestTimeout / 10))),
  };
}

function errorBody(code, message) {
  return JSON.stringify({ error: { code, message } });
}

function errorHeaders(body) {
  return {
    "Content-Type": "application/json",
    "Content-Length": Buffer.byteLength(body),
    "X-Content-Type-Options": "nosniff",
    "Cache-Control": "no-store",
    // Answers written here miss the app's security headers; a JSON error needs only these.
    "Content-Security-Policy": "default-src 'none'; frame-ancestors 'none'",
    "Referrer-Policy": "no-referrer",
  };
}

/** A complete HTTP/1.1 response for a socket that has no ServerResponse (see 'clientError'). */
export function rawErrorResponse(status, reason, code, message, headers = {}) {
  const body = errorBody(code, message);
  const head = { ...errorHeaders(body), ...headers, Connection: "close" };
  return (
    `HTTP/1.1 ${status} ${reason}\r\n` +
    Object.entries(head)
      .map(([k, v]) => `${k}: ${v}\r\n`)
      .join("") +
    "\r\n" +
    body
  );
}

function methodNotAllowedResponse(method) {
  return rawErrorResponse(405, "Method Not Allowed", "method_not_allowed", `${method} is not supported`, {
    Allow: ALLOWED_METHODS.join(", "),
  });
}

/** What Node's parser or timers refused, as the JSON answer the routes would give. */
function clientErrorResponse(err) {
  switch (err.code) {
    case "ERR_HTTP_REQUEST_TIMEOUT":
      return rawErrorResponse(
        408,
        "Request Timeout",
        "request_timeout",
        "the request did not arrive in time",
      );
    case "HPE_INVALID_METHOD":
      // Methods Node's parser does not know (TRACK, …) never reach the handler.
      return methodNotAllowedResponse("this method");
    case "HPE_HEADER_OVERFLOW":
      return rawErrorResponse(
        431,
        "Request Header Fields Too Large",
        "headers_too_large",
        "request headers too large",
      );
    default:
      return rawErrorResponse(400, "Bad Request", "bad_request", "malformed HTTP request");
  }
}

function onClientError(err, socket) {
  // A connection reset, or a response already under way, leaves nothing to answer on.
  if (err.code === "ECONNRESET" || !socket.writable || socket._httpMessage?.headersSent) {
    socket.destroy();
    return;
  }
  socket.end(clientErrorResponse(err));
}

/**
 * A request handler that refuses methods Next cannot take (TRACE, TRACK, CONNECT, …) with a JSON
 * 405 and passes everything else to `handle`.
 */
export function refuseUnknownMethods(handle) {
  return (req, res) => {
    if (ALLOWED_METHODS.includes(req.method)) return handle(req, res);
    const body = errorBody("method_not_allowed", `${req.method} is not supported`);
    res.writeHead(405, { ...errorHeaders(body), Allow: ALLOWED_METHODS.join(", ") });
    res.end(body);
  };
}

/** Creates the server around `handle`, with the options above and the JSON refusals. */
export function createAppServer(handle, env = process.env) {
  const server = http.createServer(serverOptions(env), refuseUnknownMethods(handle));
  server.on("clientError", onClientError);
  // Node hands CONNECT to this event instead of the handler, and closes the socket unanswered
  // when nothing listens.
  server.on("connect", (req, socket) => socket.end(methodNotAllowedResponse(req.method)));
  return server;
}

/**
 * Loads the built app from `dir` and serves it on hostname:port (all interfaces when no
 * hostname is given, as `next start` does). Resolves with the listening server once Next is
 * prepared, which also runs instrumentation.ts (store migrations and example runs).
 */
export async function serve({ dir, port, hostname }) {
  process.env.NODE_ENV = "production";
  const { default: next } = await import("next");
  const app = next({ dev: false, dir, port, hostname: hostname ?? "localhost" });
  await app.prepare();
  const server = createAppServer(app.getRequestHandler());
  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, hostname, resolve);
  });
  console.log(`[runlens] listening on http://${hostname ?? "localhost"}:${port}`);
  if (warmUpEnabled()) {
    const { port: bound } = server.address();
    const local = !hostname || hostname === "0.0.0.0" || hostname === "::" ? "127.0.0.1" : hostname;
    const host = local.includes(":") ? `[${local}]` : local;
    void warmRunPage(`http://${host}:${bound}`).then((w) => {
      if (w) console.log(`[runlens] warmed the run page in ${Math.round(w.ms)} ms (${w.status})`);
    });
  }
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    // New connections are refused and idle ones closed; requests under way get a few seconds.
    server.close(() => process.exit(0));
    server.closeIdleConnections();
    setTimeout(() => process.exit(0), 5000).unref();
  };
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) process.on(signal, stop);
  return server;
}
