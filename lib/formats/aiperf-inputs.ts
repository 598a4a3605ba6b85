/**
 * aiperf `inputs.json` (docs/formats.md §aiperf inputs): `{data: [{session_id, payloads: […]}]}`,
 * one session per conversation, one payload per turn, each the request body aiperf formatted for
 * the endpoint (aiperf `dataset/dataset_manager.py` writes `InputsFile` of `SessionPayloads`).
 * Read as it streams, one session at a time: a dataset with images or audio inlines them as
 * base64, and the file can be far larger than the records.
 *
 * What is kept per turn is text lengths in characters, never the text: the tokens themselves are
 * not in the file, so the reuse math (lib/metrics/inputs-reuse.ts) scales them by the records' ISL.
 */
import type { Readable } from "node:stream";
import { readJsonObjectMembers } from "./json-object-stream";

export interface InputsTurn {
  /** Characters of text the payload holds (message contents, or a completions `prompt`) */
  chars: number;
  /**
   * Characters at the start of this payload that repeat the previous payload's messages (the
   * previous turn's prompt, as sent): the payload carries its history. 0 on a payload that
   * holds only the turn's new messages (aiperf replays the history itself).
   */
  sharedChars: number;
  /** Whether the payload's messages begin with every message of the previous payload */
  carriesHistory: boolean;
  /** Whether the payload holds images, audio or video, whose tokens text lengths miss */
  nonText: boolean;
}

export interface InputsSession {
  sessionId: string;
  turns: InputsTurn[];
}

interface Message {
  key: string;
  chars: number;
  nonText: boolean;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** A message's text (string content, or the text parts of a content list) and whether it has other parts. */
function messageOf(m: unknown): Message | null {
  if (!isObject(m)) return null;
  const role = typeof m.role === "string" ? m.role : "";
  const c = m.content;
  let text = "";
  let nonText = false;
  if (typeof c === "string") text = c;
  else if (Array.isArray(c))
    for (const part of c) {
      if (isObject(part) && part.type === "text" && typeof part.text === "string") text += part.text;
      else nonText = true;
    }
  return { key: `${role}\u0000${text}`, chars: text.length, nonText };
}

/** The payload's messages: chat `messages`, or a completions `prompt` as one message. */
function messagesOf(payload: unknown): Message[] {
  if (!isObject(payload)) return [];
  if (Array.isArray(payload.messages))
    return payload.messages.map(messageOf).filter((m): m is Message => m !== null);
  const p = payload.prompt;
  const prompts =
    typeof p === "string" ? [p] : Array.isArray(p) ? p.filter((x) => typeof x === "string") : [];
  return prompts.map((text: string) => ({ key: `prompt\u0000${text}`, chars: text.length, nonText: false }));
}

/** Length of the common leading characters of two message keys' texts. */
function commonTextPrefix(a: string, b: string): number {
  const ta = a.slice(a.indexOf("\u0000") + 1);
  const tb = b.slice(b.indexOf("\u0000") + 1);
  if (a.slice(0, a.indexOf("\u0000")) !== b.slice(0, b.indexOf("\u0000"))) return 0;
  const n = Math.min(ta.length, tb.length);
  let i = 0;
  while (i < n && ta.charCodeAt(i) === tb.charCodeAt(i)) i++;
  return i;
}

/** The turns of one session's payloads, each compared with the one before it. */
export function sessionTurns(payloads: readonly unknown[]): InputsTurn[] {
  const turns: InputsTurn[] = [];
  let prev: Message[] = [];
  for (const payload of payloads) {
    const msgs = messagesOf(payload);
    let chars = 0;
    let nonText = false;
    for (const m of msgs) {
      chars += m.chars;
      nonText ||= m.nonText;
    }
    let same = 0;
    while (same < prev.length && same < msgs.length && prev[same].key === msgs[same].key) same++;
    const carriesHistory = turns.length > 0 && prev.length > 0 && same === prev.length;
    let sharedChars = 0;
    if (turns.length > 0 && same > 0) {
      for (let i = 0; i < same; i++) sharedChars += msgs[i].chars;
      // A prefix can end inside a message (a system prompt that grew): count its shared start too.
      if (same < prev.length && same < msgs.length)
        sharedChars += commonTextPrefix(prev[same].key, msgs[same].key);
    }
    turns.push({ chars, sharedChars, carriesHistory, nonText });
    prev = msgs;
  }
  return turns;
}

/**
 * Streams `source` and hands each session to `onSession`. Returns the number of `data` items
 * that were not sessions (no payload list). Throws JsonSyntaxError on malformed JSON.
 */
export async function readInputsSessions(
  source: Readable | AsyncIterable<Buffer>,
  onSession: (s: InputsSession) => void,
): Promise<{ sessions: number; skipped: number }> {
  let sessions = 0;
  let skipped = 0;
  await readJsonObjectMembers(source, new Set(["data"]), {
    member() {},
    arrayStart() {},
    element(_key, value, index) {
      if (!isObject(value) || !Array.isArray(value.payloads)) {
        skipped++;
        return;
      }
      const id = typeof value.session_id === "string" ? value.session_id : `#${index}`;
      sessions++;
      onSession({ sessionId: id, turns: sessionTurns(value.payloads) });
    },
  });
  return { sessions, skipped };
}
