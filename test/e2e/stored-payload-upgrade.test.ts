/**
 * A run stored by an older Runlens (docs/architecture.md §Stored payloads evolve): its summary and
 * segments payload written as an older aggregator wrote them, straight into the server's SQLite
 * file. The page says what the run lacks and how to get it, the segment chart says it must be
 * recomputed instead of drawing without p75 or loading for ever, and re-ingest clears both.
 */
import path from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { TRTLLM_CHARTS } from "@/lib/api/chart-catalog";
import { fixture } from "../helpers/test-app";
import { apiUpload, gotoHydrated, useAppAndBrowser } from "./harness";

type Loose = Record<string, unknown>;

describe("a run stored by an older Runlens", () => {
  const t = useAppAndBrowser();

  it("says what it lacks and how to get it, and re-ingest recomputes it", async () => {
    const run = await apiUpload(t.app.url, [
      { path: fixture("trtllm/perf_metrics-disagg-reconstructed.jsonl"), name: "perf_metrics.jsonl" },
    ]);
    const db = new Database(path.join(t.app.dataDir, "runlens.sqlite"));
    db.pragma("busy_timeout = 10000");
    try {
      const row = db.prepare("select summary from runs where id = ?").get(run.id) as { summary: string };
      const summary = JSON.parse(row.summary) as Loose;
      const tb = summary.timeBreakdown as Loose;
      delete tb.kvBlockLookups;
      delete (tb.latency as Loose).oneResponse;
      db.prepare("update runs set summary = ?, aggregator_version = 10 where id = ?").run(
        JSON.stringify(summary),
        run.id,
      );
      const seg = db
        .prepare("select data from chart_data where run_id = ? and key = ?")
        .get(run.id, TRTLLM_CHARTS.segments.key) as { data: string };
      const payload = JSON.parse(seg.data) as { segments: Loose[] };
      for (const s of payload.segments) {
        delete s.clamped;
        delete s.p75Ms;
      }
      db.prepare("update chart_data set data = ?, version = 1 where run_id = ? and key = ?").run(
        JSON.stringify(payload),
        run.id,
        TRTLLM_CHARTS.segments.key,
      );
    } finally {
      db.close();
    }

    const page = await t.browser.newPage({ viewport: { width: 1400, height: 1000 } });
    await gotoHydrated(page, `${t.app.url}/runs/${run.id}?view=breakdown`);
    const note = page.getByTestId("run-recompute");
    await expect.poll(() => note.textContent(), { timeout: 30_000 }).toContain("aggregator version 10");
    expect(await note.textContent()).toContain("KV blocks looked up");
    expect(await note.textContent()).toContain(`POST /api/runs/${run.id}/reingest`);
    const chart = page.getByTestId("recompute-needed");
    await expect.poll(() => chart.count(), { timeout: 30_000 }).toBe(1);
    expect(await chart.textContent()).toContain("clamped counts and p75");

    const res = await fetch(`${t.app.url}/api/runs/${run.id}/reingest`, { method: "POST" });
    expect(res.status).toBe(200);
    await gotoHydrated(page, `${t.app.url}/runs/${run.id}?view=breakdown`);
    await expect
      .poll(() => page.getByText("p75", { exact: true }).count(), { timeout: 30_000 })
      .toBeGreaterThan(0);
    expect(await page.getByTestId("run-recompute").count()).toBe(0);
    expect(await page.getByTestId("recompute-needed").count()).toBe(0);
    await page.close();
  });
});
