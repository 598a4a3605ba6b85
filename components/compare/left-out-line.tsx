/**
 * One line naming the metrics no compared run has. They get no row and no chart (a row of "—"
 * and an empty frame said nothing), but a reader should know they were looked for.
 */
export function LeftOutLine({ absent }: { absent: string[] }) {
  if (absent.length === 0) return null;
  return (
    <p className="text-xs text-muted" data-testid="compare-left-out">
      Left out, since no compared run has {absent.length === 1 ? "it" : "them"}: {absent.join(", ")}.
    </p>
  );
}
