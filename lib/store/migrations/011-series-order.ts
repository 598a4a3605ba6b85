import type { Kysely, Migration } from "kysely";
import { columnTypes, type DialectName } from "../dialect";

/**
 * A run's order key in its series (docs/metrics.md §Regressions): a number, a version or an ISO
 * date the uploader sets, stored as given; runs without one are ordered by upload time. The
 * order is applied when a series is read (lib/api/series-order.ts), since versions and numbers
 * do not sort as text.
 */
export function seriesOrderMigration(dialect: DialectName): Migration {
  const t = columnTypes(dialect);
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable("runs").addColumn("series_order", t.text).execute();
    },
  };
}
