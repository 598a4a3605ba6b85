/**
 * Parses blocks of aiperf record lines on a thread of their own, so JSON.parse and reading the
 * records run on the second core while this thread receives, hashes and stores the upload. The
 * columns come back as moved buffers (lib/formats/aiperf-record-block.mjs): copying objects
 * between threads costs as much as parsing them. Blocks resolve in the order they were sent.
 *
 * A block is the lines' bytes (lib/ingest/line-blocks.ts), moved to the thread, which decodes
 * and splits them: the receiving thread makes no string per line.
 *
 * The thread starts once a file has sent `threadAfterBytes` of lines: a small file is parsed
 * here, by the same function, sooner than a thread would start. So are all blocks without the
 * thread's script (a bundle run from elsewhere) or with `RUNLENS_PARSE_THREAD=inline`.
 */
import fs from "node:fs";
import path from "node:path";
import { setImmediate as nextTurn } from "node:timers/promises";
import { Worker } from "node:worker_threads";
import { parseRecordBytes, type RecordBlock } from "@/lib/formats/aiperf-record-block.mjs";

const WORKER_SCRIPT = "lib/ingest/aiperf-parse-worker.mjs";

/** Bytes of lines parsed here before the thread starts: a few ms of parsing, about a thread's start-up. */
export const THREAD_AFTER_BYTES = 4 << 20;

/**
 * Bytes of lines per block while blocks are parsed here (before the thread starts): each such
 * block is parsed in a turn of the event loop of its own (issue 31, health within 100 ms during
 * an ingest), about 200 aiperf records, where a block of 1 MiB (some 1,700) held the server
 * 30–48 ms at load 10–25.
 */
export const INLINE_BLOCK_BYTES = 128 << 10;

type Reply = { id: number; block?: RecordBlock; error?: string };

export class RecordBlockParser {
  private worker: Worker | null = null;
  private readonly script: string | null;
  private sentBytes = 0;
  private nextId = 1;
  private readonly waiting = new Map<
    number,
    { resolve: (b: RecordBlock) => void; reject: (e: Error) => void }
  >();
  private failed: Error | null = null;
  /** The last block parsed here, settled: the next one is parsed a turn after it */
  private inline: Promise<unknown> = Promise.resolve();

  constructor(private readonly threadAfterBytes = THREAD_AFTER_BYTES) {
    const script = path.join(process.cwd(), WORKER_SCRIPT);
    this.script = process.env.RUNLENS_PARSE_THREAD !== "inline" && fs.existsSync(script) ? script : null;
  }

  /** Whether blocks go to the parse thread (from now on) */
  get threaded(): boolean {
    return this.worker !== null;
  }

  /**
   * The columns of the lines in `bytes[0, length)` (UTF-8, joined by "\n"). `bytes` must own
   * its buffer: it is moved to the thread, and unusable here afterwards.
   */
  parse(bytes: Uint8Array<ArrayBuffer>, length: number): Promise<RecordBlock> {
    if (this.failed) return Promise.reject(this.failed);
    const worker = this.workerFor(length);
    if (!worker) {
      // One block a turn: blocks sent in one turn (a chunk of several blocks' lines) are not
      // parsed in that turn together.
      const block = this.inline.then(async () => {
        await nextTurn();
        return parseRecordBytes(bytes, length);
      });
      this.inline = block.catch(() => {});
      return block;
    }
    const id = this.nextId++;
    const p = new Promise<RecordBlock>((resolve, reject) => this.waiting.set(id, { resolve, reject }));
    worker.postMessage({ id, bytes, length }, [bytes.buffer]);
    return p;
  }

  /** Stops the thread; blocks still waiting fail. */
  async close(): Promise<void> {
    await this.worker?.terminate();
  }

  private workerFor(bytes: number): Worker | null {
    this.sentBytes += bytes;
    if (this.worker || !this.script || this.sentBytes <= this.threadAfterBytes) return this.worker;
    const worker = new Worker(this.script, {
      // A block's text and strings live only until its columns are filled: a small young generation
      // collects them at once instead of letting the thread's heap grow first.
      resourceLimits: { maxYoungGenerationSizeMb: 16, maxOldGenerationSizeMb: 256 },
    });
    worker.on("message", (m: Reply) => {
      const w = this.waiting.get(m.id);
      if (!w) return;
      this.waiting.delete(m.id);
      if (m.block) w.resolve(m.block);
      else w.reject(new Error(`aiperf parse thread: ${m.error}`));
    });
    worker.on("error", (err) => this.failAll(err));
    worker.on("exit", () => this.failAll(new Error("the aiperf parse thread stopped")));
    this.worker = worker;
    return worker;
  }

  private failAll(err: Error): void {
    this.failed ??= err;
    for (const w of this.waiting.values()) w.reject(err);
    this.waiting.clear();
  }
}
