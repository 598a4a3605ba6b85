/**
 * A time-breakdown segment in words, as the Breakdown view's table and Compare both name it
 * ("context queue" for `ctx_queue`, "generation KV transfer" for `gen_kv_transfer`): the upstream
 * span name stays the key, the CSV column and the hover text. A leaf (the browser bundles it).
 */
// `ttft`: the aiperf timeline's first part, as every page writes it.
const WORDS: Record<string, string> = { ctx: "context", gen: "generation", kv: "KV", ttft: "TTFT" };

export function segmentWords(name: string): string {
  return name
    .split("_")
    .filter(Boolean)
    .map((w) => WORDS[w] ?? w)
    .join(" ");
}
