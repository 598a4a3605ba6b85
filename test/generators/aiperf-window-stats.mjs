/**
 * aiperf's window statistics of one series (src/aiperf/server_metrics/_counter_stats.py,
 * _gauge_stats.py, _histogram_stats.py, _timeslice_boundaries.py, storage.py), for
 * aiperf-server-metrics.mjs. A track is `[t, sample]` pairs over the unique scrapes; the window is
 * `{ startNs, endNs }`. Counters and histograms: value at the last in-window scrape minus the
 * last scrape before the window (the reference); gauges: the samples inside [start, end].
 */
const NS = 1e9;

export function uniqueScrapes(scrapes) {
  const out = [];
  let last = null;
  for (const s of scrapes) {
    const key = JSON.stringify(s.families);
    if (key !== last) out.push(s);
    last = key;
  }
  return out;
}

/** numpy.percentile's default (linear interpolation). */
function percentile(sorted, q) {
  const rank = (q / 100) * (sorted.length - 1);
  const lo = Math.floor(rank);
  const hi = Math.ceil(rank);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (rank - lo);
}
const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
const std1 = (xs) =>
  xs.length > 1 ? Math.sqrt(xs.reduce((a, x) => a + (x - mean(xs)) ** 2, 0) / (xs.length - 1)) : 0;
export const QS = [1, 5, 10, 25, 50, 75, 90, 95, 99];

/** _compute_timeslice_boundaries: whole slices from the window start, the last one clipped and partial. */
export function boundaries({ startNs, endNs }, sliceS) {
  const size = sliceS * NS;
  const out = [];
  for (let s = startNs; s < endNs; s += size)
    out.push({ start: s, end: Math.min(s + size, endNs), complete: s + size <= endNs });
  return out;
}

/** One series' samples over the unique scrapes: `[t, sample]` pairs in time order. */
export function trackOf(scrapes, name, labelsKey) {
  const out = [];
  for (const s of scrapes)
    for (const x of s.families[name]?.samples ?? [])
      if (JSON.stringify(x.labels) === labelsKey) out.push([s.t, x]);
  return out;
}

function split(track, window) {
  const ref = track.filter(([t]) => t < window.startNs).at(-1) ?? null;
  const inside = track.filter(([t]) => t >= window.startNs && t <= window.endNs);
  return { ref, inside, withRef: ref ? [ref, ...inside] : inside };
}

/** Last value at or before `t` (searchsorted right − 1, clipped to the first sample). */
function valueAt(track, t, pick) {
  let v = pick(track[0][1]);
  for (const [ts, x] of track) if (ts <= t) v = pick(x);
  return v;
}

function counterLike(track, window, sliceS, pick) {
  const { inside, withRef } = split(track, window);
  if (inside.length === 0 || withRef.length < 2) return null;
  const first = withRef[0];
  const last = inside.at(-1);
  const total = Math.max(pick(last[1]) - pick(first[1]), 0);
  const durS = (last[0] - first[0]) / NS;
  const slices = boundaries(window, sliceS).map((b) => {
    const delta = Math.max(valueAt(withRef, b.end, pick) - valueAt(withRef, b.start, pick), 0);
    return { ...b, delta, rate: delta / ((b.end - b.start) / NS) };
  });
  return { total, rate: durS > 0 ? total / durS : 0, slices };
}

export function counterStats(track, window, sliceS) {
  const c = counterLike(track, window, sliceS, (x) => x.value);
  if (!c) return null;
  const rates = c.slices.filter((s) => s.complete).map((s) => s.rate);
  const stats = { total: c.total, rate: c.rate };
  if (rates.length > 0)
    Object.assign(stats, {
      rate_avg: mean(rates),
      rate_min: Math.min(...rates),
      rate_max: Math.max(...rates),
      rate_std: std1(rates),
    });
  const timeslices = c.slices.map((s) => ({
    start_ns: s.start,
    end_ns: s.end,
    ...(s.complete ? {} : { is_complete: false }),
    total: s.delta,
    rate: s.rate,
  }));
  return { stats, timeslices };
}

export function gaugeStats(track, window, sliceS) {
  const { inside } = split(track, window);
  if (inside.length === 0) return null;
  const values = inside.map(([, x]) => x.value);
  const sorted = [...values].sort((a, b) => a - b);
  const stats = { avg: mean(values), min: sorted[0], max: sorted.at(-1), std: std1(values) };
  for (const q of QS) stats[`p${q}`] = percentile(sorted, q);
  const timeslices = [];
  const bs = boundaries(window, sliceS);
  bs.forEach((b, i) => {
    // Half-open slices, the last one closed when it ends on the last sample (as aiperf does).
    const closed = i === bs.length - 1 && b.end === inside.at(-1)[0];
    const vs = inside
      .filter(([t]) => t >= b.start && (t < b.end || (closed && t === b.end)))
      .map(([, x]) => x.value);
    if (vs.length === 0) return;
    const slice = { start_ns: b.start, end_ns: b.end };
    if (!b.complete) slice.is_complete = false;
    timeslices.push(Object.assign(slice, { avg: mean(vs), min: Math.min(...vs), max: Math.max(...vs) }));
  });
  return { stats, timeslices: inside.length >= 2 ? timeslices : undefined };
}

/** Bucket deltas over the window and Prometheus-style linear estimates (aiperf's own estimator refines these). */
export function histogramStats(track, window, sliceS) {
  const sum = counterLike(track, window, sliceS, (x) => x.sum);
  const count = counterLike(track, window, sliceS, (x) => x.count);
  if (!sum || !count) return null;
  const { withRef, inside } = split(track, window);
  const lo = withRef[0][1].buckets;
  const hi = inside.at(-1)[1].buckets;
  const buckets = Object.fromEntries(Object.keys(hi).map((le) => [le, hi[le] - (lo[le] ?? 0)]));
  const durS = (inside.at(-1)[0] - withRef[0][0]) / NS;
  const stats = {
    count: Math.round(count.total),
    sum: sum.total,
    avg: count.total > 0 ? sum.total / count.total : 0,
    count_rate: durS > 0 ? count.total / durS : 0,
    sum_rate: durS > 0 ? sum.total / durS : 0,
  };
  const edges = Object.keys(buckets).filter((k) => k !== "+Inf");
  for (const q of QS) {
    const target = (q / 100) * count.total;
    let prevLe = 0;
    let prevN = 0;
    let est = Number(edges.at(-1) ?? 0);
    for (const le of edges) {
      if (buckets[le] >= target && buckets[le] > prevN) {
        est = prevLe + ((Number(le) - prevLe) * (target - prevN)) / (buckets[le] - prevN);
        break;
      }
      prevLe = Number(le);
      prevN = buckets[le];
    }
    stats[`p${q}_estimate`] = est;
  }
  return { stats, buckets };
}
