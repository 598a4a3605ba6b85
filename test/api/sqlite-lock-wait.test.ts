/**
 * Uploads committing while another connection holds SQLite's write lock (the bulk-insert writer
 * thread of other uploads, another process). One upload was refused `503 store_unavailable` when
 * several committed at once: the main connection waited for the lock inside SQLite, synchronously
 * (the whole server stopped meanwhile), and gave up after 5 s. Now the wait happens between turns
 * of the event loop (lib/store/sqlite-busy.ts), up to RUNLENS_SQLITE_BUSY_WAIT_MS, and a
 * transaction takes the write lock when it begins.
 */
import path from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { GET as health } from "@/app/api/health/route";
import { POST as upload } from "@/app/api/runs/route";
import { GET as getRun } from "@/app/api/runs/[id]/route";
import { uploadNo } from "../helpers/concurrent-uploads";
import { loopStalls } from "../helpers/loop-stalls";
import { appForTest, idParams } from "../helpers/test-app";

describe("uploads while SQLite's write lock is held elsewhere", () => {
  it("wait for the lock without stopping the server, and all land", async () => {
    const t = await appForTest();
    const other = new Database(path.join(t.dataDir, "runlens.sqlite"));
    // Longer than the 5 s the main connection used to wait inside SQLite.
    const HOLD_MS = 6_000;
    const stalls = loopStalls();
    other.exec("begin immediate");
    const released = new Promise<void>((resolve) =>
      setTimeout(() => {
        other.exec("commit");
        resolve();
      }, HOLD_MS),
    );
    try {
      const uploads = Promise.all(Array.from({ length: 4 }, (_, i) => upload(uploadNo(i))));
      // The server answers meanwhile.
      await new Promise((r) => setTimeout(r, 1_000));
      expect((await health(new Request("http://localhost/api/health"))).status).toBe(200);
      const answers = await uploads;
      await released;
      const stall = stalls.stop();
      const bodies = await Promise.all(
        answers.map(async (r) => ({ status: r.status, body: await r.json() })),
      );
      for (const b of bodies) expect(b.status, JSON.stringify(b.body)).toBe(201);
      for (const b of bodies) {
        const run = await (await getRun(new Request("http://x"), idParams(b.body.id))).json();
        expect(run.status).toBe("ready");
      }
      // The event loop never sat out the lock (it used to, for 5 s): a bound with room for a
      // loaded machine, far below the hold.
      expect(stall).toBeLessThan(HOLD_MS / 3);
    } finally {
      if (other.inTransaction) other.exec("rollback");
      other.close();
    }
  });

  it("a lock held past the wait limit is a retryable 503, and nothing is half-stored", async () => {
    const t = await appForTest({ RUNLENS_SQLITE_BUSY_WAIT_MS: "500" });
    const other = new Database(path.join(t.dataDir, "runlens.sqlite"));
    other.exec("begin immediate");
    try {
      const res = await upload(uploadNo(2));
      expect(res.status).toBe(503);
      expect(res.headers.get("retry-after")).toBe("2");
      expect((await res.json()).error.code).toBe("store_unavailable");
    } finally {
      other.exec("rollback");
      other.close();
    }
    const runs = await t.app.store.db.selectFrom("runs").select("id").execute();
    expect(runs).toEqual([]);
    expect((await upload(uploadNo(2))).status).toBe(201);
  });
});
