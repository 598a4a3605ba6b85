import type { z } from "zod";
import { RequestError } from "@/lib/api/request-errors";
import { getAppContext, type AppContext } from "./app-context";
import { guardedRowsRead, type DrilldownGuardOptions, type RowsChanged } from "./drilldown-guard";
import { checkCrossSiteWrite, checkWriteAuth } from "./auth";
import { clientOf, heavyReads, releasingWhenSent } from "./heavy-reads";
import { jsonError, notFound } from "./http";
import { readJsonBody } from "./read-json-body";

type Schema = z.ZodType | undefined;
type Parsed<S extends Schema> = S extends z.ZodType ? z.output<S> : undefined;

export interface RouteSpec<P extends Schema, Q extends Schema, B extends Schema> {
  /**
   * `write` needs `Authorization: Bearer <RUNLENS_API_TOKEN>` when a token is configured, and is
   * refused from another site's page when none is; reads are open.
   */
  auth: "read" | "write";
  /** The route lists runs: private mode answers 404, so a run is reachable only by its link. */
  listsRuns?: boolean;
  /** Path parameters. A path that fails them names nothing, and gets the same 404 as an unknown run. */
  params?: P;
  /**
   * What the path names, for the 404 of a path that fails `params` or whose handler answers
   * `null` ("run" when not given).
   */
  resource?: string;
  query?: Q;
  /**
   * A small JSON body (see read-json-body.ts). Without it the handler gets the request unread,
   * so an upload can stream its body.
   */
  body?: B;
  /**
   * The route reads every request of a run (trace, report, goodput, sweep point, timeline): it
   * waits for a place among the heavy reads the server runs at once (./heavy-reads.ts).
   */
  heavy?: boolean;
  /**
   * The route reads the per-request rows of the run `params.id` names: while they are being
   * built, or after a failed ingest, it answers the 409 of ./drilldown-guard.ts and the handler
   * does not run (`true`, or that guard's options).
   */
  requestRows?: true | DrilldownGuardOptions;
}

export interface RouteInput<P extends Schema, Q extends Schema, B extends Schema> {
  req: Request;
  app: AppContext;
  params: Parsed<P>;
  query: Parsed<Q>;
  body: Parsed<B>;
  /**
   * For a route with `requestRows` whose answer streams on after the handler returns: a look at
   * the run, null while its rows are those the read began on (./drilldown-guard.ts). Always null
   * on other routes.
   */
  rowsChanged: RowsChanged;
}

/** The signature Next.js calls: path parameters arrive as strings, a catch-all's as a list of them. */
export type RouteHandler<P extends Schema> = P extends z.ZodType
  ? (
      req: Request,
      ctx: {
        params: Promise<{ [K in keyof z.input<P>]: z.input<P>[K] extends string[] ? string[] : string }>;
      },
    ) => Promise<Response>
  : (req: Request, ctx?: unknown) => Promise<Response>;

/**
 * A route handler from its contract and its work: the handler runs only once the request is
 * allowed and its parameters, query and body have passed their schemas; it answers a response,
 * or `null` when nothing exists at the path, and whatever it throws leaves in the one error shape.
 */
export function route<
  P extends Schema = undefined,
  Q extends Schema = undefined,
  B extends Schema = undefined,
