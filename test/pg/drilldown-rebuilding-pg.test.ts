/**
 * The drill-down routes of a run being re-ingested, or failed, on PostgreSQL (see
 * test/api/drilldown-rebuilding.test.ts). Skipped unless RUNLENS_TEST_DATABASE_URL is set.
 */
import { describe, it } from "vitest";
import { expectFailedRunServesNoRows, expectRebuildingAnswers409 } from "../helpers/rebuilding-run";
import { PG_URL, usePgTestApp } from "../helpers/pg-schema";

describe.skipIf(!PG_URL)("drill-down routes of a run whose rows are not final (PostgreSQL)", () => {
  const ctx = usePgTestApp();
  it("answer 409 drilldown_building during a re-ingest, 200 after it", async () => {
    await expectRebuildingAnswers409(ctx.app);
  });
  it("serve no rows of a failed run", async () => {
    await expectFailedRunServesNoRows(ctx.app);
  });
});
