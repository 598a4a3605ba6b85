"use client";

import { DataTable } from "@/components/charts/data-table";
import { SERVER_COUNTERS } from "@/components/charts/definitions";
import { formatNumber, formatRate } from "@/lib/format-number";
import type { SmEndpointDetail, SmOffloadTier } from "@/lib/api/server-metrics-charts";

const gb = (v: number | null) => (v === null ? "—" : formatNumber(v / 1e9, 3));

/** vLLM tiered offloading: traffic between the CPU tier and each secondary tier, per endpoint. */
export function OffloadTierTable({ rows }: { rows: SmEndpointDetail[] }) {
  const tiers = rows.flatMap((r) => r.offloadTiers.map((t): [string, SmOffloadTier] => [r.endpoint, t]));
  if (tiers.length === 0) return null;
  return (
    <DataTable
      framed
      testId="offload-tier-table"
      rows={tiers}
      rowKey={([ep, t]) => `${ep} ${t.tier}`}
      definition={{
        ...SERVER_COUNTERS,
        method:
          "per-tier byte and transfer-time counter deltas over the window; GB/s = bytes / seconds spent transferring; chunk hit rate = chunk hits / chunk lookups",
      }}
      before={
        <p className="px-3 pt-2 text-sm font-medium">
          Tiered offload{" "}
          <span className="text-muted">— CPU tier ↔ secondary tier, GB and GB/s over transfer time</span>
        </p>
      }
      columns={[
        { header: "endpoint", cell: ([ep]) => ep },
        { header: "tier", cell: ([, t]) => t.tier },
        { header: "CPU → tier (GB)", num: true, cell: ([, t]) => gb(t.writeBytes) },
        { header: "GB/s", num: true, cell: ([, t]) => gb(t.writeBandwidth) },
        { header: "tier → CPU (GB)", num: true, cell: ([, t]) => gb(t.readBytes) },
        { header: "GB/s", num: true, cell: ([, t]) => gb(t.readBandwidth) },
        {
          header: "chunk hit rate",
          num: true,
          cell: ([, t]) => (t.hitRate === null ? "not exported" : formatRate(t.hitRate)),
        },
      ]}
    />
  );
}
