"use client";

import type { EndpointReuse } from "@/lib/api/turns";
import { formatCount, formatNumber } from "@/lib/format-number";
import { endpointReuseTotals } from "@/lib/metrics/turn-chart-rows";
import { Fact } from "./fact";

const pct = (v: number) => `${formatNumber(v * 100, 1)}%`;

/** Whole run or one prefill-side endpoint, for the reuse-over-time stack. */
export function EndpointReusePicker({
  endpoints,
  value,
  onChange,
}: {
  endpoints: readonly EndpointReuse[];
  value: string;
  onChange: (endpoint: string | null) => void;
}) {
  return (
    <select
      aria-label="Reuse stack for"
      className="input py-0.5 text-xs"
      data-testid="interval-reuse-endpoint"
      value={value}
      onChange={(e) => onChange(e.target.value === "all" ? null : e.target.value)}
    >
      <option value="all">whole run</option>
      {endpoints.map((e) => (
        <option key={e.endpoint} value={e.endpoint}>
          {e.endpoint}
        </option>
      ))}
    </select>
  );
}

/** One endpoint's figures above its stack: the shares of its own prompt tokens. */
export function EndpointReuseFacts({ data, external }: { data: EndpointReuse; external: boolean }) {
  const t = endpointReuseTotals(data);
  const share = (v: number) => (t.prompt > 0 ? pct(v / t.prompt) : "—");
  return (
    <dl className="flex flex-wrap gap-x-6 gap-y-1 text-sm" data-testid="interval-reuse-facts">
      <Fact label={`${data.endpoint}'s prompt tokens`} value={formatCount(t.prompt)} />
      <Fact label="GPU cache" value={share(t.gpu)} />
      <Fact label="host / external" value={external ? share(t.external) : "not counted"} />
      <Fact label="computed" value={share(t.computed)} />
      <Fact label="possible reuse" value="whole run only" />
    </dl>
  );
}
