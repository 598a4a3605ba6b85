import type { z } from "zod";
import { formatCount } from "@/lib/format-number";
import type { errorsPayloadSchema } from "@/lib/api/aiperf-charts";

/** Each error type with its count, when it first happened, and its first distinct messages. */
export function ErrorExamples({ data }: { data: z.infer<typeof errorsPayloadSchema> }) {
  return (
    <div className="overflow-x-auto rounded-lg border border-border bg-card">
      <table className="table-base" data-testid="error-examples">
        <thead>
          <tr>
            <th>Type</th>
            <th className="num">Code</th>
            <th className="num">Requests</th>
            <th className="num">First at</th>
            <th>First examples</th>
          </tr>
        </thead>
        <tbody>
          {data.groups.map((g) => (
            <tr key={`${g.type}-${g.code}`}>
              <td className="font-medium">{g.type}</td>
              <td className="num">{g.code ?? "—"}</td>
              <td className="num">{formatCount(g.count)}</td>
              <td className="num">{g.firstAtMs === null ? "—" : `${(g.firstAtMs / 1000).toFixed(2)} s`}</td>
              <td className="text-xs">
                {g.examples.map((e, i) => (
                  <div key={i} className="break-all font-mono">
                    {e || "(no message)"}
                  </div>
                ))}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {data.summary.length > 0 ? (
        <p className="p-3 text-xs text-muted">
          aiperf&apos;s own error summary:{" "}
          {data.summary.map((s) => `${s.type}${s.code !== null ? ` ${s.code}` : ""} × ${s.count}`).join(", ")}
        </p>
      ) : null}
    </div>
  );
}
