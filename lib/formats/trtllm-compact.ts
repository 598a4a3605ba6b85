/**
 * Compact storage of the TensorRT-LLM worker records of one run, held until the joins in
 * `finish`. A parsed record (nested objects, boxed numbers, id strings) took kilobytes; here it
 * is a slot in shared Float64 columns plus a small object whose getters rebuild the parts on
 * use, and its steps live in a StepSpill on disk. Every value reads back exactly as parsed.
 */
import { clockOffsetSample } from "@/lib/metrics/trtllm-clock-offset";
import {
  StepList,
  type KeepSteps,
  type Seconds,
  type TrtllmKvBlocks,
  type TrtllmSpeculative,
  type TrtllmTiming,
  type TrtllmWorkerRecord,
} from "./trtllm-record";
import { StepSpill } from "./trtllm-step-spill";

/** Main columns per record: 9 timing values, 3 numeric ids, the extra slot (-1 = none). */
const MAIN = 13;
/** Extra columns (records with KV, speculative, iteration or step data): see `add`. */
const EXTRA = 13;

const TIMING_KEYS = [
  "serverArrival",
  "arrival",
  "firstScheduled",
  "firstToken",
  "serverFirstToken",
  "lastToken",
  "kvTransferStart",
  "kvTransferEnd",
  "kvCacheSizeBytes",
] as const satisfies ReadonlyArray<keyof TrtllmTiming>;

const orNaN = (v: number | null | undefined) => (v === null || v === undefined ? NaN : v);
const orNull = (v: number) => (Number.isNaN(v) ? null : v);

/** A numeric id that stringifies back to the same text is stored as a number; others stay strings. */
function numericId(v: string | null): number {
  if (v === null) return NaN;
  const n = Number(v);
  return Number.isFinite(n) && String(n) === v ? n : NaN;
}

class Columns {
  data: Float64Array;
  length = 0;

  constructor(private readonly width: number) {
    this.data = new Float64Array(width * 1024);
  }

  /** A new zeroed slot, growing the column by doubling. */
  push(): number {
    if ((this.length + 1) * this.width > this.data.length) {
      const next = new Float64Array(this.data.length * 2);
      next.set(this.data);
      this.data = next;
    }
    return this.length++;
  }
}

/** Steps already in the spill: where they start, and the one value the clock offset needs. */
class SpilledStepList extends StepList {
  constructor(
    readonly at: number,
    count: number,
    private readonly lastToken: Seconds,
    spill: StepSpill,
  ) {
    super(null, count, () => spill.read(at, count * StepList.WIDTH));
  }

  lastTokenTime(): Seconds {
    return this.lastToken;
  }
}

export class TrtllmRecordStore {
  readonly main = new Columns(MAIN);
  readonly extra = new Columns(EXTRA);
  readonly spill = new StepSpill();

  /** Pass to parseTrtllmRecord: steps go straight to the spill, with no array per record. */
  readonly keepSteps: KeepSteps = (packed, count) => {
    const at = this.spill.append(packed);
    const o = (count - 1) * StepList.WIDTH;
    const lastToken = Number.isNaN(packed[o + 4]) ? packed[o + 3] : packed[o + 4];
    return new SpilledStepList(at, count, orNull(lastToken), this.spill);
  };

  private spilled(list: StepList): number {
    if (list.length === 0) return 0;
    return list instanceof SpilledStepList ? list.at : this.spill.append(list.values());
  }

