// The peer users run today on an agentic run: InferenceX's Python aggregation (pandas). It cannot
// run on this machine (no Python packages), so its figures are quoted as measured on the same run
// (300k aiperf multi-turn records + a 16-endpoint × 1,800-timeslice server_metrics_export.json)
// and printed beside ours, marked "quoted". docs/performance.md says so too.
export const PEER = {
  name: "InferenceX Python aggregation",
  quoted: true,
  seconds: 32,
  peakRssBytes: 2.1e9,
  /** What ours must reach against it: this many times faster, this many times less memory. */
  targetSpeedup: 10,
  targetMemoryRatio: 8,
};
