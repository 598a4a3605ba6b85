/** What receiving an upload hands on: the stored files, the form fields, and the live sink's side. */
import type { Readable } from "node:stream";
import type { Kind } from "@/lib/api/kinds";
import type { Format } from "@/lib/formats/kinds";
import type { BlobLease } from "@/lib/store/blob-leases";

export interface StagedFile {
  name: string;
  sha256: string;
  bytes: number;
  kind: Kind;
  format: Format;
  /** The blob did not exist before this upload (deleted again if the upload is refused and no one else uses it). */
  created: boolean;
  /** File id given by the live sink that analysed it on arrival */
  id?: string;
}

/** A file the live sink analyses: its id, and the consumer of its (decompressed) bytes. */
export interface LiveFile {
  id: string;
  /** Reads the stream to its end (or gives up on it); never rejects. */
  consume(bytes: Readable): Promise<void>;
}

/** Where recognised files go while they are stored (see LiveIngest). */
export interface LiveSink {
  /** The upload's hold on the blobs it stores, until its file rows are written or it ends. */
  readonly lease?: BlobLease;
  open(file: { name: string; kind: Kind; format: Format; ord: number }): Promise<LiveFile | null>;
}

export interface UploadLimits {
  maxUploadBytes: number;
  /** The whole body must arrive within this time (a stalled or trickling client is cut off). */
  uploadTimeoutMs?: number;
  maxArchiveEntries: number;
  maxExpandedBytes: number;
  /**
   * A gzip stream (a .gz part or entry) may expand at most this many times the compressed bytes
   * read so far, once it is past EXPANSION_RATIO_FLOOR_BYTES; unset: no ratio limit.
   */
  maxExpansionRatio?: number;
}

export interface ReceivedUpload {
  files: StagedFile[];
  fields: {
    name?: string;
    labels?: string;
    series?: string;
    commit?: string;
    branch?: string;
    order?: string;
  };
  warnings: string[];
  /** A default run name from the upload itself (archive or folder name, or the first file). */
  suggestedName: string;
}
