/**
 * GPU telemetry series per GPU (power, utilisation, memory) and energy per output token.
 * Energy is power integrated over the exact profiling window (docs/metrics.md §GPU telemetry):
 * trapezoids between samples, with the power at each window edge interpolated between the samples
 * around it. Counting only samples inside the window loses the stretch from the window start to
 * the first sample and from the last sample to the end (a 1 s scrape over a 35 s run: ~1.5% low).
 * Without power samples, the cumulative energy counter is read the same way, interpolated at both
 * edges. Summed over distinct GPUs. Trap: the same physical GPU is often scraped through two exporters (two
 * `dcgm_url`s, e.g. DCGM on :9400 and :9402, as in aiperf's own fixtures) — summing both would
 * double the energy, so GPUs are de-duplicated by `gpu_uuid` for energy.
 */
import type { GpuSample } from "@/lib/formats/aiperf-gpu-telemetry";
import type { GpuPayload } from "@/lib/api/aiperf-charts";
import { MAX_POINTS } from "./aiperf-timeline";

interface GpuTrack {
  label: string;
  uuid: string | null;
  model: string | null;
  tMs: number[];
  powerW: Array<number | null>;
  utilizationPct: Array<number | null>;
  memoryUsedGb: Array<number | null>;
  energyMj: Array<number | null>;
}

export class GpuTelemetry {
  private tracks = new Map<string, GpuTrack>();
  samples = 0;

