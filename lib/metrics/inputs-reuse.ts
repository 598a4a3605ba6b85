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
 *
 * Only text is counted: inputs.json is the request bodies aiperf sent, which carry no token
 * counts, and an image or audio part's tokens are the server's to decide.
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

  turnsOf(id: string): readonly InputsTurn[] | undefined {
    return this.sessions.get(id);
  }

  turnOf(id: string, turn: number): InputsTurn | null {
    const turns = this.sessions.get(id);
    return turns && turn >= 0 && turn < turns.length ? turns[turn] : null;
  }
}

/**
 * A turn's estimate as a line in its request's prompt length: possible = scale × ISL + offset,
 * clamped to [0, ISL]. Kept in this form so the stored rows (`aiperf_inputs_turns`, applied to
 * each request's ISL by one UPDATE) and the charts compute the same floating-point value.
 */
export interface IslLine {
  scale: number;
  offset: number;
}

/** The line of one turn's estimate; null when its text does not say (no characters, no ratio). */
export function turnLine(t: InputsTurn, turn: number, tokensPerChar: number | null): IslLine | null {
  if (turn === 0) return { scale: 0, offset: 0 };
  if (t.carriesHistory) return t.chars > 0 ? { scale: t.sharedChars / t.chars, offset: 0 } : null;
  return tokensPerChar === null ? null : { scale: 1, offset: -(t.chars * tokensPerChar) };
}

/** A line applied to one request's prompt length; NaN when the length is not known. */
export function possibleOnLine(line: IslLine, isl: number): number {
  if (!Number.isFinite(isl)) return NaN;
  return Math.min(Math.max(isl * line.scale + line.offset, 0), isl);
}

/** One request's estimate; NaN when its prompt length or the text is not known. */
export function estimatePossible(
  t: InputsTurn,
  turn: number,
  isl: number,
  tokensPerChar: number | null,
): number {
  const line = turnLine(t, turn, tokensPerChar);
  return line ? possibleOnLine(line, isl) : NaN;
}

/**
 * The run's tokens per character on first turns, Σ ISL(0) / Σ chars(0) over successful profiling
 * first turns whose payload is text only (an image's tokens have no characters); null when none.
 */
export function firstTurnTokensPerChar(
  log: RequestLog,
  turns: TurnColumns,
  index: ConversationIndex,
  inputs: InputsReuse,
): number | null {
  const isl = log.cols.inputTokens;
  let islSum = 0;
  let charSum = 0;
  for (let i = 0; i < log.length; i++) {
    if (turns.turn[i] !== 0 || turns.conv[i] === NO_TURN || log.flags[i] & (FLAG_WARMUP | FLAG_ERROR))
      continue;
    const t = inputs.turnOf(index.id(turns.conv[i])!, 0);
    if (!t || t.nonText || !(t.chars > 0) || !Number.isFinite(isl[i])) continue;
    islSum += isl[i];
    charSum += t.chars;
  }
  return charSum > 0 ? islSum / charSum : null;
}

export interface InputsReuseApplied {
  /** Requests whose possible reuse is now the estimate (0: the records' own count stands) */
  replaced: number;
  /** Profiling requests among them */
  profiling: number;
  /** Profiling requests among them whose payload had image, audio or video parts, not counted */
  nonText: number;
  /** The ratio delta payloads were scaled by, null when none could be */
  tokensPerChar: number | null;
}

/**
 * Replaces `turns.possible` of every request whose conversation and turn inputs.json holds by
 * the estimate.
 */
export function applyInputsReuse(
  log: RequestLog,
  turns: TurnColumns,
  index: ConversationIndex,
  inputs: InputsReuse,
): InputsReuseApplied {
  if (inputs.size === 0) return { replaced: 0, profiling: 0, nonText: 0, tokensPerChar: null };
  const isl = log.cols.inputTokens;
  const tokensPerChar = firstTurnTokensPerChar(log, turns, index, inputs);
  let replaced = 0;
  let profiling = 0;
  let nonText = 0;
  for (let i = 0; i < log.length; i++) {
    const c = turns.conv[i];
    const turn = turns.turn[i];
    if (c === NO_TURN || turn === NO_TURN) continue;
    const t = inputs.turnOf(index.id(c)!, turn);
    if (!t) continue;
    const v = estimatePossible(t, turn, isl[i], tokensPerChar);
    if (Number.isNaN(v)) continue;
    turns.possible[i] = v;
    replaced++;
    if (log.flags[i] & FLAG_WARMUP) continue;
    profiling++;
    if (t.nonText) nonText++;
  }
  return { replaced, profiling, nonText, tokensPerChar };
}

/**
 * The turns of the records' conversations as inputs.json gives them, each with its line, in
 * the order the index holds them: what `aiperf_inputs_turns` stores, one conversation at a time.
 */
export function* inputsTurnLines(
  index: ConversationIndex,
  inputs: InputsReuse,
  tokensPerChar: number | null,
): Generator<{ conversationId: string; turn: number; line: IslLine; nonText: boolean }> {
  for (const id of index.ids()) {
    const turns = inputs.turnsOf(id);
    if (!turns) continue;
    for (let turn = 0; turn < turns.length; turn++) {
      const line = turnLine(turns[turn], turn, tokensPerChar);
      if (line) yield { conversationId: id, turn, line, nonText: turns[turn].nonText };
    }
  }
}
