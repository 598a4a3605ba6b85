/**
 * The upload side of an upload that may hold a sweep: files are routed by their run folder
 * (sweep-layout.ts) to one live ingest each, so every folder becomes its own run while the
 * upload streams. aiperf's sweep aggregate is read aside, for the sweep itself. One blob lease
 * covers the whole upload until every run's file rows are written.
 */
import { Readable } from "node:stream";
import { AIPERF_SWEEP_FILE, readAiperfSweep, type AiperfSweepExport } from "@/lib/formats/aiperf-sweep";
import type { Kind } from "@/lib/api/kinds";
import { MAX_SWEEP_RUNS } from "@/lib/api/sweeps";
import type { Format } from "@/lib/formats/kinds";
import type { BlobLease } from "@/lib/store/blob-leases";
import { newFileId } from "@/lib/store/ids";
import type { IngestDeps } from "./deps";
import { TooLargeError } from "@/lib/api/request-errors";
import { LiveIngest } from "./live-ingest";
import { runDirOf } from "./sweep-layout";
import type { LiveFile, LiveSink } from "./upload-types";

/** An aiperf sweep aggregate is a few kilobytes per swept value; beyond this it is not read. */
const MAX_SWEEP_EXPORT_BYTES = 8 << 20;

/** Most runs one upload makes: the cap of a split file and of POST /api/sweeps. */
export const MAX_UPLOAD_RUNS = MAX_SWEEP_RUNS;

export function tooManyRuns(what: string): TooLargeError {
  return new TooLargeError(
    "too_many_runs",
    `this upload holds ${what}; at most ${MAX_UPLOAD_RUNS} runs are made from one upload: upload them in parts`,
  );
}

export class SweepIngest implements LiveSink {
  readonly lease: BlobLease;
  /** One live ingest per run folder key, in the order their first file arrived */
  readonly groups = new Map<string, LiveIngest>();
  aiperfSweep: AiperfSweepExport | null = null;
  readonly warnings: string[] = [];

  constructor(private readonly app: IngestDeps) {
    this.lease = app.blobs.lease(app.config.ingestStaleMs);
  }

  async open(file: { name: string; kind: Kind; format: Format; ord: number }): Promise<LiveFile | null> {
    if (AIPERF_SWEEP_FILE.test(file.name)) return this.readSweepExport(file.name);
    const { key } = runDirOf(file.name);
    let group = this.groups.get(key);
    if (!group && this.runKeys().length >= MAX_UPLOAD_RUNS)
      // Refused as it arrives, before another run is started (the cap of a split file and of POST /api/sweeps).
      throw tooManyRuns(`more than ${MAX_UPLOAD_RUNS} run folders`);
    if (!group) {
      group = new LiveIngest(this.app, this.lease);
      this.groups.set(key, group);
    }
    return group.open(file);
  }

  /** The folders whose files started a run, in arrival order. */
  runKeys(): string[] {
    return [...this.groups].filter(([, g]) => g.runId !== null).map(([k]) => k);
  }

  private readSweepExport(name: string): LiveFile {
    return {
      id: newFileId(),
      consume: async (bytes: Readable) => {
        const chunks: Buffer[] = [];
        let size = 0;
        try {
          for await (const chunk of bytes as AsyncIterable<Buffer>) {
            size += chunk.length;
            if (size > MAX_SWEEP_EXPORT_BYTES) break;
            chunks.push(chunk);
          }
        } catch {
          // A broken stream fails the upload where it is stored; nothing to add here.
          return;
        }
        const parsed =
          size <= MAX_SWEEP_EXPORT_BYTES ? readAiperfSweep(Buffer.concat(chunks).toString("utf8")) : null;
        if (parsed) this.aiperfSweep = parsed;
        else
          this.warnings.push(
            `${name}: not read as aiperf's sweep aggregate (not its JSON shape, or too large)`,
          );
      },
    };
  }

  /** The upload was refused or cut off: every run it started goes, and so does the lease. */
  async abandon(): Promise<void> {
    for (const g of this.groups.values()) await g.abandon();
    await this.lease.abandon();
  }
}
