/**
 * Backend by metric-name prefix, never by a framework string (docs/metrics.md §Backend and roles, trap T6).
 * Dynamo metrics beside an engine's make a "dynamo+<engine>" run; Dynamo alone is "dynamo".
 */
export type Engine = "vllm" | "sglang" | "trtllm" | "atom";

export function engineOf(name: string): Engine | null {
  if (name.startsWith("vllm:")) return "vllm";
  if (name.startsWith("sglang:")) return "sglang";
  if (name.startsWith("trtllm_") || name.startsWith("trtllm:")) return "trtllm";
  if (name.startsWith("atom:") || name.startsWith("atom_")) return "atom";
  return null;
}

export function isDynamoName(name: string): boolean {
  return name.startsWith("dynamo_");
}

export function detectBackend(names: Iterable<string>): string | null {
  const engines = new Set<Engine>();
  let dynamo = false;
  for (const n of names) {
    const e = engineOf(n);
    if (e) engines.add(e);
    else if (isDynamoName(n)) dynamo = true;
  }
  const list = [...engines].sort();
  if (list.length === 0) return dynamo ? "dynamo" : null;
  return (dynamo ? ["dynamo", ...list] : list).join("+");
}