>(
  spec: RouteSpec<P, Q, B>,
  handle: (input: RouteInput<P, Q, B>) => Promise<Response | null>,
): RouteHandler<P> {
  const rows = spec.requestRows;
  const fn = !rows
    ? handle
    : (input: RouteInput<P, Q, B>) =>
        guardedRowsRead(
          input.app.store.db,
          (input.params as { id: string }).id,
          rows === true ? {} : rows,
          (rowsChanged) => handle({ ...input, rowsChanged }),
        );
  const handler = async (req: Request, ctx?: { params?: Promise<unknown> }): Promise<Response> => {
    try {
      const app = await getAppContext();
      if (spec.auth === "write") {
        // A valid token authorises a write from anywhere; without one configured, only the app's
        // own pages and clients that are not browsers (curl, the CLI) may write.
        const denied = app.config.apiToken ? checkWriteAuth(req, app.config) : checkCrossSiteWrite(req);
        if (denied) return denied;
      }
      if (spec.listsRuns && app.config.privateMode)
        return jsonError(404, "not_found", "the run list is private; open a run by its link");
      const params = spec.params?.safeParse(await ctx?.params);
      if (params && !params.success) return notFound(spec.resource);
      const query = spec.query?.safeParse(Object.fromEntries(new URL(req.url).searchParams));
      if (query && !query.success) return badRequest("query", query.error);
      const body = spec.body?.safeParse(await readJsonBody(req));
      if (body && !body.success) return badRequest("JSON body", body.error);
      const input = {
        req,
        app,
        params: params?.data,
        query: query?.data,
        body: body?.data,
        rowsChanged: unchanged,
      };
      if (!spec.heavy) return (await fn(input as RouteInput<P, Q, B>)) ?? notFound(spec.resource);
      const admitted = await heavyReads.admit(clientOf(req));
      if (admitted instanceof Response) return admitted;
      try {
        return releasingWhenSent(
          (await fn(input as RouteInput<P, Q, B>)) ?? notFound(spec.resource),
          admitted,
        );
      } catch (err) {
        admitted();
        throw err;
      }
    } catch (err) {
      return errorResponse(err);
    }
  };
  return handler as RouteHandler<P>;
}

const unchanged: RowsChanged = async () => null;

/** One code for every request whose query or body its schema refuses; the issues say where. */
function badRequest(part: string, error: z.ZodError): Response {
  const where = error.issues
    .slice(0, 3)
    .map((i) => (i.path.length ? `${i.path.map(String).join(".")}: ${i.message}` : i.message))
    .join("; ");
  return jsonError(400, "bad_request", `invalid ${part}: ${where}`, error.issues);
}

/** Errors from the store being unreachable or locked: the client should retry. */
function isStoreUnavailable(err: unknown): boolean {
  const e = err as { code?: string; message?: string };
  const code = e?.code ?? "";
  return (
    [
      "SQLITE_BUSY",
      "SQLITE_BUSY_SNAPSHOT",
      "SQLITE_BUSY_TIMEOUT",
      "SQLITE_LOCKED",
      "ECONNREFUSED",
      "ECONNRESET",
      "57P01",
      "57P03",
      "53300",
      "08006",
      "08001",
    ].includes(code) ||
    /connection terminated|timeout exceeded when trying to connect|database is locked/i.test(e?.message ?? "")
  );
}

/** The disk or database is full: nothing the client can fix by retrying at once, but not a bug either. */
function isStorageFull(err: unknown): boolean {
  const code = (err as { code?: string })?.code ?? "";
  return ["ENOSPC", "EDQUOT", "SQLITE_FULL", "53100"].includes(code);
}

/**
 * A thrown error as a response: client mistakes keep their status, an unavailable store is a
 * 503, a full one a 507, anything else a 500 without internals.
 */
function errorResponse(err: unknown): Response {
  if (err instanceof RequestError) {
    const res = jsonError(err.status, err.code, err.message, err.details);
    // The unread rest of the body would otherwise hold a kept-alive connection.
    if (err.closesConnection) res.headers.set("Connection", "close");
    return res;
  }
  // PostgreSQL refusing text it cannot encode: the request's text, not the server, is at fault.
  if (["22021", "22P05"].includes((err as { code?: string })?.code ?? ""))
    return jsonError(422, "unstorable_text", "the request holds text the database cannot store");
  if (isStoreUnavailable(err)) {
    const res = jsonError(503, "store_unavailable", "the database is busy or unreachable; try again shortly");
    res.headers.set("Retry-After", "2");
    return res;
  }
  if (isStorageFull(err)) {
    console.error("[runlens] storage full:", err);
    return jsonError(507, "storage_full", "the server has no room left to store this; ask its operator");
  }
  console.error("[runlens] unhandled error:", err);
  return jsonError(500, "internal_error", "something went wrong on the server");
}
