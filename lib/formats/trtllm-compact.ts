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

/** Slots per chunk of a column: fixed chunks, so growing never copies nor doubles the memory. */
const CHUNK_SLOTS = 1 << 14;

class Columns {
  private readonly chunks: Float64Array[] = [];
  length = 0;

  constructor(private readonly width: number) {}

  /** A new zeroed slot. */
  push(): number {
    if (this.length === this.chunks.length * CHUNK_SLOTS)
      this.chunks.push(new Float64Array(CHUNK_SLOTS * this.width));
    return this.length++;
  }

  /** The chunk holding a slot; its values start at `offset(slot)`. */
  chunk(slot: number): Float64Array {
    return this.chunks[Math.floor(slot / CHUNK_SLOTS)];
  }

  offset(slot: number): number {
    return (slot % CHUNK_SLOTS) * this.width;
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
    const m = this.main.chunk(slot);
    const o = this.main.offset(slot);
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
      const e = this.extra.chunk(x);
      const p = this.extra.offset(x);
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

  private main(k: number): number {
    const main = this.store.main;
    return main.chunk(this.slot)[main.offset(this.slot) + k];
  }

  /** Extra column k, NaN when the record has no extra slot. */
  private extra(k: number): number {
    const x = this.main(12);
    if (x < 0) return NaN;
    const extra = this.store.extra;
    return extra.chunk(x)[extra.offset(x) + k];
  }

  private id(i: number): string | null {
    const s = this.stringIds?.[i];
    if (s) return s;
    const n = this.main(9 + i);
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
    const m = this.store.main.chunk(this.slot);
    const o = this.store.main.offset(this.slot);
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

  get kv(): TrtllmKvBlocks | null {
    const total = this.extra(0);
    if (Number.isNaN(total)) return null;
    return { total, newlyAllocated: this.extra(1), reused: this.extra(2), missed: this.extra(3) };
  }

  get speculative(): TrtllmSpeculative | null {
    const draftTokens = this.extra(5);
    if (Number.isNaN(draftTokens)) return null;
    return { acceptedDraftTokens: this.extra(4), draftTokens };
  }

  get firstIter(): number | null {
    return orNull(this.extra(6));
  }

  get lastIter(): number | null {
    return orNull(this.extra(7));
  }

  private list(at: number): StepList {
    const count = this.extra(at + 1);
    if (!(count > 0)) return StepList.EMPTY;
    const start = this.extra(at);
    return new StepList(null, count, () => this.store.spill.read(start, count * StepList.WIDTH));
  }

  get steps(): StepList {
    return this.list(8);
  }

  get chunks(): StepList {
    return this.list(10);
  }

  get offsetSample(): number | null {
    return orNull(this.extra(12));
  }
}
