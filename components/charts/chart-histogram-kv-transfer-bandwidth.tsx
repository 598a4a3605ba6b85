"use client";

import { ChartContainer } from "@/components/charts/chart-container";
import { binRange, markRowsRoom, XMarks } from "@/components/charts/reference-marks";
import { useRunChart } from "@/components/charts/use-run-chart";
import { formatNumber, plural } from "@/lib/format-number";

import { TRTLLM_COMPLETED } from "@/components/charts/definitions";
import { TRTLLM_CHARTS } from "@/lib/api/chart-catalog";

type Props = { runId: string; height?: number };
const gbps = (v: number) => `${formatNumber(v, 2)} GB/s`;

/**
 * Per-request KV-cache transfer bandwidth (TensorRT-LLM perf metrics: kv_cache_size over the
 * transfer's duration). Self-contained: give it a run id; it renders nothing when the run has
 * no transfers.
 */
export function ChartHistogramKvTransferBandwidth({ runId, height = 260 }: Props) {
  const p = useRunChart(runId, TRTLLM_CHARTS.kvTransferBandwidth).data;
  if (!p || p.count === 0) return null;
  const rows = p.bins.map((b) => ({ ...b, mid: (b.lo + b.hi) / 2 }));
  return (
    <ChartContainer
      title="KV transfer bandwidth"
      description={`${plural(p.count, "transfer")}, ctx → gen worker, per request: kv_cache_size / transfer time (bytes over time, not over the run), GB/s = 10⁹ bytes/s`}
      definition={{
        ...TRTLLM_COMPLETED,
        requests: "requests whose transfer has both its bytes and its duration",
        method: "bytes / transfer time per request (the link while it moved), not bytes / run time",
      }}
      csvRows={() => p.bins.map((b) => ({ fromGBps: b.lo, toGBps: b.hi, transfers: b.count }))}
      exportName="kv-transfer-bandwidth"
      missing="No KV transfer has both its bytes and its duration: it needs disaggregated TensorRT-LLM perf metrics with KV transfer timings."
      height={height}
      kind="bar"
      data={rows}
      barCategoryGap={1}
      // The p50's name sits in a row above the bars, not on the tallest one.
      marginTop={
        p.stats
          ? markRowsRoom([{ x: p.stats.p50, label: "p50" }], [p.bins[0].lo, p.bins[p.bins.length - 1].hi])
          : 0
      }
      series={{ count: { label: "transfers", color: "var(--seg-gen-kv-transfer)" } }}
      // The axis spans the bins' edges: on an automatic domain the first bar, centred on its bin's
      // middle, reached left over the y-axis ticks.
      x={{
        key: "mid",
        numeric: true,
        domain: [p.bins[0].lo, p.bins[p.bins.length - 1].hi],
        title: "transfer bandwidth",
        unit: "GB/s",
        format: gbps,
      }}
      y={{ title: "transfers", integers: true }}
      tooltip={{ label: binRange("lo", "hi", gbps) }}
    >
      {p.stats ? (
        <XMarks
          marks={[{ x: p.stats.p50, label: "p50", color: "var(--fg)" }]}
          domain={[p.bins[0].lo, p.bins[p.bins.length - 1].hi]}
        />
      ) : null}
    </ChartContainer>
  );
}
