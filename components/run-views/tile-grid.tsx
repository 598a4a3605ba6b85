import type { Tile } from "./overview-request-tiles";

/**
 * The headline tiles in their grid: the Overview's, and a view's preview of the same figures
 * (components/run/view-preview.tsx). `marked` gives each tile its test id and tone attributes; the
 * preview leaves them off, so a page holding both has one tile of each id.
 */
export function TileGrid({
  tiles,
  testId,
  marked = false,
}: {
  tiles: Tile[];
  testId: string;
  marked?: boolean;
}) {
  return (
    <div className="grid grid-cols-2 gap-3 md:grid-cols-4" data-testid={testId}>
      {tiles.map((t) => (
        <div
          key={t.label}
          className={`rounded-lg border bg-card p-3 ${t.tone === "danger" ? "border-danger border-l-4" : "border-border"}`}
          title={t.definition}
          data-testid={marked ? t.testId : undefined}
          data-tone={marked ? t.tone : undefined}
        >
          <div className="text-xs text-muted">{t.label}</div>
          <div className={`text-lg font-semibold tabular-nums ${t.tone === "danger" ? "text-danger" : ""}`}>
            {t.value}
          </div>
          {t.hint ? <div className="text-xs text-muted">{t.hint}</div> : null}
        </div>
      ))}
    </div>
  );
}
