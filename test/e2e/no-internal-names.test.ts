/**
 * No internal identifier on screen (issue 29, review item 20): every tab of every example run,
 * at 1440 px in light, is read as a person sees it, and a snake_case, camelCase or dotted word
 * in its visible text fails the test unless it is in a code element, a definition (a chart's or a
 * table's definition line, `<dfn>`), text read out to a screen reader only, or a tooltip, or is
 * one of the producer's own names listed below on purpose. One server, one page reused.
 */
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { gotoHydrated, seededExampleRuns, useAppAndBrowser } from "./harness";

/**
 * The producer's own names, shown on purpose: a reader types them, greps for them or looks for
 * them in their own files, so words would hide what to look for.
 */
const PRODUCER_NAMES: Record<string, readonly string[]> = {
  // Files a view asks to upload, and the files listed on the Files view: their names on disk.
  "file names": [
    "profile_export",
    "profile_export_aiperf",
    "profile_export_aiperf_timeslices",
    "server_metrics_export",
    "gpu_telemetry_export",
    "perf_metrics",
    "server.log",
    "inputs.json",
    "tar.gz",
    "bench_serving",
    "dynamo_frontend_metrics",
    "dynamo_trtllm_worker_metrics",
  ],
  // Server metrics named in a view's "how measured" or "upload … with" note: the series to look
  // for in a scrape.
  "metric names": [
    "kv_offload_store_bytes",
    "kv_offload_load_bytes",
    "kv_offload_total_bytes",
    "kv_offload_bytes_gpu_to_cpu",
    "kv_offload_bytes_cpu_to_gpu",
    "load_bytes",
    "kv_cache_offload",
    "cache_config_info",
    "prefix_cache_hits",
    "prefix_cache_queries",
    "external_prefix_cache_hits",
    "external_prefix_cache_queries",
    "kv_cache_usage_perc",
    "max_total_num_tokens",
    "token_usage",
    "cached_tokens",
    "prompt_tokens_by_source",
    "usage_prompt_cache_read_tokens",
    "trtllm_prompt_cached_tokens",
    "trtllm_prompt_tokens",
    "trtllm_kv_cache_hit_rate",
    "trtllm_kv_cache_max_blocks",
    "trtllm_kv_cache_utilization",
    "tokens_per_block",
    "dynamo_component_router_kv_hit_rate",
    "inference_extension_prefix_indexer_hit_ratio",
    "theoretical_prefix_cache_hit",
  ],
  // Record fields a note names so a reader can check their own records (the join keys of a
  // disaggregated request, the fields a multi-turn view needs, the stamps a segment spans).
  "record fields": [
    "conversation_id",
    "turn_index",
    "x_correlation_id",
    "parent_correlation_id",
    "agent_context",
    "agent_depth",
    "hash_ids",
    "disagg_request_id",
    "ctx_request_id",
    "usage.prompt_tokens_details.cached_tokens",
    "prompt_tokens",
    "prompt_cached_tokens",
    "total_osl",
    "request_count",
    "benchmark_duration",
    "kv_cache_metrics",
    "kv_cache_size",
    "step_metrics",
    "time_breakdown_metrics",
    "first_iter",
    "last_iter",
    "start_time",
    "end_time",
    "last_token_time",
    "server_first_token_time",
    "disagg_server_arrival_time",
    "disagg_server_first_token_time",
    "total_blocks",
  ],
  // TensorRT-LLM's time-breakdown segments, named as its perf metrics name them.
  "segment names": [
    "ctx_preprocessing",
    "ctx_queue",
    "ctx_processing",
    "ctx_postprocessing",
    "disagg_preprocessing",
    "disagg_relay",
    "disagg_postprocessing",
    "gen_preprocessing",
    "gen_queue_wait",
    "gen_kv_transfer",
    "gen_post_transfer",
    "gen_postprocessing",
  ],
  // Settings as they are written in an engine's configuration or environment.
  settings: [
    "return_perf_metrics",
    "enable_iter_perf_stats",
    "publish_kv_events",
    "DYN_LOG",
    "block_size",
    "gpu_memory_utilization",
    "prefix_caching",
    "publish_events_and_metrics",
  ],
  // Not identifiers: a product's and a unit's own spelling, Latin abbreviations.
  spellings: ["vLLM", "kJ", "e.g", "i.e"],
};
const ALLOWED = new Set(Object.values(PRODUCER_NAMES).flat());

