import type { Migration } from "kysely";
import type { DialectName } from "../dialect";
import { coreMigration } from "./001-core";
import { trtllmMigration } from "./002-trtllm";
import { aiperfMigration } from "./003-aiperf";
import { blobLeasesMigration } from "./004-blob-leases";
import { runFactsMigration } from "./005-run-facts";
import { sweepsMigration } from "./006-sweeps";
import { seriesMigration } from "./007-series";
import { conversationsMigration } from "./008-conversations";
import { metricValuesMigration } from "./009-metric-values";
import { aiperfWorkerMigration } from "./010-aiperf-worker";
import { seriesOrderMigration } from "./011-series-order";
import { ingestReadinessMigration } from "./012-ingest-readiness";
import { timelineColumnsMigration } from "./015-timeline-columns";
import { inputsReuseMigration } from "./016-inputs-reuse";
import { timelineFirstWindowMigration } from "./017-timeline-first-window";
import { runColumnFilesMigration } from "./018-run-column-files";
import { chartVersionMigration } from "./019-chart-version";
import { blobEncodingMigration } from "./020-blob-encoding";
import { aiperfRequestsLineKeyMigration } from "./021-aiperf-requests-line-key";
import { trtllmTimeEventsMigration } from "./022-trtllm-time-events";
import { chartComputeVersionMigration } from "./023-chart-compute-version";

/**
 * All migrations in order. Names sort lexically; an analyzer that needs tables adds its own
 * file (002-trtllm, 003-aiperf, 004-server-metrics, …) and one line here.
 */
export function allMigrations(dialect: DialectName): Record<string, Migration> {
  return {
    "001-core": coreMigration(dialect),
    "002-trtllm": trtllmMigration(dialect),
    "003-aiperf": aiperfMigration(dialect),
    "004-blob-leases": blobLeasesMigration(dialect),
    "005-run-facts": runFactsMigration(dialect),
    "006-sweeps": sweepsMigration(dialect),
    "007-series": seriesMigration(dialect),
    "008-conversations": conversationsMigration(dialect),
    "009-metric-values": metricValuesMigration(dialect),
    "010-aiperf-worker": aiperfWorkerMigration(dialect),
    "011-series-order": seriesOrderMigration(dialect),
    "012-ingest-readiness": ingestReadinessMigration(dialect),
    "015-timeline-columns": timelineColumnsMigration(dialect),
    "016-inputs-reuse": inputsReuseMigration(dialect),
    "017-timeline-first-window": timelineFirstWindowMigration(dialect),
    "018-run-column-files": runColumnFilesMigration(dialect),
    "019-chart-version": chartVersionMigration(dialect),
    "020-blob-encoding": blobEncodingMigration(dialect),
    "021-aiperf-requests-line-key": aiperfRequestsLineKeyMigration(),
    "022-trtllm-time-events": trtllmTimeEventsMigration(dialect),
    "023-chart-compute-version": chartComputeVersionMigration(dialect),
  };
}
