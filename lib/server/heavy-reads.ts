/**
 * Admission of heavy reads: routes that read every request of a run (trace export, report,
 * goodput, sweep point, a timeline window). Each such read yields to the event loop as it goes,
 * so one never stops the server; but reads run side by side share the CPU, so without a bound a
 * client asking for many at once would slow every other client's reads to a crawl.
 *
 * At most `RUNLENS_HEAVY_READS` (2) run at once; the next wait in one queue, first come first
 * served, up to `RUNLENS_HEAVY_READ_QUEUE` (32): past that a read is refused `503 busy` with
 * `Retry-After`. A client named by the proxy in front (`X-Forwarded-For`, `X-Real-IP`) holds at
 * most half of the queue and running places together (`429 too_many_reads`), so one client
 * cannot fill the queue and shut the others out. A read holds its place until its answer has
 * been sent in full, or the client has gone.
 */
import { jsonError } from "./http";

function setting(name: string, fallback: number): number {
  const v = Number(process.env[name]);
  return Number.isInteger(v) && v > 0 ? v : fallback;
}

interface Waiter {
  client: string | null;
  start: () => void;
}

class HeavyReads {
  private active = 0;
  private readonly queue: Waiter[] = [];
  private readonly perClient = new Map<string, number>();

  /** A release function once the read may start; a refusal when it may not. */
  async admit(client: string | null): Promise<(() => void) | Response> {
    const maxActive = setting("RUNLENS_HEAVY_READS", 2);
    const maxQueue = setting("RUNLENS_HEAVY_READ_QUEUE", 32);
    const clientShare = Math.max(1, Math.floor((maxActive + maxQueue) / 2));
    if (client !== null && (this.perClient.get(client) ?? 0) >= clientShare)
      return refuse(
        429,
        "too_many_reads",
        "too many heavy reads from this client at once; try again shortly",
      );
    if (this.active >= maxActive && this.queue.length >= maxQueue)
      return refuse(503, "busy", "too many heavy reads at once; try again shortly");
    if (client !== null) this.perClient.set(client, (this.perClient.get(client) ?? 0) + 1);
    if (this.active < maxActive) this.active++;
    else await new Promise<void>((start) => this.queue.push({ client, start }));
    let released = false;
    return () => {
      if (released) return;
      released = true;
      if (client !== null) {
        const n = (this.perClient.get(client) ?? 1) - 1;
        if (n > 0) this.perClient.set(client, n);
        else this.perClient.delete(client);
      }
      const next = this.queue.shift();
      // The place passes to the next in the queue; otherwise it is freed.
      if (next) next.start();
      else this.active--;
    };
  }

  /** Reads running and waiting, for tests. */
  counts(): { active: number; queued: number } {
    return { active: this.active, queued: this.queue.length };
  }
}

function refuse(status: number, code: string, message: string): Response {
  const res = jsonError(status, code, message);
  res.headers.set("Retry-After", "2");
  return res;
}

// On globalThis: the production bundle holds one copy of this module per route chunk, and the
// bound is the server's, not a route's.
const KEY = Symbol.for("runlens.heavyReads");
const holder = globalThis as { [KEY]?: HeavyReads };
export const heavyReads = (holder[KEY] ??= new HeavyReads());

/** The client as the proxy in front names it; null when there is none to say. */
export function clientOf(req: Request): string | null {
  const forwarded = req.headers.get("x-forwarded-for")?.split(",")[0]?.trim();
  return forwarded || req.headers.get("x-real-ip")?.trim() || null;
}

/**
 * `res` with its body handed on as it is read, calling `release` once it has been read to its
 * end, has failed, or the client has cancelled it.
 */
export function releasingWhenSent(res: Response, release: () => void): Response {
  if (!res.body) {
    release();
    return res;
  }
  const reader = res.body.getReader();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const r = await reader.read();
        if (r.done) {
          release();
          controller.close();
        } else controller.enqueue(r.value);
      } catch (err) {
        release();
        controller.error(err);
      }
    },
    cancel(reason) {
      release();
      return reader.cancel(reason);
    },
  });
  return new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers });
}