/**
 * A listed name, or a listed file's name with its extension ("gpu_telemetry_export.jsonl"), or
 * the start of one a narrow label cut short ("perf_metri…", "trtllm_kv_cache_…").
 */
function allowed(word: string): boolean {
  const stem = word.replace(/\.(jsonl|json|csv|prom|log|out|yaml|yml|txt|gz)$/, "");
  if (ALLOWED.has(word) || ALLOWED.has(stem)) return true;
  return stem.length >= 8 && [...ALLOWED].some((n) => n.startsWith(stem));
}

/** snake_case (any case), camelCase, or dotted lower-case words ("input_config.input.random_seed"). */
const IDENTIFIER =
  /[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+(?:\.[A-Za-z0-9_]+)*|\b[a-z]+[A-Z][A-Za-z0-9]*|\b[a-z][a-z0-9_]*(?:\.[a-z][a-z0-9_]*)+/g;

/** Where a producer's name is at home: code, definitions, screen-reader text. */
const EXEMPT = "code, kbd, samp, pre, dfn, [data-definition], [data-testid=chart-definition], .sr-only";

/** Each visible text node's text, outside the exempt elements (tooltips are attributes, not read). */
async function visibleTexts(page: Page): Promise<string[]> {
  return page.evaluate((exempt) => {
    const out: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const text = n.textContent?.trim();
      const el = n.parentElement;
      if (!text || !el || el.closest(exempt) || el.closest("script, style, noscript, template")) continue;
      if (!el.checkVisibility({ visibilityProperty: true, opacityProperty: false })) continue;
      out.push(text);
    }
    return out;
  }, EXEMPT);
}

describe("no internal names on screen", () => {
  const t = useAppAndBrowser({ env: { RUNLENS_EXAMPLES: "on" } });

  it("every tab of every example run, at 1440 px light, writes words: no snake_case, camelCase or dotted key outside code and definitions", async () => {
    const runs = await seededExampleRuns(t.app.url);
    const context = await t.browser.newContext({
      viewport: { width: 1440, height: 900 },
      colorScheme: "light",
    });
    const page = await context.newPage();
    const found: string[] = [];
    const keyLists: string[] = [];
    let views = 0;
    for (const run of runs) {
      await gotoHydrated(page, `${t.app.url}/runs/${run.id}`);
      const tabs = await page.$$eval("[role=tab][data-view]", (ts) =>
        ts.map((x) => x.getAttribute("data-view")!),
      );
      expect(tabs.length, run.name).toBeGreaterThan(0);
      for (const view of tabs) {
        await gotoHydrated(page, `${t.app.url}/runs/${run.id}?view=${view}`);
        await page.getByRole("tabpanel").waitFor({ timeout: 60_000 });
        // The view's data has come: no chart or table still loading.
        await page.waitForLoadState("networkidle", { timeout: 60_000 });
        views++;
        const where = `${run.name} · ${view}`;
        for (const text of await visibleTexts(page))
          for (const m of text.matchAll(IDENTIFIER))
            if (!allowed(m[0])) found.push(`${where}: "${m[0]}" in "${text.slice(0, 160)}"`);
        // A chart's definition line is a sentence, not a list of keys ("window: … · requests: … ·
        // method: …"); a colon inside a sentence ("10 of 64 requests: the records …") is prose.
        for (const d of await page.getByTestId("chart-definition").allTextContents())
          if (/^\s*(window|requests|method): |\s·\s(window|requests|method): /.test(d))
            keyLists.push(`${where}: "${d.slice(0, 120)}"`);
      }
    }
    await context.close();
    expect(views).toBeGreaterThan(50);
    expect([...new Set(found)]).toEqual([]);
    expect([...new Set(keyLists)]).toEqual([]);
  }, 900_000);
});
