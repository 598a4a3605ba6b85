/**
 * Stored per-request values of verdict metrics on PostgreSQL: migration 009's bytea column, the
 * blobs written in the commit, the row fallback (cases in ../helpers/metric-values-cases.ts).
 */
import { describe } from "vitest";
import { metricValuesCases } from "../helpers/metric-values-cases";
import { PG_URL, usePgTestApp } from "../helpers/pg-schema";

describe.skipIf(!PG_URL)("run metric values (PostgreSQL)", () => {
  metricValuesCases(usePgTestApp());
});
