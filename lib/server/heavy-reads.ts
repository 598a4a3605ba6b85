/**
 * Admission of heavy reads: routes that read every request of a run (trace export, report,
 * goodput, sweep point, a timeline window). Each such read yields to the event loop as it goes,
 * so one never stops the server; but reads run side by side share the CPU, so without a bound a
 * client asking for many at once would slow every other client's reads to a crawl.
 *
 * At most `RUNLENS_HEAVY_READS` (2) run at once; the next wait in one queue, first come first
 * served, up to `RUNLENS_HEAVY_READ_QUEUE` (32): past that a read is refused `503 busy` with
 * `Retry-After`. A read holds its place until its answer has been sent in full, or the client
 * has gone.
 *
 * One client cannot starve the others (docs/reliability.md): a client runs at most
 * `RUNLENS_HEAVY_READS` − 1 reads at once (1 of 2), its others wait while a later client's read
 * takes the place left, so a client holding its answers unread never holds every place; and it
 * holds at most `RUNLENS_HEAVY_READS_PER_CLIENT` places running and waiting together (half of
 * the running and queue places, 17), past which it is refused `429 too_many_reads` with
 * `Retry-After`. The client is the address the proxy in front names (`X-Forwarded-For`,
 * `X-Real-IP`; Next.js names the socket's address there when no proxy does), else the bearer
 * token it sends.
 */
import { createHash } from "node:crypto";
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
  /** Each client's places, running and waiting */
  private readonly perClient = new Map<string, number>();
  /** Each client's running reads */
  private readonly running = new Map<string, number>();

  /** A release function once the read may start; a refusal when it may not. */
  async admit(client: string | null): Promise<(() => void) | Response> {
    const { maxActive, maxQueue, clientShare } = limits();
    if (client !== null && (this.perClient.get(client) ?? 0) >= clientShare)
      return refuse(
        429,
        "too_many_reads",
        "too many heavy reads from this client at once; try again shortly",
      );
    if (!this.mayStart(client, maxActive) && this.queue.length >= maxQueue)
      return refuse(503, "busy", "too many heavy reads at once; try again shortly");
    if (client !== null) bump(this.perClient, client, 1);
    if (this.mayStart(client, maxActive)) this.start(client);
    else await new Promise<void>((start) => this.queue.push({ client, start }));
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.active--;
      if (client !== null) {
        bump(this.perClient, client, -1);
        bump(this.running, client, -1);
      }
      this.startWaiting();
    };
  }

  /** Whether a read of `client` may run now: a place is free and the client is under its running share. */
  private mayStart(client: string | null, maxActive: number): boolean {
    if (this.active >= maxActive) return false;
    return client === null || (this.running.get(client) ?? 0) < Math.max(1, maxActive - 1);
  }

  private start(client: string | null): void {
    this.active++;
    if (client !== null) bump(this.running, client, 1);
  }

  /** Free places pass to the first waiting reads whose clients are under their running share. */
  private startWaiting(): void {
    const { maxActive } = limits();
    for (let i = 0; i < this.queue.length && this.active < maxActive;) {
      const w = this.queue[i];
      if (!this.mayStart(w.client, maxActive)) {
        i++;
        continue;
      }
      this.queue.splice(i, 1);
      this.start(w.client);
      w.start();
    }
  }

  /** Reads running and waiting, for tests. */
  counts(): { active: number; queued: number } {
    return { active: this.active, queued: this.queue.length };
  }
}

function limits() {
  const maxActive = setting("RUNLENS_HEAVY_READS", 2);
  const maxQueue = setting("RUNLENS_HEAVY_READ_QUEUE", 32);
  const clientShare = setting(
    "RUNLENS_HEAVY_READS_PER_CLIENT",
    Math.max(1, Math.floor((maxActive + maxQueue) / 2)),
  );
  return { maxActive, maxQueue, clientShare };
}

function bump(counts: Map<string, number>, key: string, by: number): void {
  const n = (counts.get(key) ?? 0) + by;
  if (n > 0) counts.set(key, n);
  else counts.delete(key);
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

/**
 * The client: its address as the proxy in front names it (Next.js names the socket's address in
 * `X-Forwarded-For` when no proxy does), else its bearer token (a hash of it, never the token
 * itself); null when there is none to say.
 */
export function clientOf(req: Request): string | null {
  const forwarded = req.headers.get("x-forwarded-for")?.split(",")[0]?.trim();
  const address = forwarded || req.headers.get("x-real-ip")?.trim();
  if (address) return address;
  const token = /^Bearer\s+(.+)$/i.exec(req.headers.get("authorization")?.trim() ?? "")?.[1];
  return token ? `token:${createHash("sha256").update(token).digest("base64url").slice(0, 16)}` : null;
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
