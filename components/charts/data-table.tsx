import type { ReactNode } from "react";
import { definitionText, type FigureDefinition } from "./definitions";

export interface Column<R> {
  header: ReactNode;
  /** A number column: right-aligned, tabular figures. */
  num?: boolean;
  className?: string | ((row: R) => string);
  cell: (row: R, index: number) => ReactNode;
  /** Attributes of the cell the browser tests and the CSS read (data-stat, data-verdict). */
  attrs?: (row: R) => Record<string, string>;
}

export interface DataTableProps<R> {
  rows: readonly R[];
  columns: ReadonlyArray<Column<R> | null | false>;
  rowKey: (row: R, index: number) => string;
  rowAttrs?: (row: R) => Record<string, string>;
  testId?: string;
  /** Bordered card with horizontal scrolling, for a table that stands alone in a view. */
  framed?: boolean;
  className?: string;
  /** Shown inside the frame above and below the table. */
  before?: ReactNode;
  after?: ReactNode;
  /** What the table holds, for screen readers (not drawn). */
  caption?: string;
  /** Which window, requests and method its figures use: one line under the table, as on a chart. */
  definition?: FigureDefinition;
  /** Said after the definition on the same line ("one time unit per row"). */
  definitionNote?: string;
  /**
   * On a phone each row is a block of lines, its first cell on top and each other cell after its
   * column's name (a header given as text), instead of columns read across: a few columns of
   * words (a run's name per column) then never scroll sideways inside the box.
   */
  stacked?: boolean;
}

const classOf = <R,>(c: Column<R>, row: R) =>
  [c.num ? "num" : "", typeof c.className === "function" ? c.className(row) : (c.className ?? "")]
    .join(" ")
    .trim() || undefined;

/** The one table of the views: a header row from the columns, one row per item. */
export function DataTable<R>({
  rows,
  columns,
  rowKey,
  rowAttrs,
  testId,
  framed,
  className,
  before,
  after,
  caption,
  definition,
  definitionNote,
  stacked,
}: DataTableProps<R>) {
  const cols = columns.filter((c): c is Column<R> => !!c);
  // A stacked row's cells say their column's name before them on a phone (app/globals.css).
  const label = (c: Column<R>, j: number) =>
    stacked && j > 0 && typeof c.header === "string" && c.header !== "" ? { "data-label": c.header } : {};
  const table = (
    <table
      className={`table-base ${stacked ? "table-stacked" : ""} ${className ?? ""}`
        .replace(/\s+/g, " ")
        .trim()}
      data-testid={testId}
    >
      {caption ? <caption className="sr-only">{caption}</caption> : null}
      <thead>
        <tr>
          {cols.map((c, i) => (
            <th key={i} className={c.num ? "num" : undefined}>
              {c.header}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((r, i) => (
          <tr key={rowKey(r, i)} {...rowAttrs?.(r)}>
            {cols.map((c, j) => (
              <td key={j} className={classOf(c, r)} {...label(c, j)} {...c.attrs?.(r)}>
                {c.cell(r, i)}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
  const says = definition ? (
    <TableDefinition
      definition={definition}
      note={definitionNote}
      className={framed ? "px-3 pb-2" : "mt-1"}
    />
  ) : null;
  // A table wider than a phone scrolls inside its own box, never the page.
  if (!framed)
    return (
      <div className="max-w-full overflow-x-auto" data-table-card="">
        {table}
        {says}
      </div>
    );
  return (
    <div className="overflow-x-auto rounded-lg border border-border bg-card" data-table-card="">
      {before}
      {table}
      {says}
      {after}
    </div>
  );
}

/** A table's definition line: the chart kit's vocabulary (definitions.ts), marked for the browser tests. */
export function TableDefinition({
  definition,
  note,
  className = "",
}: {
  definition: FigureDefinition;
  note?: string;
  className?: string;
}) {
  return (
    <p className={`text-xs text-muted ${className}`.trim()} data-definition="">
      {note ? `${definitionText(definition).replace(/\.\s*$/, "")}; ${note}.` : definitionText(definition)}
    </p>
  );
}