  /** `tMs` is the sample time on the run's shared ms axis (see RequestLog.relMs). */
  add(s: GpuSample, tMs: number): void {
    const host = s.source.replace(/^[a-z]+:\/\//, "").replace(/\/metrics$/, "");
    const key = `${host}|${s.gpuIndex ?? "?"}|${s.gpuUuid ?? ""}`;
    let t = this.tracks.get(key);
    if (!t) {
      const label = `${host} · GPU ${s.gpuIndex ?? "?"}${s.gpuModel ? ` (${s.gpuModel})` : ""}`;
      t = {
        label,
        uuid: s.gpuUuid,
        model: s.gpuModel,
        tMs: [],
        powerW: [],
        utilizationPct: [],
        memoryUsedGb: [],
        energyMj: [],
      };
      this.tracks.set(key, t);
    }
    t.tMs.push(tMs);
    t.powerW.push(s.powerW);
    t.utilizationPct.push(s.utilizationPct);
    t.memoryUsedGb.push(s.memoryUsedGb);
    t.energyMj.push(s.energyMj);
    this.samples++;
  }

  get size(): number {
    return this.tracks.size;
  }

  /**
   * Physical GPUs: tracks with one `gpu_uuid` are one GPU however many exporters scraped it;
   * a track without a uuid counts as its own GPU. Models in the order first seen.
   */
  distinctGpus(): { count: number; models: string[]; busy: number | null } {
    const ids = new Set<string>();
    const busy = new Set<string>();
    let measured = false;
    const models: string[] = [];
    for (const [key, t] of this.tracks) {
      const id = t.uuid ? `uuid:${t.uuid}` : `track:${key}`;
      ids.add(id);
      if (t.model && !models.includes(t.model)) models.push(t.model);
      const work = [...t.utilizationPct, ...t.memoryUsedGb].filter((v): v is number => v !== null);
      if (work.length > 0) measured = true;
      if (work.some((v) => v > 0)) busy.add(id);
    }
    return { count: ids.size, models, busy: measured ? busy.size : null };
  }

  /**
   * `originMs`: the run's t = 0 on the shared axis; `window`: the profiling window (same axis)
   * energy is measured over, or null to use each GPU's whole series.
   */
  payload(originMs: number, window: [number, number] | null, outputTokens: number | null): GpuPayload {
    const gpus: GpuPayload["gpus"] = [];
    let energyJ: number | null = null;
    const seenUuid = new Set<string>();
    let duplicateGpus = 0;
    let firstMs = Infinity;
    let lastMs = -Infinity;
    let outside = 0;
    for (const [id, t] of this.tracks) {
      if (window) for (const ms of t.tMs) if (!(ms >= window[0] && ms <= window[1])) outside++;
      const order = t.tMs.map((_, i) => i).sort((a, b) => t.tMs[a] - t.tMs[b]);
      gpus.push({ id, label: t.label, points: downsample(t, order, originMs) });
      if (order.length > 0) {
        firstMs = Math.min(firstMs, t.tMs[order[0]]);
        lastMs = Math.max(lastMs, t.tMs[order[order.length - 1]]);
      }
      if (t.uuid && seenUuid.has(t.uuid)) {
        duplicateGpus++;
        continue;
      }
      if (t.uuid) seenUuid.add(t.uuid);
      const e = windowEnergyJ(t, order, window);
      if (e !== null) energyJ = (energyJ ?? 0) + e;
    }
    return {
      gpus,
      energyJ,
      outputTokens,
      energyPerOutputTokenJ: energyJ !== null && outputTokens ? energyJ / outputTokens : null,
      duplicateGpus,
      distinctGpus: gpus.length - duplicateGpus,
      // Telemetry scraped before or after the benchmark says nothing about it (and gives no energy).
      overlapsWindow: window === null ? null : firstMs <= window[1] && lastMs >= window[0],
      window:
        window === null
          ? null
          : {
              fromS: (window[0] - originMs) / 1000,
              toS: (window[1] - originMs) / 1000,
              samples: this.samples,
              outside,
              // The samples' own span on the same axis: where they lie when none is in the window.
              firstS: firstMs <= lastMs ? (firstMs - originMs) / 1000 : null,
              lastS: firstMs <= lastMs ? (lastMs - originMs) / 1000 : null,
            },
    };
  }
}

/** Times and values of the samples that have a value, in time order. */
function present(tMs: number[], values: Array<number | null>, order: number[]): { t: number[]; v: number[] } {
  const t: number[] = [];
  const v: number[] = [];
  for (const i of order) {
    const x = values[i];
    if (x !== null && Number.isFinite(tMs[i])) {
      t.push(tMs[i]);
      v.push(x);
    }
  }
  return { t, v };
}

/** Linear interpolation of the sampled value at `x`, which lies within [t[0], t[n − 1]]. */
function valueAt(t: number[], v: number[], x: number): number {
  let i = 1;
  while (i < t.length - 1 && t[i] < x) i++;
  const span = t[i] - t[i - 1];
  return span > 0 ? v[i - 1] + ((v[i] - v[i - 1]) * (x - t[i - 1])) / span : v[i];
}

/**
 * ∫ power dt (W × ms → J) over `window`, or over the samples' own span when null. A window edge
 * the samples do not reach is moved to the nearest sample: nothing is extrapolated.
 */
export function powerIntegralJ(
  t: Pick<GpuTrack, "tMs" | "powerW">,
  order: number[],
  window: [number, number] | null,
): number | null {
  const p = present(t.tMs, t.powerW, order);
  const n = p.t.length;
  if (n < 2) return null;
  const a = Math.max(window?.[0] ?? -Infinity, p.t[0]);
  const b = Math.min(window?.[1] ?? Infinity, p.t[n - 1]);
  if (!(b > a)) return null;
  let joules = 0;
  let prevT = a;
  let prevV = valueAt(p.t, p.v, a);
  for (let i = 0; i < n; i++) {
    if (p.t[i] <= a) continue;
    if (p.t[i] >= b) break;
    joules += ((p.v[i] + prevV) / 2) * (p.t[i] - prevT);
    prevT = p.t[i];
    prevV = p.v[i];
  }
  joules += ((valueAt(p.t, p.v, b) + prevV) / 2) * (b - prevT);
  return joules / 1000;
}

/** Energy counter delta (MJ → J) between its values interpolated at the window edges (clamped as above). */
export function energyDeltaJ(
  t: Pick<GpuTrack, "tMs" | "energyMj">,
  order: number[],
  window: [number, number] | null,
): number | null {
  const e = present(t.tMs, t.energyMj, order);
  const n = e.t.length;
  if (n < 2) return null;
  const a = Math.max(window?.[0] ?? -Infinity, e.t[0]);
  const b = Math.min(window?.[1] ?? Infinity, e.t[n - 1]);
  if (!(b >= a)) return null;
  const first = valueAt(e.t, e.v, a);
  const last = valueAt(e.t, e.v, b);
  // A counter reset (exporter restart) would read negative: report nothing rather than a wrong number.
  for (let i = 1; i < n; i++) if (e.v[i] < e.v[i - 1]) return null;
  return last >= first ? (last - first) * 1e6 : null;
}

/** Power integrated over the window; the energy counter when the GPU reports no power. */
export function windowEnergyJ(t: GpuTrack, order: number[], window: [number, number] | null): number | null {
  return powerIntegralJ(t, order, window) ?? energyDeltaJ(t, order, window);
}

function mean(vals: Array<number | null>, from: number, to: number, order: number[]): number | null {
  let sum = 0;
  let n = 0;
  for (let k = from; k < to; k++) {
    const v = vals[order[k]];
    if (v !== null) {
      sum += v;
      n++;
    }
  }
  return n ? sum / n : null;
}

/** Averages consecutive samples in groups so a GPU has at most MAX_POINTS points. */
function downsample(t: GpuTrack, order: number[], originMs: number): GpuPayload["gpus"][number]["points"] {
  const group = Math.max(1, Math.ceil(order.length / MAX_POINTS));
  const points = [];
  for (let k = 0; k < order.length; k += group) {
    const to = Math.min(order.length, k + group);
    points.push({
      tS: (t.tMs[order[k]] - originMs) / 1000,
      powerW: mean(t.powerW, k, to, order),
      utilizationPct: mean(t.utilizationPct, k, to, order),
      memoryUsedGb: mean(t.memoryUsedGb, k, to, order),
    });
  }
  return points;
}
