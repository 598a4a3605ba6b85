/**
 * The route helper on its own: who may call a route, what reaches the handler once the schemas
 * have passed, and how every refusal and every thrown error leaves as the one error shape.
 */
import { z } from "zod";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { UnusableContentError } from "@/lib/api/request-errors";
import { route } from "@/lib/server/route";
import { useTestApp } from "../helpers/test-app";

let cleanup: (() => Promise<void>) | null = null;
afterEach(async () => {
  await cleanup?.();
  cleanup = null;
});

const TOKEN = "s3cret";
const ID = "AAAAAAAAAAAAAAAAAAAAAA";
const params = <T extends Record<string, string>>(p: T) => ({ params: Promise.resolve(p) });
const request = (query = "", init: RequestInit = {}) => new Request(`http://localhost/api/x${query}`, init);

/** A handler that records that it ran and echoes what it was given. */
function echo() {
  const calls: unknown[] = [];
  const fn = async (input: { params: unknown; query: unknown; body: unknown }) => {
    calls.push(input);
    return Response.json({
      params: input.params ?? null,
      query: input.query ?? null,
      body: input.body ?? null,
    });
  };
  return { calls, fn };
}

async function errorOf(res: Response) {
  return ((await res.json()) as { error: { code: string; message: string; details?: unknown } }).error;
}

describe("auth", () => {
  it("lets anyone read, with or without a token configured", async () => {
    ({ cleanup } = await useTestApp({ RUNLENS_API_TOKEN: TOKEN }));
    const { calls, fn } = echo();
    expect((await route({ auth: "read" }, fn)(request())).status).toBe(200);
    expect(calls).toHaveLength(1);
  });

  it("needs the bearer token on writes when one is configured, before anything else is looked at", async () => {
    ({ cleanup } = await useTestApp({ RUNLENS_API_TOKEN: TOKEN }));
    const { calls, fn } = echo();
    const write = route({ auth: "write", params: z.object({ id: z.string().length(22) }) }, fn);
    const wrong: Array<Record<string, string>> = [
      {},
      { authorization: "Bearer nope" },
      { authorization: TOKEN },
    ];
    for (const headers of wrong) {
      // Even a path that names nothing is refused as unauthorized: a caller without the token learns nothing.
      const res = await write(request("", { method: "POST", headers }), params({ id: "x" }));
      expect(res.status).toBe(401);
      expect((await errorOf(res)).code).toBe("unauthorized");
    }
    expect(calls).toHaveLength(0);
    const ok = await write(
      request("", { method: "POST", headers: { authorization: `Bearer ${TOKEN}` } }),
      params({ id: ID }),
    );
    expect(ok.status).toBe(200);
    expect(calls).toHaveLength(1);
  });

  it("leaves writes open when no token is configured", async () => {
    ({ cleanup } = await useTestApp());
    const { fn } = echo();
    expect((await route({ auth: "write" }, fn)(request("", { method: "POST" }))).status).toBe(200);
  });

  it("hides a route that lists runs in private mode, and only that route", async () => {
    ({ cleanup } = await useTestApp({ RUNLENS_PRIVATE: "true" }));
    const { calls, fn } = echo();
    const res = await route(
      { auth: "read", listsRuns: true, query: z.object({ q: z.string() }) },
      fn,
    )(request());
    expect(res.status).toBe(404);
    expect((await errorOf(res)).code).toBe("not_found");
    expect(calls).toHaveLength(0);
    expect((await route({ auth: "read" }, fn)(request())).status).toBe(200);
  });
});

