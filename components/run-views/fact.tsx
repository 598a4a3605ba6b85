/** One labelled figure of a view's fact line (inside a `<dl>`): "label value". */
export function Fact({ label, value }: { label: string; value: string }) {
  return (
    // The label keeps its width: a long value wraps under itself, never squeezing the label onto
    // two lines beside it (a phone's "cache / stopped").
    <div className="flex min-w-0 gap-1">
      <dt className="shrink-0 text-muted">{label}</dt>
      <dd className="min-w-0 break-words font-medium">{value}</dd>
    </div>
  );
}