  /** Stores a parsed record; the returned object reads as the same record. */
  add(rec: TrtllmWorkerRecord): TrtllmWorkerRecord {
    const slot = this.main.push();
    const m = this.main.data;
    const o = slot * MAIN;
    TIMING_KEYS.forEach((k, i) => (m[o + i] = orNaN(rec.timing[k])));
    const ids = [rec.requestId, rec.ctxRequestId, rec.disaggRequestId];
    let stringIds: (string | null)[] | null = null;
    ids.forEach((v, i) => {
      const n = numericId(v);
      m[o + 9 + i] = n;
      if (v !== null && Number.isNaN(n)) (stringIds ??= [null, null, null])[i] = v;
    });
    const needsExtra =
      rec.kv !== null ||
      rec.speculative !== null ||
      rec.firstIter !== null ||
      rec.lastIter !== null ||
      rec.steps.length > 0 ||
      rec.chunks.length > 0;
    m[o + 12] = -1;
    if (needsExtra) {
      const x = this.extra.push();
      const e = this.extra.data;
      const p = x * EXTRA;
      m[o + 12] = x;
      e[p] = orNaN(rec.kv?.total);
      e[p + 1] = orNaN(rec.kv?.newlyAllocated);
      e[p + 2] = orNaN(rec.kv?.reused);
      e[p + 3] = orNaN(rec.kv?.missed);
      e[p + 4] = orNaN(rec.speculative?.acceptedDraftTokens);
      e[p + 5] = orNaN(rec.speculative?.draftTokens);
      e[p + 6] = orNaN(rec.firstIter);
      e[p + 7] = orNaN(rec.lastIter);
      e[p + 8] = this.spilled(rec.steps);
      e[p + 9] = rec.steps.length;
      e[p + 10] = this.spilled(rec.chunks);
      e[p + 11] = rec.chunks.length;
      e[p + 12] = orNaN(clockOffsetSample(rec));
    }
    const status = rec.status === "complete" ? "complete" : rec.status;
    return new CompactWorkerRecord(this, slot, stringIds, status);
  }

  /** Releases the step file. */
  close(): void {
    this.spill.close();
  }
}

class CompactWorkerRecord implements TrtllmWorkerRecord {
  constructor(
    private readonly store: TrtllmRecordStore,
    private readonly slot: number,
    private readonly stringIds: (string | null)[] | null,
    readonly status: string | null,
  ) {}

  get type(): "worker" {
    return "worker";
  }

  private id(i: number): string | null {
    const s = this.stringIds?.[i];
    if (s) return s;
    const n = this.store.main.data[this.slot * MAIN + 9 + i];
    return Number.isNaN(n) ? null : String(n);
  }

  get requestId() {
    return this.id(0);
  }
  get ctxRequestId() {
    return this.id(1);
  }
  get disaggRequestId() {
    return this.id(2);
  }

  get timing(): TrtllmTiming {
    const m = this.store.main.data;
    const o = this.slot * MAIN;
    return {
      serverArrival: orNull(m[o]),
      arrival: orNull(m[o + 1]),
      firstScheduled: orNull(m[o + 2]),
      firstToken: orNull(m[o + 3]),
      serverFirstToken: orNull(m[o + 4]),
      lastToken: orNull(m[o + 5]),
      kvTransferStart: orNull(m[o + 6]),
      kvTransferEnd: orNull(m[o + 7]),
      kvCacheSizeBytes: orNull(m[o + 8]),
    };
  }

  /** Offset of this record's extra columns, or -1. */
  private get x(): number {
    const x = this.store.main.data[this.slot * MAIN + 12];
    return x < 0 ? -1 : x * EXTRA;
  }

  get kv(): TrtllmKvBlocks | null {
    const p = this.x;
    const e = this.store.extra.data;
    if (p < 0 || Number.isNaN(e[p])) return null;
    return { total: e[p], newlyAllocated: e[p + 1], reused: e[p + 2], missed: e[p + 3] };
  }

  get speculative(): TrtllmSpeculative | null {
    const p = this.x;
    const e = this.store.extra.data;
    if (p < 0 || Number.isNaN(e[p + 5])) return null;
    return { acceptedDraftTokens: e[p + 4], draftTokens: e[p + 5] };
  }

  get firstIter(): number | null {
    const p = this.x;
    return p < 0 ? null : orNull(this.store.extra.data[p + 6]);
  }

  get lastIter(): number | null {
    const p = this.x;
    return p < 0 ? null : orNull(this.store.extra.data[p + 7]);
  }

  private list(at: number): StepList {
    const p = this.x;
    if (p < 0) return StepList.EMPTY;
    const e = this.store.extra.data;
    const count = e[p + at + 1];
    if (count === 0) return StepList.EMPTY;
    const start = e[p + at];
    return new StepList(null, count, () => this.store.spill.read(start, count * StepList.WIDTH));
  }

  get steps(): StepList {
    return this.list(8);
  }

  get chunks(): StepList {
    return this.list(10);
  }

  get offsetSample(): number | null {
    const p = this.x;
    return p < 0 ? null : orNull(this.store.extra.data[p + 12]);
  }
}
