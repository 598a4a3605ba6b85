/**
 * Which worker file is prefill (ctx) and which is decode (gen). Worker files are all named
 * `perf_metrics-server-…` whatever their role (docs/formats.md §TensorRT-LLM perf metrics), so the role comes
 * from content and from how records join disagg-server records.
 */
import type { TrtllmWorkerRecord } from "@/lib/formats/trtllm-record";

export type WorkerRole = "prefill" | "decode" | "combined";

export class RoleVotes {
  prefill = 0;
  decode = 0;
  /** Records that belong to a disaggregated request at all (ids, KV transfer, joins). */
  disaggregated = 0;

  /**
   * Content votes (docs/metrics.md §Joins and roles): chunks only ⇒ ctx, steps only or a transfer end ⇒ gen.
   */
  addContent(rec: TrtllmWorkerRecord): void {
    const vote = contentRole(rec);
    if (vote === "prefill") this.prefill++;
    else if (vote === "decode") this.decode++;
    if (
      rec.ctxRequestId !== null ||
      rec.timing.kvTransferEnd !== null ||
      rec.timing.kvCacheSizeBytes !== null
    )
      this.disaggregated++;
  }

  /** A join with a disagg record says which side the record was on, which outweighs content. */
  addJoin(side: "ctx" | "gen"): void {
    this.disaggregated++;
    if (side === "ctx") this.prefill += 2;
    else this.decode += 2;
  }

  role(): WorkerRole {
    if (this.disaggregated === 0 || this.prefill === this.decode) return "combined";
    return this.prefill > this.decode ? "prefill" : "decode";
  }
}

/** The role one record's content suggests, or null when it does not tell. */
export function contentRole(rec: TrtllmWorkerRecord): WorkerRole | null {
  if (rec.timing.kvTransferEnd !== null) return "decode";
  const hasSteps = rec.steps.length > 0;
  const hasChunks = rec.chunks.length > 0;
  if (hasSteps && !hasChunks) return "decode";
  if (hasChunks && !hasSteps) return "prefill";
  // A context-only request produces exactly one token.
  if (
    rec.ctxRequestId !== null &&
    rec.timing.firstToken !== null &&
    rec.timing.firstToken === rec.timing.lastToken
  )
    return "prefill";
  return null;
}
