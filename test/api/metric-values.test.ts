/** Stored per-request values of verdict metrics on SQLite (cases in ../helpers/metric-values-cases.ts). */
import { describe } from "vitest";
import { metricValuesCases } from "../helpers/metric-values-cases";
import { freshAppEachTest } from "../helpers/test-app";

describe("run metric values (SQLite)", () => {
  metricValuesCases(freshAppEachTest());
});
