/**
 * The query of `GET /api/sweeps/{id}/report.html`: the sweep page's statistic, throughput basis,
 * SLO and log axes (the Pareto charts' `logx`/`logy`, the goodput chart's `glogx`), so the saved
 * file shows the view it was saved from. Every one is optional.
 */
import { z } from "zod";
import { parseSlos } from "./slo";
import { SWEEP_STATS } from "./sweeps";

/** A log-axis switch as the page's URL writes it: `true` or `false`, off when absent. */
const flag = z
  .enum(["true", "false"])
  .default("false")
  .transform((v) => v === "true");

export const sweepReportQuerySchema = z.object({
  stat: z.enum(SWEEP_STATS).default("p50"),
  basis: z.enum(["output", "total"]).default("output"),
  slo: z
    .string()
    .max(200)
    .refine((v) => parseSlos(v) !== null, "expected metric:mode:ms items, e.g. ttft:p99:200,tpot:req:20")
    .transform((v) => parseSlos(v)!)
    .default([]),
  logx: flag,
  logy: flag,
  glogx: flag,
});
export type SweepReportQuery = z.output<typeof sweepReportQuerySchema>;
