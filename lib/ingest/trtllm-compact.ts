/**
 * Compact storage of the TensorRT-LLM worker records of one run, held until the joins in
 * `finish`. A parsed record (nested objects, boxed numbers, id strings) took kilobytes, and
 * even as Float64 columns 600 bytes a request; here its values are one block of a spill file
 * on disk and its steps another, and memory holds a small object whose getters read the parts
 * back on use. Every value reads back exactly as parsed.
 */
import { clockOffsetSample } from "@/lib/metrics/trtllm-clock-offset";
import {
  type KeepSteps,
  type Seconds,
  type TrtllmDisaggRecord,
  type TrtllmWorkerRecord,
} from "@/lib/formats/trtllm-record";
import { StepList } from "@/lib/formats/trtllm-step-list";
import { CompactWorkerRecord } from "./trtllm-compact-record";
import { BLOCK, X, TIMING_KEYS, orNaN, orNull } from "./trtllm-compact-layout";
import { StepSpill } from "./trtllm-step-spill";

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

/** A disagg record's block: 3 times, numeric id, server indexes, ctx/gen worker blocks (-1 = none), status. */
const DISAGG_BLOCK = 9;

/** Status codes in a block; any other status is kept by position. */
const STATUS_NULL = 0;
const STATUS_COMPLETE = 1;
const STATUS_OTHER = 2;

/**
 * Records are stored by position (a number the caller keeps in a plain array), not as objects:
 * a million live objects made every garbage collection of the ingest slower as it went on.
 */
export class TrtllmRecordStore {
  readonly spill = new StepSpill();
  readonly blocks = new StepSpill();
  private readonly block = new Float64Array(BLOCK);
  private readonly disaggBlock = new Float64Array(DISAGG_BLOCK);
  /** Ids that are not numbers, and statuses other than null/"complete", by block position */
  private readonly stringIds = new Map<number, (string | null)[]>();
  private readonly statuses = new Map<number, string>();
  private readonly servers: string[] = [];
  private readonly serverIndex = new Map<string, number>();

  private statusCode(at: number, status: string | null): number {
    if (status === null) return STATUS_NULL;
    if (status === "complete") return STATUS_COMPLETE;
    this.statuses.set(at, status);
    return STATUS_OTHER;
  }

  /** Status of the record at `at`, from its code. */
  statusAt(at: number, code: number): string | null {
    return code === STATUS_NULL
      ? null
      : code === STATUS_COMPLETE
        ? "complete"
        : (this.statuses.get(at) ?? null);
  }

  stringIdsAt(at: number): (string | null)[] | undefined {
    return this.stringIds.get(at);
  }

  private server(name: string | null): number {
    if (name === null) return -1;
    let i = this.serverIndex.get(name);
    if (i === undefined) {
      i = this.servers.length;
      this.servers.push(name);
      this.serverIndex.set(name, i);
    }
    return i;
  }

  /** Stores a disagg record and its ctx/gen copies; returns its position. */
  addDisagg(rec: TrtllmDisaggRecord): number {
    const ctxAt = rec.ctx ? this.addWorker(rec.ctx) : -1;
    const genAt = rec.gen ? this.addWorker(rec.gen) : -1;
    const b = this.disaggBlock;
    const at = this.blocks.size;
    b[0] = orNaN(rec.disaggArrival);
    b[1] = orNaN(rec.disaggCtxDispatch);
    b[2] = orNaN(rec.disaggFirstToken);
    b[3] = numericId(rec.disaggRequestId);
    if (rec.disaggRequestId !== null && Number.isNaN(b[3])) this.stringIds.set(at, [rec.disaggRequestId]);
    b[4] = this.server(rec.ctxServer);
    b[5] = this.server(rec.genServer);
    b[6] = ctxAt;
    b[7] = genAt;
    b[8] = this.statusCode(at, rec.status);
    this.blocks.append(b);
    return at;
  }

  /** The disagg record at a position, rebuilt (its copies read from their blocks on use). */
  disagg(at: number): TrtllmDisaggRecord {
    const b = this.blocks.read(at, DISAGG_BLOCK);
    const id = Number.isNaN(b[3]) ? (this.stringIds.get(at)?.[0] ?? null) : String(b[3]);
    const ctxAt = b[6];
    const genAt = b[7];
    return {
      type: "disagg",
      ctxServer: b[4] < 0 ? null : this.servers[b[4]],
      genServer: b[5] < 0 ? null : this.servers[b[5]],
      disaggArrival: orNull(b[0]),
      disaggCtxDispatch: orNull(b[1]),
      disaggFirstToken: orNull(b[2]),
      disaggRequestId: id,
      status: this.statusAt(at, b[8]),
      ctx: ctxAt < 0 ? null : this.worker(ctxAt),
      gen: genAt < 0 ? null : this.worker(genAt),
    };
  }

  /** The worker record at a position. */
  worker(at: number): TrtllmWorkerRecord {
    return new CompactWorkerRecord(this, at);
  }

  /** Stores a parsed record; the returned object reads as the same record. */
  add(rec: TrtllmWorkerRecord): TrtllmWorkerRecord {
    return this.worker(this.addWorker(rec));
  }

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

  /** Stores a worker record; returns its position. */
  addWorker(rec: TrtllmWorkerRecord): number {
    const at = this.blocks.size;
    const b = this.block;
    const timing = rec.timing;
    for (let i = 0; i < TIMING_KEYS.length; i++) b[i] = orNaN(timing[TIMING_KEYS[i]]);
    let stringIds: (string | null)[] | null = null;
    for (let i = 0; i < 3; i++) {
      const v = i === 0 ? rec.requestId : i === 1 ? rec.ctxRequestId : rec.disaggRequestId;
      const n = numericId(v);
      b[9 + i] = n;
      if (v !== null && Number.isNaN(n)) (stringIds ??= [null, null, null])[i] = v;
    }
    if (stringIds) this.stringIds.set(at, stringIds);
    b[12] = this.statusCode(at, rec.status);
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
    b[X + 13] = orNaN(rec.kvTransferSentMs);
    this.blocks.append(b);
    return at;
  }

  /** Releases the files. */
  close(): void {
    this.spill.close();
    this.blocks.close();
  }
}
