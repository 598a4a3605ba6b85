/** The run list sorted and filtered by run facts, on SQLite (the same case runs on PostgreSQL). */
import { describe, it } from "vitest";
import { sortAndFilterByFacts } from "../helpers/run-facts-cases";
import { freshAppEachTest } from "../helpers/test-app";

freshAppEachTest();

describe("run list by facts", () => {
  it("sorts and filters by model, hardware, GPUs, concurrency and backend", sortAndFilterByFacts);
});
