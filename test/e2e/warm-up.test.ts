/**
 * A fresh server renders one stored run's page right after it starts (bin/warm-routes.mjs), so
 * the first visit after a restart does not load and compile the run page's modules itself
 * (docs/performance.md, "Timeline first paint"). The built app on real sockets: a run is
 * uploaded, the server restarted on the same data, and its log and its first page read.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { apiUpload, startApp, type RunningApp } from "./harness";
import { waitUntil } from "../helpers/wait.mjs";
import { ROOT } from "../helpers/next-server.mjs";

const RUN = path.join(ROOT, "test/fixtures/aiperf/qwen-c4__profile_export.jsonl");
const WARMED = /warmed the run page in \d+ ms \(200\)/;

async function logged(app: RunningApp, re: RegExp, waitMs = 60_000): Promise<boolean> {
  const until = Date.now() + waitMs;
  while (Date.now() < until) {
    if (re.test(app.logs())) return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return false;
}

let apps: RunningApp[] = [];
let dataDir = "";
afterEach(async () => {
  for (const a of apps.reverse()) await a.stop();
  apps = [];
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("warming the run page at start", () => {
  it("renders the newest run's page once the server listens, and not when turned off", async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "runlens-warm-up-"));
    const first = await startApp({ dataDir });
    apps.push(first);
    // An empty store has no page to render: nothing is warmed, and nothing fails.
    await new Promise((r) => setTimeout(r, 1500));
    expect(first.logs()).not.toMatch(/warmed/);
    const { id } = await apiUpload(first.url, [{ path: RUN }]);
    // The upload answers with its summary; the timeline needs the drill-down, built after it.
    await waitUntil(
      `run ${id}'s drill-down`,
      async () =>
        ((await (await fetch(`${first.url}/api/runs/${id}`)).json()) as { drilldownReadyAt: string | null })
          .drilldownReadyAt,
      { intervalMs: 200, output: first.logs },
    );
    await first.stop();
    apps = [];

    const again = await startApp({ dataDir });
    apps.push(again);
    expect(await logged(again, WARMED)).toBe(true);
    // The page a user then opens is served as it would be without the warm-up.
    const page = await fetch(`${again.url}/runs/${id}?view=timeline`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("data-timeline-canvas");
    await again.stop();
    apps = [];

    const off = await startApp({ dataDir, env: { RUNLENS_WARM_UP: "off" } });
    apps.push(off);
    await new Promise((r) => setTimeout(r, 1500));
    expect(off.logs()).not.toMatch(/warmed/);
  }, 480_000); // three server starts and an upload: minutes on a loaded machine
});
