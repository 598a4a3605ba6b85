/**
 * aiperf's parameter-sweep aggregate (`sweep_aggregate/profile_export_aiperf_sweep.json`) for runs
 * made by generateAiperfRun, in the two shapes aiperf has written: "values" (metadata.parameter_name,
 * per_value_metrics, pareto_optimal as values) and "combinations" (metadata.sweep_parameters,
 * per_combination_metrics of {parameters, metrics}, pareto_optimal as parameter objects), following
 * aiperf/exporters/aggregate/aggregate_sweep_json_exporter.py and its sweep aggregate reference doc.
 * Single-trial sweep: each metric block carries only `mean` and `unit`.
 */
export function aiperfSweepExport(runs, shape = "combinations") {
  const values = runs.map((r) => r.concurrency);
  const metrics = (s) => ({
    request_throughput_avg: { mean: s.request_throughput.avg, unit: "requests/sec" },
    ttft_p99_ms: { mean: s.time_to_first_token.p99, unit: "ms" },
  });
  // aiperf's default objectives: maximise request throughput, minimise TTFT p99.
  const pareto = runs
    .filter(
      (a) =>
        !runs.some(
          (b) =>
            b !== a &&
            b.summary.request_throughput.avg >= a.summary.request_throughput.avg &&
            b.summary.time_to_first_token.p99 <= a.summary.time_to_first_token.p99 &&
            (b.summary.request_throughput.avg > a.summary.request_throughput.avg ||
              b.summary.time_to_first_token.p99 < a.summary.time_to_first_token.p99),
        ),
    )
    .map((r) => r.concurrency);
  if (shape === "values")
    return {
      metadata: {
        aggregation_type: "sweep",
        parameter_name: "concurrency",
        parameter_values: values,
        num_values: values.length,
        num_trials_per_value: 1,
      },
      per_value_metrics: Object.fromEntries(runs.map((r) => [String(r.concurrency), metrics(r.summary)])),
      best_configurations: {},
      pareto_optimal: pareto,
    };
  return {
    aggregation_type: "sweep",
    num_profile_runs: runs.length,
    num_successful_runs: runs.length,
    failed_runs: [],
    metadata: { sweep_parameters: [{ name: "concurrency", values }], num_combinations: values.length },
    per_combination_metrics: runs.map((r) => ({
      parameters: { concurrency: r.concurrency },
      metrics: metrics(r.summary),
    })),
    best_configurations: {},
    pareto_optimal: pareto.map((c) => ({ concurrency: c })),
  };
}
