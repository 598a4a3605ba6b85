import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { useAppAndBrowser } from "./harness";

/**
 * Tables of figures say which window, requests and method they use, in the same vocabulary as
 * the charts (components/charts/definitions.ts): the latency statistics, aiperf's own summary
 * beside a sample of records, the slowest requests, the offload tables and TensorRT-LLM's
 * step-level tables, on the example runs.
 */
describe("definitions under tables", () => {
  const t = useAppAndBrowser({ env: { RUNLENS_EXAMPLES: "on" } });

  async function runId(re: RegExp): Promise<string> {
    const { runs } = (await (await fetch(`${t.app.url}/api/runs?limit=200`)).json()) as {
      runs: Array<{ id: string; name: string }>;
    };
    const run = runs.find((r) => re.test(r.name));
    if (!run) throw new Error(`no example run matches ${re}`);
    return run.id;
  }

  /** The definition line of each named table: its text, or null when the table has none. */
  async function definitions(page: Page, tables: string[]): Promise<Record<string, string | null>> {
    const out: Record<string, string | null> = {};
    for (const id of tables) {
      const table = page.getByTestId(id);
      await table.waitFor({ timeout: 30_000 });
      out[id] = await table.evaluate(
        (el) => el.closest("[data-table-card]")?.querySelector("[data-definition]")?.textContent ?? null,
      );
    }
    return out;
  }

  const cases: Array<[string, RegExp, string, string[]]> = [
    [
      "aiperf sample of records",
      /Qwen3-0\.6B · concurrency 4$/,
      "latency",
      ["latency-stats", "slowest-requests"],
    ],
    ["aiperf with every record", /mock-llama-8b/, "latency", ["latency-stats", "slowest-requests"]],
    ["vLLM tiered offload", /CPU and fs tiers/, "offload", ["offload-endpoint-table", "offload-tier-table"]],
    ["TensorRT-LLM steps", /300 requests/, "breakdown", ["step-stats"]],
    ["TensorRT-LLM latency", /300 requests/, "latency", ["trtllm-latency-stats"]],
    ["TensorRT-LLM request steps", /300 requests/, "breakdown&req=1", ["request-steps"]],
  ];
  for (const [what, re, view, tables] of cases)
    it(`${what}: ${tables.join(", ")}`, async () => {
      const page = await t.browser.newPage({ viewport: { width: 1440, height: 900 } });
      await page.goto(`${t.app.url}/runs/${await runId(re)}?view=${view}`);
      const found = await definitions(page, tables);
      for (const id of tables) {
        // One sentence: which window, which requests; the method; never a list of keys, and a
        // note after the definition joins the sentence instead of following its full stop.
        expect(found[id], id).toMatch(/^[A-Z][^·]+; .+\.$/);
        expect(found[id], id).not.toMatch(/^window: |\.;/);
      }
      await page.close();
    });
});
