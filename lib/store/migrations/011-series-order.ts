import type { Migration } from "kysely";
import type { DialectName } from "../dialect";
import { schemaMigration } from "./create-table";

/**
 * A run's order key in its series (docs/metrics.md §Regressions): a number, a version or an ISO
 * date the uploader sets, stored as given; runs without one are ordered by upload time. The
 * order is applied when a series is read (lib/api/series-order.ts), since versions and numbers
 * do not sort as text.
 */
export function seriesOrderMigration(dialect: DialectName): Migration {
  return schemaMigration(dialect, async ({ t, addColumn }) => {
    await addColumn("runs", "series_order", t.text);
  });
}
