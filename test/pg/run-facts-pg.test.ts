/** Run facts on PostgreSQL: migration 005, PATCH and the run list sorted and filtered by facts. */
import { describe, it } from "vitest";
import { sortAndFilterByFacts } from "../helpers/run-facts-cases";
import { PG_URL, usePgTestApp } from "../helpers/pg-schema";

describe.skipIf(!PG_URL)("run facts on PostgreSQL", () => {
  usePgTestApp();
  it("sorts and filters by model, hardware, GPUs, concurrency and backend", sortAndFilterByFacts);
});
