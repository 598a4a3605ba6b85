/**
 * Fresh sinks for the aiperf records read (lib/ingest/analyzers/aiperf-record-ingest.ts's
 * `RecordSinks`), each row going to `rows`: a run's request file being staged or a table's
 * batch inserter.
 */
import type { RecordSinks } from "@/lib/ingest/analyzers/aiperf-record-ingest";
import { ConversationIndex, PossibleReuse, TurnColumns } from "@/lib/metrics/conversation-turns";
import { ProfilingClock } from "@/lib/metrics/profiling-window";
import { ErrorTally } from "@/lib/metrics/requests-errors";
import { RequestLog } from "@/lib/metrics/requests-log";

export function freshRecordSinks<R extends RecordSinks["rows"]>(rows: R) {
  return {
    log: new RequestLog(),
    turns: new TurnColumns(),
    reuse: new PossibleReuse(),
    conversations: new ConversationIndex(),
    errors: new ErrorTally(),
    clock: new ProfilingClock(),
    rows,
  };
}
