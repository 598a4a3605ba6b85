/**
 * Security headers on every route, messages without internals, and the upload and JSON body limits.
 */
import { describe, expect, it } from "vitest";
import nextConfig from "@/next.config";
import { POST as upload } from "@/app/api/runs/route";
import { PATCH as patchRun } from "@/app/api/runs/[id]/route";
import { publicMessage } from "@/lib/ingest/errors";
import { contentSecurityPolicy } from "@/lib/server/security-headers";
import { appForTest, idParams, uploadRequest } from "../helpers/test-app";

const VALID_LINE =
  '{"metadata":{"x_request_id":"a","request_start_ns":1,"request_end_ns":2,"benchmark_phase":"profiling"},"metrics":{"time_to_first_token":{"value":1,"unit":"ms"},"request_latency":{"value":2,"unit":"ms"}}}\n';

function directives(csp: string): Map<string, string[]> {
  return new Map(
    csp.split(";").map((d) => {
      const [name, ...values] = d.trim().split(/\s+/);
      return [name, values];
    }),
  );
}

describe("security headers", () => {
  it("apply to every path, with a production CSP that forbids eval and framing", async () => {
    const saved = process.env.NODE_ENV;
    (process.env as Record<string, string>).NODE_ENV = "production";
    try {
      const rules = await nextConfig.headers!();
      expect(rules).toHaveLength(1);
      expect(rules[0].source).toBe("/:path*");
      const h = Object.fromEntries(rules[0].headers.map((x) => [x.key.toLowerCase(), x.value]));
      expect(h["x-content-type-options"]).toBe("nosniff");
      expect(h["referrer-policy"]).toBe("no-referrer");
      expect(h["x-frame-options"]).toBe("DENY");
      const csp = directives(h["content-security-policy"]);
      expect(csp.get("frame-ancestors")).toEqual(["'none'"]);
      expect(csp.get("object-src")).toEqual(["'none'"]);
      expect(csp.get("default-src")).toEqual(["'self'"]);
      expect(csp.get("script-src")).not.toContain("'unsafe-eval'");
      expect(csp.get("script-src")).not.toContain("*");
      expect(csp.get("connect-src")).toEqual(["'self'"]);
    } finally {
      (process.env as Record<string, string | undefined>).NODE_ENV = saved;
    }
    expect(nextConfig.poweredByHeader).toBe(false);
  });

  it("allow eval only in development", () => {
    expect(directives(contentSecurityPolicy(false)).get("script-src")).toContain("'unsafe-eval'");
    expect(directives(contentSecurityPolicy(true)).get("script-src")).not.toContain("'unsafe-eval'");
  });
});

describe("error bodies", () => {
  it("strip paths and stacks from messages shown to users", () => {
    expect(
      publicMessage(
        new Error(
          "EACCES: permission denied, open '/var/lib/runlens/blobs/tmp/x.gz'\n    at x (/app/lib/a.ts:1:2)",
        ),
      ),
    ).toBe("EACCES: permission denied, open '<path>'");
    expect(publicMessage(new Error("C:\\data\\runlens\\x.sqlite is locked"))).toBe("<path> is locked");
    expect(publicMessage("plain words stay")).toBe("plain words stay");
    expect(publicMessage(new Error("x".repeat(2000)))).toHaveLength(500);
  });
});

describe("upload time limit", () => {
  it("cuts off a body that stalls (408) and keeps nothing", async () => {
    await appForTest({ RUNLENS_UPLOAD_TIMEOUT_MS: "500" });
    const enc = new TextEncoder();
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(
          enc.encode(
            '--zzz\r\nContent-Disposition: form-data; name="file"; filename="a.jsonl"\r\n\r\n{"metadata":',
          ),
        );
        // …and then nothing more, ever.
      },
    });
    const started = Date.now();
    const res = await upload(
      new Request("http://localhost/api/runs", {
        method: "POST",
        body,
        headers: { "content-type": "multipart/form-data; boundary=zzz" },
        duplex: "half",
      } as RequestInit),
    );
    expect(res.status).toBe(408);
    expect((await res.json()).error.code).toBe("upload_timeout");
    // Cut by the 500 ms limit, not by the test timeout: room for a loaded machine.
    expect(Date.now() - started).toBeLessThan(30_000);
  });
});

describe("JSON body limit", () => {
  it("refuses a rename body over 64 KiB (413), declared or streamed, and accepts a normal one", async () => {
    await appForTest();
    const created = await upload(uploadRequest([{ name: "profile_export.jsonl", content: VALID_LINE }]));
    const { id } = await created.json();
    const big = JSON.stringify({ name: "x", labels: ["a".repeat(70 * 1024)] });
    const declared = await patchRun(
      new Request(`http://localhost/api/runs/${id}`, {
        method: "PATCH",
        body: big,
        headers: { "content-type": "application/json" },
      }),
      idParams(id),
    );
    expect(declared.status).toBe(413);
    const enc = new TextEncoder();
    const streamed = new ReadableStream<Uint8Array>({
      start(c) {
        for (let i = 0; i < 100; i++) c.enqueue(enc.encode("x".repeat(1024)));
        c.close();
      },
    });
    const res = await patchRun(
      new Request(`http://localhost/api/runs/${id}`, {
        method: "PATCH",
        body: streamed,
        duplex: "half",
      } as RequestInit),
      idParams(id),
    );
    expect(res.status).toBe(413);
    const bad = await patchRun(
      new Request(`http://localhost/api/runs/${id}`, { method: "PATCH", body: "{nope" }),
      idParams(id),
    );
    expect(bad.status).toBe(400);
    expect((await bad.json()).error.code).toBe("bad_request");
    const ok = await patchRun(
      new Request(`http://localhost/api/runs/${id}`, { method: "PATCH", body: '{"name":"fine"}' }),
      idParams(id),
    );
    expect(ok.status).toBe(200);
  });
});
