/**
 * Possible reuse estimated from aiperf's inputs.json (docs/metrics.md §Turns, "From inputs.json").
 * The file holds each turn's payload as text, not tokens, so a share of characters is turned
 * into tokens with the records' ISL; the result is an estimate and is labelled so.
 *
 * - A payload that carries its history (its messages begin with every message of the previous
 *   payload): the shared prefix is those characters, possible(k) = ISL(k) × shared / chars(k).
 * - A payload that holds only the turn's new messages (aiperf replays the history and the
 *   answers itself): everything but the new text is history, possible(k) = ISL(k) − chars(k) × r,
 *   with r the run's tokens per character on first turns (Σ ISL(0) / Σ chars(0)), whose prompt
 *   is their payload alone.
 *
 * Turn 0 has nothing earlier: 0. Clamped to [0, ISL(k)].
 */
import type { InputsSession, InputsTurn } from "@/lib/formats/aiperf-inputs";
import { NO_TURN, type ConversationIndex, type TurnColumns } from "./conversation-turns";
import { FLAG_ERROR, FLAG_WARMUP, type RequestLog } from "./requests-log";

export class InputsReuse {
  private readonly sessions = new Map<string, InputsTurn[]>();

  add(s: InputsSession): void {
    this.sessions.set(s.sessionId, s.turns);
  }

  get size(): number {
    return this.sessions.size;
  }

  turnOf(id: string, turn: number): InputsTurn | null {
    const turns = this.sessions.get(id);
    return turns && turn >= 0 && turn < turns.length ? turns[turn] : null;
  }
}

/** One request's estimate; NaN when its prompt length or the text is not known. */
export function estimatePossible(
  t: InputsTurn,
  turn: number,
  isl: number,
  tokensPerChar: number | null,
): number {
  if (!Number.isFinite(isl)) return NaN;
  if (turn === 0) return 0;
  let v: number;
  if (t.carriesHistory) {
    if (!(t.chars > 0)) return NaN;
    v = (isl * t.sharedChars) / t.chars;
  } else {
    if (tokensPerChar === null) return NaN;
    v = isl - t.chars * tokensPerChar;
  }
  return Math.min(Math.max(v, 0), isl);
}

/**
 * Replaces `turns.possible` of every request whose conversation and turn inputs.json holds by
 * the estimate; returns how many were replaced (0: the records' own count stands).
 */
export function applyInputsReuse(
  log: RequestLog,
  turns: TurnColumns,
  index: ConversationIndex,
  inputs: InputsReuse,
): number {
  if (inputs.size === 0) return 0;
  const isl = log.cols.inputTokens;
  let islSum = 0;
  let charSum = 0;
  for (let i = 0; i < log.length; i++) {
    if (turns.turn[i] !== 0 || turns.conv[i] === NO_TURN || log.flags[i] & (FLAG_WARMUP | FLAG_ERROR))
      continue;
    const t = inputs.turnOf(index.ids[turns.conv[i]], 0);
    if (!t || t.nonText || !(t.chars > 0) || !Number.isFinite(isl[i])) continue;
    islSum += isl[i];
    charSum += t.chars;
  }
  const tokensPerChar = charSum > 0 ? islSum / charSum : null;
  let replaced = 0;
  for (let i = 0; i < log.length; i++) {
    const c = turns.conv[i];
    const turn = turns.turn[i];
    if (c === NO_TURN || turn === NO_TURN) continue;
    const t = inputs.turnOf(index.ids[c], turn);
    if (!t) continue;
    const v = estimatePossible(t, turn, isl[i], tokensPerChar);
    if (Number.isNaN(v)) continue;
    turns.possible[i] = v;
    replaced++;
  }
  return replaced;
}
