/**
 * Property-based: every family parser that takes a parsed JSON value or a text gets arbitrary
 * values and strings (and near-miss records) — it returns a result or a reason, never throws.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseGpuSample } from "@/lib/formats/aiperf-gpu-telemetry";
import { readInputConfig } from "@/lib/formats/aiperf-input-config";
import { parseAiperfRecord } from "@/lib/formats/aiperf-records";
import { parseSummaryJson } from "@/lib/formats/aiperf-summary";
import { parseSummaryCsv } from "@/lib/formats/aiperf-summary-csv";
import { parseTimeslicesCsv, parseTimeslicesJson } from "@/lib/formats/aiperf-timeslices";
import { collectorsFromJson, collectorsFromYaml } from "@/lib/formats/engine-config";
import { WarningLog } from "@/lib/formats/json-lines";
import { parsePromLabels } from "@/lib/formats/prometheus-text";
import { splitCsvRecord } from "@/lib/formats/csv";
import { parseServerMetricsJson } from "@/lib/formats/server-metrics-json";
import { parseTrtllmRecord } from "@/lib/formats/trtllm-record";

/** Values that look like the records these parsers expect, with any field possibly wrong. */
const nearMiss = fc.oneof(
  fc.record(
    {
      metadata: fc.oneof(
        fc.jsonValue({ maxDepth: 2 }),
        fc.record(
          { request_start_ns: fc.jsonValue({ maxDepth: 1 }), benchmark_phase: fc.jsonValue({ maxDepth: 1 }) },
          { requiredKeys: [] },
        ),
      ),
      metrics: fc.oneof(
        fc.jsonValue({ maxDepth: 2 }),
        fc.dictionary(
          fc.constantFrom("time_to_first_token", "request_latency", "inter_token_latency", "error"),
          fc.jsonValue({ maxDepth: 2 }),
        ),
      ),
    },
    { requiredKeys: [] },
  ),
  fc.record(
    {
      request_id: fc.jsonValue({ maxDepth: 1 }),
      perf_metrics: fc.oneof(
        fc.jsonValue({ maxDepth: 2 }),
        fc.record(
          {
            timing_metrics: fc.dictionary(
              fc.constantFrom("arrival_time", "first_token_time", "last_token_time", "kv_cache_size"),
              fc.jsonValue({ maxDepth: 1 }),
            ),
          },
          { requiredKeys: [] },
        ),
      ),
      ctx_perf_metrics: fc.jsonValue({ maxDepth: 2 }),
      gen_perf_metrics: fc.jsonValue({ maxDepth: 2 }),
      record: fc.jsonValue({ maxDepth: 2 }),
      time_breakdown_metrics: fc.jsonValue({ maxDepth: 3 }),
    },
    { requiredKeys: [] },
  ),
  fc.record(
    {
      metrics: fc.jsonValue({ maxDepth: 3 }),
      summary: fc.jsonValue({ maxDepth: 2 }),
      timeslices: fc.jsonValue({ maxDepth: 2 }),
      input_config: fc.jsonValue({ maxDepth: 3 }),
    },
    { requiredKeys: [] },
  ),
  fc.anything({ maxDepth: 3 }),
);

const text = fc.oneof(
  fc.string({ maxLength: 300 }),
  fc
    .array(
      fc.array(fc.string({ maxLength: 12 }), { maxLength: 6 }).map((cells) => cells.join(",")),
      { maxLength: 10 },
    )
    .map((rows) => ["Metric,avg,p50", ...rows].join("\n")),
  fc
    .array(fc.string({ maxLength: 20 }), { maxLength: 10 })
    .map((rows) => ["Timeslice,Metric,Unit,Stat,Value", ...rows].join("\n")),
  fc
    .array(
      fc.tuple(
        fc.constantFrom("return_perf_metrics", "kv_cache_config", "  enable_block_reuse", "- x"),
        fc.string({ maxLength: 10 }),
      ),
      { maxLength: 8 },
    )
    .map((kv) => kv.map(([k, v]) => `${k}: ${v}`).join("\n")),
);

const noThrow = (fn: () => unknown) => expect(fn).not.toThrow();

describe("family parsers on arbitrary input", () => {
  it("value parsers return a result or a reason", () => {
    fc.assert(
      fc.property(nearMiss, (v) => {
        const raw = JSON.stringify(v) ?? "null";
        noThrow(() => parseTrtllmRecord(v));
        noThrow(() => parseAiperfRecord(v, raw));
        noThrow(() => parseGpuSample(v, raw));
        noThrow(() => parseSummaryJson(v));
        noThrow(() => parseServerMetricsJson(v, new WarningLog()));
        noThrow(() => readInputConfig(v));
        noThrow(() => collectorsFromJson(v));
        noThrow(() => parseTimeslicesJson(v));
      }),
      { numRuns: 1500 },
    );
  });

  it("text parsers return a result", () => {
    fc.assert(
      fc.property(text, (s) => {
        noThrow(() => parseSummaryCsv(s));
        noThrow(() => parseTimeslicesCsv(s));
        noThrow(() => collectorsFromYaml(s));
        noThrow(() => splitCsvRecord(s));
        noThrow(() => parsePromLabels(s));
      }),
      { numRuns: 1500 },
    );
  });
});
