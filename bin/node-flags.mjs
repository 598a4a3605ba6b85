// The V8 flags the server runs with: `npm start` passes them (package.json), and so do the tests
// and the benchmark when they start bin/server.mjs (test/helpers/next-server.mjs). V8 reads them
// only when the process starts, so the server cannot set them on itself.
//
// --max-semi-space-size=4: V8's young generation grows to two 16 MB semi-spaces on a 64-bit
// machine, and an ingest, which allocates short-lived chunks and values at a high rate, fills
// them. 4 MB halves keep 13-16 MB less resident idle and 20-60 MB less at the peak of a 327 MB
// upload; the price is more young-generation collections (docs/performance.md).
//
// --heap-growing-percent=20: after each full collection V8 lets the old generation grow to up to
// 4× what survived before it collects again, and an ingest promotes garbage (lines, parsed
// values, spent batches) at a high rate, so the heap and the ArrayBuffers it holds swell long
// past what is live. 1.2× keeps the peak near what is live: 90-130 MB less at the peak of a
// 126 MB aiperf upload or a 327 MB server-metrics JSON, for ~20 % more CPU in the collector
// (docs/performance.md, "Peak memory during ingest").
export const SERVER_NODE_FLAGS = ["--max-semi-space-size=4", "--heap-growing-percent=20"];
