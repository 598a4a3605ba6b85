/**
 * Compact storage of the TensorRT-LLM worker records of one run, held until the joins in
 * `finish`. A parsed record (nested objects, boxed numbers, id strings) took kilobytes, and
 * even as Float64 columns 600 bytes a request; here its values are one block of a spill file
 * on disk and its steps another, and memory holds a small object whose getters read the parts
 * back on use. Every value reads back exactly as parsed.
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

/**
 * A record's block: 9 timing values, 3 numeric ids (NaN = none or a string id), then KV blocks
 * (4), speculative tokens (2), first/last iteration, steps at/count, chunks at/count and the
 * clock-offset sample. NaN = not recorded.
 */
const BLOCK = 26;
const X = 13;

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
  readonly spill = new StepSpill();
  readonly blocks = new StepSpill();
  private readonly block = new Float64Array(BLOCK);

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
    const b = this.block;
    TIMING_KEYS.forEach((k, i) => (b[i] = orNaN(rec.timing[k])));
    const ids = [rec.requestId, rec.ctxRequestId, rec.disaggRequestId];
    let stringIds: (string | null)[] | null = null;
    ids.forEach((v, i) => {
      const n = numericId(v);
      b[9 + i] = n;
      if (v !== null && Number.isNaN(n)) (stringIds ??= [null, null, null])[i] = v;
    });
    b[12] = NaN;
    b[X] = orNaN(rec.kv?.total);
    b[X + 1] = orNaN(rec.kv?.newlyAllocated);
    b[X + 2] = orNaN(rec.kv?.reused);
    b[X + 3] = orNaN(rec.kv?.missed);
    b[X + 4] = orNaN(rec.speculative?.acceptedDraftTokens);
    b[X + 5] = orNaN(rec.speculative?.draftTokens);
    b[X + 6] = orNaN(rec.firstIter);
    b[X + 7] = orNaN(rec.lastIter);
    b[X + 8] = this.spilled(rec.steps);
    b[X + 9] = rec.steps.length;
    b[X + 10] = this.spilled(rec.chunks);
    b[X + 11] = rec.chunks.length;
    b[X + 12] = orNaN(clockOffsetSample(rec));
    const at = this.blocks.append(b);
    const status = rec.status === "complete" ? "complete" : rec.status;
    return new CompactWorkerRecord(this, at, stringIds, status);
  }

  /** Releases the files. */
  close(): void {
    this.spill.close();
    this.blocks.close();
  }
}

class CompactWorkerRecord implements TrtllmWorkerRecord {
  constructor(
    private readonly store: TrtllmRecordStore,
    private readonly at: number,
    private readonly stringIds: (string | null)[] | null,
    readonly status: string | null,
  ) {}

  get type(): "worker" {
    return "worker";
  }

  private value(k: number): number {
    return this.store.blocks.valueAt(this.at + k);
  }

  private extra(k: number): number {
    return this.value(X + k);
  }

  private id(i: number): string | null {
    const s = this.stringIds?.[i];
    if (s) return s;
    const n = this.value(9 + i);
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
    const m = this.store.blocks.read(this.at, 9);
    return {
      serverArrival: orNull(m[0]),
      arrival: orNull(m[1]),
      firstScheduled: orNull(m[2]),
      firstToken: orNull(m[3]),
      serverFirstToken: orNull(m[4]),
      lastToken: orNull(m[5]),
      kvTransferStart: orNull(m[6]),
      kvTransferEnd: orNull(m[7]),
      kvCacheSizeBytes: orNull(m[8]),
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
