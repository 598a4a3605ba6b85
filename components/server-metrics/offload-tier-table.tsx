"use client";

import { DataTable } from "@/components/charts/data-table";
import { SERVER_COUNTERS } from "@/components/charts/definitions";
import { bytesIn, formatRate } from "@/lib/format-number";
import type { SmEndpointDetail, SmOffloadTier } from "@/lib/api/server-metrics-charts";

/** vLLM tiered offloading: traffic between the CPU tier and each secondary tier, per endpoint. */
export function OffloadTierTable({ rows }: { rows: SmEndpointDetail[] }) {
  const tiers = rows.flatMap((r) => r.offloadTiers.map((t): [string, SmOffloadTier] => [r.endpoint, t]));
  if (tiers.length === 0) return null;
  // One unit for the bytes and one for the bandwidths, from the largest of each.
  const bytes = bytesIn(tiers.flatMap(([, t]) => [t.writeBytes, t.readBytes]));
  const rates = bytesIn(tiers.flatMap(([, t]) => [t.writeBandwidth, t.readBandwidth]));
  const rate = `${rates.unit}/s`;
  return (
    <DataTable
      framed
      testId="offload-tier-table"
      rows={tiers}
      rowKey={([ep, t]) => `${ep} ${t.tier}`}
      definition={{
        ...SERVER_COUNTERS,
        method:
          "per-tier byte and transfer-time counter deltas over the window; bandwidth = bytes / seconds spent transferring; chunk hit rate = chunk hits / chunk lookups",
      }}
      before={
        <p className="px-3 pt-2 text-sm font-medium">
          Tiered offload{" "}
          <span className="text-muted">
            — CPU tier ↔ secondary tier, {bytes.unit} and {rate} over transfer time
          </span>
        </p>
      }
      columns={[
        { header: "endpoint", cell: ([ep]) => ep },
        { header: "tier", cell: ([, t]) => t.tier },
        { header: `CPU → tier (${bytes.unit})`, num: true, cell: ([, t]) => bytes.value(t.writeBytes) },
        { header: rate, num: true, cell: ([, t]) => rates.value(t.writeBandwidth) },
        { header: `tier → CPU (${bytes.unit})`, num: true, cell: ([, t]) => bytes.value(t.readBytes) },
        { header: rate, num: true, cell: ([, t]) => rates.value(t.readBandwidth) },
        {
          header: "chunk hit rate",
          num: true,
          cell: ([, t]) => (t.hitRate === null ? "not exported" : formatRate(t.hitRate)),
        },
      ]}
    />
  );
}
