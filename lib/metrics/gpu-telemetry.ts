/**
 * GPU telemetry series per GPU (power, utilisation, memory) and energy per output token.
 * Energy is the delta of the cumulative energy counter over the profiling window, summed over
 * distinct GPUs. Trap: the same physical GPU is often scraped through two exporters (two
 * `dcgm_url`s, e.g. DCGM on :9400 and :9402, as in aiperf's own fixtures) — summing both would
 * double the energy, so GPUs are de-duplicated by `gpu_uuid` for energy.
 */
import type { GpuSample } from "@/lib/formats/aiperf-gpu-telemetry";
import type { GpuPayload } from "@/lib/api/aiperf-charts";
import { MAX_POINTS } from "./aiperf-timeline";

interface GpuTrack {
  label: string;
  uuid: string | null;
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
      t = { label, uuid: s.gpuUuid, tMs: [], powerW: [], utilizationPct: [], memoryUsedGb: [], energyMj: [] };
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
    for (const [id, t] of this.tracks) {
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
      const e = energyDeltaJ(t, order, window);
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
    };
  }
}

/** Counter delta (MJ → J) between the first and last samples inside the window; null if fewer than 2. */
export function energyDeltaJ(
  t: Pick<GpuTrack, "tMs" | "energyMj">,
  order: number[],
  window: [number, number] | null,
): number | null {
  const inside = order.filter(
    (i) => t.energyMj[i] !== null && (!window || (t.tMs[i] >= window[0] && t.tMs[i] <= window[1])),
  );
  if (inside.length < 2) return null;
  const first = t.energyMj[inside[0]] as number;
  const last = t.energyMj[inside[inside.length - 1]] as number;
  // A counter reset (exporter restart) would read negative: report nothing rather than a wrong number.
  return last >= first ? (last - first) * 1e6 : null;
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
