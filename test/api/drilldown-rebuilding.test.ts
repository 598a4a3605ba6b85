/**
 * A run being re-ingested answers 409 `drilldown_building` on every drill-down route while its
 * rows are rewritten, and a failed run serves none of the rows an interrupted ingest left
 * (docs/http-api.md §Summary ready, drill-down ready; reliability probe N5, N17).
 */
import { describe, it } from "vitest";
import { expectFailedRunServesNoRows, expectRebuildingAnswers409 } from "../helpers/rebuilding-run";
import { freshAppEachTest } from "../helpers/test-app";

const ctx = freshAppEachTest();

describe("drill-down routes of a run whose rows are not final (SQLite)", () => {
  it("answer 409 drilldown_building during a re-ingest, 200 after it", async () => {
    await expectRebuildingAnswers409(ctx.app);
  });
  it("serve no rows of a failed run", async () => {
    await expectFailedRunServesNoRows(ctx.app);
  });
});
