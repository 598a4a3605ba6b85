/** A worker record read back from its compact block on use: each getter reads only its value. */
import type {
  TrtllmKvBlocks,
  TrtllmSpeculative,
  TrtllmTiming,
  TrtllmWorkerRecord,
} from "@/lib/formats/trtllm-record";
import { StepList } from "@/lib/formats/trtllm-step-list";
import type { TrtllmRecordStore } from "./trtllm-compact";
import { X, orNull } from "./trtllm-compact-layout";

export class CompactWorkerRecord implements TrtllmWorkerRecord {
  constructor(
    private readonly store: TrtllmRecordStore,
    private readonly at: number,
  ) {}

  get status(): string | null {
    return this.store.statusAt(this.at, this.value(12));
  }

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
    const s = this.store.stringIdsAt(this.at)?.[i];
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

  get kvTransferSentMs(): number | null {
    return orNull(this.extra(13));
  }
}