describe("validation", () => {
  beforeEach(async () => {
    ({ cleanup } = await useTestApp());
  });

  const spec = {
    auth: "read" as const,
    params: z.object({ id: z.string().regex(/^[A-Z]{22}$/), n: z.coerce.number().int() }),
    query: z.object({
      limit: z.coerce.number().int().min(1).default(10),
      sort: z.enum(["a", "b"]).optional(),
    }),
  };

  it("hands the handler parsed values: coerced, defaulted, unknown keys dropped", async () => {
    const { fn } = echo();
    const res = await route(spec, fn)(request("?sort=b&x=1"), params({ id: ID, n: "7" }));
    expect(await res.json()).toEqual({
      params: { id: ID, n: 7 },
      query: { limit: 10, sort: "b" },
      body: null,
    });
  });

  it("answers a path that fails its schema with the 404 of a resource that does not exist", async () => {
    const { calls, fn } = echo();
    const res = await route(spec, fn)(request(), params({ id: "../..", n: "1" }));
    expect(res.status).toBe(404);
    expect(await errorOf(res)).toEqual({ code: "not_found", message: "run not found" });
    const chart = await route({ ...spec, resource: "chart" }, fn)(request(), params({ id: ID, n: "x" }));
    expect(await errorOf(chart)).toEqual({ code: "not_found", message: "chart not found" });
    expect(calls).toHaveLength(0);
  });

  it("answers a handler's null with the same 404", async () => {
    const res = await route({ auth: "read", resource: "file" }, async () => null)(request());
    expect(res.status).toBe(404);
    expect(await errorOf(res)).toEqual({ code: "not_found", message: "file not found" });
  });

  it("refuses a query that fails its schema with bad_request, saying where", async () => {
    const { calls, fn } = echo();
    const res = await route(spec, fn)(request("?limit=0&sort=c"), params({ id: ID, n: "1" }));
    expect(res.status).toBe(400);
    const error = await errorOf(res);
    expect(error.code).toBe("bad_request");
    expect(error.message).toMatch(/^invalid query: limit: .+; sort: .+/);
    expect(error.details).toEqual([
      expect.objectContaining({ path: ["limit"] }),
      expect.objectContaining({ path: ["sort"] }),
    ]);
    expect(calls).toHaveLength(0);
  });

  const bodySpec = { auth: "write" as const, body: z.object({ name: z.string().min(1) }) };
  const post = (body: BodyInit, headers: Record<string, string> = {}) =>
    request("", { method: "POST", body, headers });

  it("reads a JSON body through its schema", async () => {
    const { fn } = echo();
    const res = await route(bodySpec, fn)(post('{"name":"a","extra":1}'));
    expect((await res.json()).body).toEqual({ name: "a" });
  });

  it("refuses a body that is not JSON, or not the schema's, with the same bad_request", async () => {
    const { calls, fn } = echo();
    for (const body of ["{nope", '{"name":""}', "[]", ""]) {
      const res = await route(bodySpec, fn)(post(body));
      expect(res.status, body).toBe(400);
      const error = await errorOf(res);
      expect(error.code, body).toBe("bad_request");
      expect(error.message, body).toMatch(/^invalid JSON body: /);
    }
    expect(calls).toHaveLength(0);
  });

  it("refuses a JSON body over its limit with 413", async () => {
    const { calls, fn } = echo();
    const res = await route(bodySpec, fn)(post(JSON.stringify({ name: "x".repeat(100 * 1024) })));
    expect(res.status).toBe(413);
    expect((await errorOf(res)).code).toBe("payload_too_large");
    expect(calls).toHaveLength(0);
  });

  it("leaves the body unread when the route declares none, so a handler can stream it", async () => {
    const seen = await route({ auth: "write" }, async ({ req }) => {
      expect(req.bodyUsed).toBe(false);
      return new Response(await req.text());
    })(post("raw bytes, not JSON", { "content-type": "application/octet-stream" }));
    expect(await seen.text()).toBe("raw bytes, not JSON");
  });
});

describe("errors thrown by a handler", () => {
  beforeEach(async () => {
    ({ cleanup } = await useTestApp());
  });

  const throwing = (err: unknown) =>
    route({ auth: "read" }, async () => {
      throw err;
    })(request());

  async function quietly<T>(fn: () => Promise<T>): Promise<T> {
    const errors = console.error;
    console.error = () => {};
    try {
      return await fn();
    } finally {
      console.error = errors;
    }
  }

  it("keep a client mistake's status, code and details", async () => {
    const res = await throwing(
      new UnusableContentError("no_usable_files", "every file was refused", { files: [] }),
    );
    expect(res.status).toBe(422);
    expect(await res.json()).toEqual({
      error: { code: "no_usable_files", message: "every file was refused", details: { files: [] } },
    });
  });

  it("map text PostgreSQL cannot encode to 422", async () => {
    for (const code of ["22021", "22P05"]) {
      const res = await throwing(
        Object.assign(new Error('invalid byte sequence for encoding "UTF8": 0x00'), { code }),
      );
      expect(res.status).toBe(422);
      expect((await errorOf(res)).code).toBe("unstorable_text");
    }
  });

  it("map a locked or unreachable store to 503", async () => {
    for (const err of [
      Object.assign(new Error("database is locked"), { code: "SQLITE_BUSY" }),
      Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" }),
      new Error("Connection terminated unexpectedly"),
    ]) {
      const res = await throwing(err);
      expect(res.status).toBe(503);
      expect((await errorOf(res)).code).toBe("store_unavailable");
    }
  });

  it("map a full disk or database to 507 without details", async () => {
    for (const code of ["ENOSPC", "SQLITE_FULL", "53100"]) {
      const res = await quietly(() =>
        throwing(
          Object.assign(new Error(`${code}: no space left on device, write '/data/blobs/tmp/x.gz'`), {
            code,
          }),
        ),
      );
      expect(res.status).toBe(507);
      const body = await res.json();
      expect(body.error.code).toBe("storage_full");
      expect(JSON.stringify(body)).not.toContain("/data/");
    }
  });

  it("turn anything else into a 500 that carries no stack trace or file path", async () => {
    const res = await quietly(() =>
      throwing(
        new Error(
          "ENOENT: no such file or directory, open '/srv/runlens/data/blobs/ab/abc.gz'\n    at open (node:fs:1:1)",
        ),
      ),
    );
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({
      error: { code: "internal_error", message: "something went wrong on the server" },
    });
  });
});
