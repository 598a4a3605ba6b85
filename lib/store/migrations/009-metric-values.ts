import type { Migration } from "kysely";
import type { DialectName } from "../dialect";
import { schemaMigration } from "./create-table";

/**
 * Per-request values of a run's verdict metrics (docs/metrics.md §Regressions): one row per run
 * and metric, `values` the `count` values ascending as little-endian float64, so a verdict reads
 * a million requests as one 8 MB blob instead of a million rows. Written with the run's summary
 * in its commit; a run ingested before this table has none and is read from its request rows.
 */
export function metricValuesMigration(dialect: DialectName): Migration {
  return schemaMigration(dialect, async ({ table }) => {
    await table("run_metric_values", "run_id text!, metric text!, count bigint!, values bytes!", [
      "run_id",
      "metric",
    ]);
  });
}
