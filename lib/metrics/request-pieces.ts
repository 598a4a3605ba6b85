/**
 * Per-request data split into pieces by x_request_id (docs/architecture.md §Per-request data in
 * pieces): a request's piece is a hash of its id, so a reader of one request finds its piece
 * without an index of ids, and reads some `REQUESTS_PER_PIECE` requests whatever the run's size.
 */
import type { PiecedChart } from "@/lib/api/chart-catalog";
import type { RequestPiecesIndex } from "@/lib/api/request-journey";

/** Requests a piece holds on average. */
export const REQUESTS_PER_PIECE = 64;

/** The piece of `xRequestId` among `pieces` (FNV-1a of its UTF-16 code units). */
export function requestPieceOf(xRequestId: string, pieces: number): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < xRequestId.length; i++) {
    h ^= xRequestId.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0) % pieces;
}

/**
 * The requests that carry an x_request_id, in pieces (each in the order given), and the index
 * that finds them; requests without an id are left out (the index's `withoutId` counts them).
 */
export function requestPieces<T extends { xRequestId: string | null }>(
  requests: readonly T[],
  withoutId: RequestPiecesIndex["withoutId"],
): { index: RequestPiecesIndex; pieces: T[][] } {
  const withId = requests.filter((r): r is T & { xRequestId: string } => r.xRequestId !== null);
  const count = Math.max(1, Math.ceil(withId.length / REQUESTS_PER_PIECE));
  const pieces: T[][] = Array.from({ length: count }, () => []);
  for (const r of withId) pieces[requestPieceOf(r.xRequestId, count)].push(r);
  return { index: { pieces: count, requests: withId.length, withoutId }, pieces };
}

/** The stored payloads of a pieced list: its index and each piece, by key. */
export function piecedPayloads<T extends { xRequestId: string | null }>(
  chart: PiecedChart,
  requests: readonly T[],
  withoutId: RequestPiecesIndex["withoutId"],
): Record<string, unknown> {
  const { index, pieces } = requestPieces(requests, withoutId);
  const out: Record<string, unknown> = { [chart.index.key]: index };
  pieces.forEach((p, n) => (out[chart.piece(n).key] = { requests: p }));
  return out;
}
