import type { z } from "zod";
import { DataTable } from "@/components/charts/data-table";
import { formatCount } from "@/lib/format-number";
import type { errorsPayloadSchema } from "@/lib/api/aiperf-charts";

type Errors = z.infer<typeof errorsPayloadSchema>;
type Group = Errors["groups"][number];

/** Each error type with its count, when it first happened, and its first distinct messages. */
export function ErrorExamples({ data }: { data: Errors }) {
  const summary = data.summary.map((s) => `${s.type}${s.code !== null ? ` ${s.code}` : ""} × ${s.count}`);
  return (
    <DataTable<Group>
      framed
      testId="error-examples"
      rows={data.groups}
      rowKey={(g) => `${g.type}-${g.code}`}
      columns={[
        { header: "Type", className: "font-medium", cell: (g) => g.type },
        { header: "Code", num: true, cell: (g) => g.code ?? "—" },
        { header: "Requests", num: true, cell: (g) => formatCount(g.count) },
        {
          header: "First at",
          num: true,
          cell: (g) => (g.firstAtMs === null ? "—" : `${(g.firstAtMs / 1000).toFixed(2)} s`),
        },
        {
          header: "First examples",
          className: "text-xs",
          cell: (g) =>
            g.examples.map((e, i) => (
              <div key={i} className="break-all font-mono">
                {e || "(no message)"}
              </div>
            )),
        },
      ]}
      after={
        summary.length > 0 ? (
          <p className="p-3 text-xs text-muted">aiperf&apos;s own error summary: {summary.join(", ")}</p>
        ) : null
      }
    />
  );
}
