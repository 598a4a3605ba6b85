/**
 * What the browser tests of Dynamo's KV router read alike: a generated run of router scrapes
 * (test/generators/dynamo-router-scrapes.mjs) uploaded, and a cache-view section that sets the
 * router's predicted hit rate beside the engines' delivered one, with its pool row.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Locator, Page } from "playwright-core";
import { expect } from "vitest";
import { apiUpload } from "./harness";

/** A rate as the router tables print it: a percentage with at most one decimal. */
export const pct = (v: number) => `${(v * 100).toLocaleString("en-US", { maximumFractionDigits: 1 })}%`;

/**
 * Generates the scrapes of a Dynamo frontend and its workers (`args` after the folder: seconds,
 * then the generator's mode) and uploads them as one run named `name`.
 */
export async function uploadRouterScrapes(url: string, args: string[], name: string) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "runlens-e2e-router-"));
  try {
    execFileSync(process.execPath, ["test/generators/dynamo-router-scrapes.mjs", dir, ...args]);
    return await apiUpload(url, [{ path: path.join(dir, "server_metrics_export.jsonl") }], { name });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * In the view open on `page`: the section `ids.section` draws its chart `ids.chart` with two lines
 * (predicted and delivered), and the pool row of its table `ids.table` reads `pool`'s predicted and
 * delivered rates with a gap below zero, in points. Resolves with the section, the table and the
 * pool row.
 */
export async function expectPoolPredictedVsDelivered(
  page: Page,
  ids: { section: string; chart: string; table: string },
  pool: { predicted: number; delivered: number },
): Promise<{ section: Locator; table: Locator; poolRow: Locator }> {
  const section = page.getByTestId(ids.section);
  await section.waitFor({ timeout: 30_000 });
  const chart = section.locator(`[data-chart="${ids.chart}"]`);
  await chart.locator("path.recharts-line-curve").first().waitFor({ timeout: 30_000 });
  expect(await chart.locator("path.recharts-line-curve").count()).toBe(2);
  const table = page.getByTestId(ids.table);
  const poolRow = table.locator('tbody tr[data-row="pool"]');
  await expect.poll(() => poolRow.locator('[data-stat="predicted"]').textContent()).toBe(pct(pool.predicted));
  expect(await poolRow.locator('[data-stat="delivered"]').textContent()).toBe(pct(pool.delivered));
  expect(await poolRow.locator('[data-stat="gap"]').textContent()).toMatch(/^−\d+(\.\d+)? pp$/);
  return { section, table, poolRow };
}
