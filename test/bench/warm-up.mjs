// Before anything is measured: a fresh server loads each route's modules on its first
// request (~0.8 s for the upload route), which the first measured upload or page would pay.
import path from "node:path";
import { ROOT } from "./server.mjs";
import { streamUpload } from "./upload.mjs";

const TINY_RUN = path.join(ROOT, "test/fixtures/aiperf/qwen-c4__profile_export.jsonl");

async function ok(url, init) {
  const res = await fetch(url, init);
  await res.arrayBuffer();
  if (!res.ok) throw new Error(`warm-up ${init?.method ?? "GET"} ${url}: ${res.status}`);
}

/** The run list, health, a tiny upload, its page, summary, charts and request list, then its deletion. */
export async function warmUp(baseUrl) {
  await ok(`${baseUrl}/api/health`);
  await ok(`${baseUrl}/api/runs`);
  const { body } = await streamUpload(baseUrl, [TINY_RUN], { name: "bench warm-up" });
  const run = `${baseUrl}/api/runs/${body.id}`;
  await ok(`${baseUrl}/runs/${body.id}?view=latency`);
  await ok(run);
  await ok(`${run}/charts/aiperf-distribution`);
  // The request list answers 409 drilldown_building until the run's request file is stored.
  for (let i = 0; i < 600; i++) {
    const res = await fetch(run);
    const summary = await res.json();
    if (!("drilldownReadyAt" in summary) || summary.drilldownReadyAt !== null) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  await ok(`${run}/aiperf/requests?sort=e2e&order=desc&limit=10`);
  await ok(run, { method: "DELETE" });
}
