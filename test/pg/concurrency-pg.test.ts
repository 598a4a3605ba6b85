/**
 * PostgreSQL: 16 parallel uploads with continuous reads; identical uploads share one blob; the
 * database going away mid-flight gives 503s (never a crash) and service resumes when it returns.
 * The outage is a TCP proxy in front of the test database that the test stops and restarts.
 */
import net from "node:net";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as health } from "@/app/api/health/route";
import { GET as listRuns, POST as upload } from "@/app/api/runs/route";
import { GET as getRun } from "@/app/api/runs/[id]/route";
import { claimForIngest, failInterruptedIngests } from "@/lib/store/interrupted-ingest";
import type { AppContext } from "@/lib/server/app-context";
import { uploadNo } from "../helpers/concurrent-uploads";
import { runRow } from "../helpers/run-row";
import { freshSchema, PG_URL } from "../helpers/pg-schema";
import { idParams, useTestApp } from "../helpers/test-app";

/** A TCP proxy to the database that can be cut (every connection dropped) and restored. */
class CuttableProxy {
  private server: net.Server | null = null;
  private sockets = new Set<net.Socket>();
  port = 0;
  constructor(private readonly target: { host: string; port: number }) {}

  async start(): Promise<void> {
    this.server = net.createServer((client) => {
      const upstream = net.connect(this.target.port, this.target.host);
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on("close", () => this.sockets.delete(s));
        s.on("error", () => {});
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve) => this.server!.listen(this.port, "127.0.0.1", resolve));
    this.port = (this.server.address() as net.AddressInfo).port;
  }

  async cut(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise((resolve) => this.server?.close(resolve));
    this.server = null;
  }
}

describe.skipIf(!PG_URL)("PostgreSQL concurrency and outages", () => {
  let app: AppContext;
  let cleanup: () => Promise<void>;
  let drop: () => Promise<void>;
  let proxy: CuttableProxy;

  beforeAll(async () => {
    const s = await freshSchema();
    drop = s.drop;
    const target = new URL(PG_URL!);
    proxy = new CuttableProxy({ host: target.hostname, port: Number(target.port || 5432) });
    await proxy.start();
    const proxied = s.url.replace(`@${target.host}`, `@127.0.0.1:${proxy.port}`);
    expect(proxied).not.toBe(s.url);
    ({ app, cleanup } = await useTestApp({ DATABASE_URL: proxied }));
  });
  afterAll(async () => {
    await cleanup?.();
    await proxy?.cut();
    await drop?.();
  });

  it("16 parallel uploads plus continuous reads: each lands once, every read succeeds", async () => {
    let uploading = true;
    const reads: number[] = [];
    const readers = (async () => {
      while (uploading) {
        reads.push((await health(new Request("http://localhost/api/health"))).status);
        const res = await listRuns(new Request("http://localhost/api/runs?limit=100"));
        reads.push(res.status);
        for (const run of (await res.json()).runs.slice(0, 3))
          reads.push((await getRun(new Request("http://x"), idParams(run.id))).status);
        await new Promise((r) => setTimeout(r, 5));
      }
    })();
    const responses = await Promise.all(Array.from({ length: 16 }, (_, i) => upload(uploadNo(i))));
    uploading = false;
    await readers;
    const bodies = await Promise.all(responses.map((r) => r.json()));
    expect(responses.map((r) => r.status)).toEqual(new Array(16).fill(201));
    expect(reads.length).toBeGreaterThan(5);
    expect(reads.filter((s) => s !== 200)).toEqual([]);
    const list = await (await listRuns(new Request("http://localhost/api/runs?limit=100"))).json();
    expect(list.runs.map((r: { id: string }) => r.id).sort()).toEqual(bodies.map((b) => b.id).sort());
    for (const [i, b] of bodies.entries()) {
      const run = await (await getRun(new Request("http://x"), idParams(b.id))).json();
      expect([run.status, run.name, run.files[0].records]).toEqual([
        "ready",
        `run-${i}`,
        i % 2 === 0 ? 200 + i : 4,
      ]);
    }
  });

  it("the same file uploaded twice at once makes two runs sharing one stored blob", async () => {
    const [a, b] = await Promise.all([upload(uploadNo(101)), upload(uploadNo(101))]);
    expect([a.status, b.status]).toEqual([201, 201]);
    const [ra, rb] = [await a.json(), await b.json()];
    expect(ra.id).not.toBe(rb.id);
    const runA = await (await getRun(new Request("http://x"), idParams(ra.id))).json();
    const runB = await (await getRun(new Request("http://x"), idParams(rb.id))).json();
    expect(runA.files[0].sha256).toBe(runB.files[0].sha256);
    const keys = await sql<{
      n: number;
    }>`select count(distinct blob_key)::int as n from blob_chunks where blob_key = ${runA.files[0].sha256}`.execute(
      app.store.db,
    );
    expect(keys.rows[0].n).toBe(1);
  });

  it("marks a run whose ingest heartbeat stopped as failed, and claims re-ingest atomically", async () => {
    const db = app.store.db;
    const now = Date.now();
    await db
      .insertInto("runs")
      .values([
        runRow({ id: "pg-dead-run-01", name: "dead", status: "ingesting", updated_at: now - 120_000 }),
        runRow({ id: "pg-live-run-01", name: "live", status: "ingesting", updated_at: now }),
      ])
      .execute();
    expect(await failInterruptedIngests(db, 60_000, now)).toBe(1);
    const rows = await db
      .selectFrom("runs")
      .select(["id", "status"])
      .where("id", "like", "pg-%")
      .orderBy("id")
      .execute();
    expect(rows).toEqual([
      { id: "pg-dead-run-01", status: "failed" },
      { id: "pg-live-run-01", status: "ingesting" },
    ]);
    const claims = await Promise.all([
      claimForIngest(db, "pg-dead-run-01"),
      claimForIngest(db, "pg-dead-run-01"),
    ]);
    expect(claims.filter(Boolean)).toHaveLength(1);
    await db.deleteFrom("runs").where("id", "like", "pg-%").execute();
  });

  it("answers 503 while the database is unreachable and recovers when it returns", async () => {
    expect((await health(new Request("http://localhost/api/health"))).status).toBe(200);
    await proxy.cut();
    const down = [
      await health(new Request("http://localhost/api/health")),
      await listRuns(new Request("http://localhost/api/runs")),
      await upload(uploadNo(7)),
    ];
    for (const res of down) {
      expect(res.status).toBe(503);
      expect((await res.json()).error.code).toBe("store_unavailable");
    }
    await proxy.start();
    expect((await health(new Request("http://localhost/api/health"))).status).toBe(200);
    expect((await listRuns(new Request("http://localhost/api/runs"))).status).toBe(200);
    expect((await upload(uploadNo(7))).status).toBe(201);
  });
});
