#!/usr/bin/env node
// Compares two dumps of dump.mjs (docs/performance.md, "Before/after dump"), file by file:
// identical, or the values that changed (path, before, after) and the keys only one side has.
//
//   node test/bench/dump-diff.mjs A B [--examples 5]
//
// Paths that differ only in array indices are grouped (`series[*].y`), with their count, the
// first examples and, for numbers, the largest absolute and relative change. Exit 0 when every
// file is identical, 1 when anything differs.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** Every file under dir, as paths relative to it, sorted. */
export function listDump(dir) {
  const out = [];
  const walk = (rel) => {
    for (const e of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) walk(r);
      else out.push(r);
    }
  };
  walk("");
  return out.sort();
}

const isObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v);
const keyPath = (base, k) =>
  /^[A-Za-z_$][\w$]*$/.test(k) ? `${base}.${k}` : `${base}[${JSON.stringify(k)}]`;

/**
 * The differences of two JSON values: `changed` (a leaf value, or the type, differs at a path),
 * `onlyBefore` / `onlyAfter` (an object key or array item one side has).
 */
export function diffValues(before, after, at = "$", out = { changed: [], onlyBefore: [], onlyAfter: [] }) {
  if (Array.isArray(before) && Array.isArray(after)) {
    const n = Math.min(before.length, after.length);
    for (let i = 0; i < n; i++) diffValues(before[i], after[i], `${at}[${i}]`, out);
    for (let i = n; i < before.length; i++) out.onlyBefore.push({ path: `${at}[${i}]`, value: before[i] });
    for (let i = n; i < after.length; i++) out.onlyAfter.push({ path: `${at}[${i}]`, value: after[i] });
  } else if (isObject(before) && isObject(after)) {
    for (const k of Object.keys(before).sort()) {
      if (k in after) diffValues(before[k], after[k], keyPath(at, k), out);
      else out.onlyBefore.push({ path: keyPath(at, k), value: before[k] });
    }
    for (const k of Object.keys(after).sort())
      if (!(k in before)) out.onlyAfter.push({ path: keyPath(at, k), value: after[k] });
  } else if (before !== after) {
    // Two leaves, or two values of different types (an array against an object is a change too).
    out.changed.push({ path: at, before, after });
  }
  return out;
}

/** A path with its array indices as `[*]`: the items of one series share it. */
export const pattern = (p) => p.replace(/\[\d+\]/g, "[*]");

/** Entries grouped by pattern, in first-seen order: {pattern, count, examples, maxAbs, maxRel}. */
export function group(entries, examples) {
  const groups = new Map();
  for (const e of entries) {
    const key = pattern(e.path);
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { pattern: key, count: 0, examples: [], maxAbs: null, maxRel: null }));
    g.count++;
    if (g.examples.length < examples) g.examples.push(e);
    if (typeof e.before === "number" && typeof e.after === "number") {
      const abs = Math.abs(e.after - e.before);
      const rel = e.before === 0 ? null : abs / Math.abs(e.before);
      if (g.maxAbs === null || abs > g.maxAbs) g.maxAbs = abs;
      if (rel !== null && (g.maxRel === null || rel > g.maxRel)) g.maxRel = rel;
    }
  }
  return [...groups.values()];
}

/** Per file of either dump: {file, state: identical|changed|only-before|only-after|unparsable, diff}. */
export function diffDumps(dirA, dirB) {
  const a = new Set(listDump(dirA));
  const b = new Set(listDump(dirB));
  const out = [];
  for (const file of [...new Set([...a, ...b])].sort()) {
    if (!b.has(file)) out.push({ file, state: "only-before" });
    else if (!a.has(file)) out.push({ file, state: "only-after" });
    else {
      const ta = fs.readFileSync(path.join(dirA, file), "utf8");
      const tb = fs.readFileSync(path.join(dirB, file), "utf8");
      if (ta === tb) out.push({ file, state: "identical" });
      else {
        try {
          out.push({ file, state: "changed", diff: diffValues(JSON.parse(ta), JSON.parse(tb)) });
        } catch {
          out.push({ file, state: "unparsable" });
        }
      }
    }
  }
  return out;
}

const show = (v) => {
  const s = JSON.stringify(v);
  return s === undefined ? String(v) : s.length > 120 ? `${s.slice(0, 117)}…` : s;
};
const fmt = (x) => (x === null ? "—" : Number(x.toPrecision(3)).toString());

/** The report dump-diff prints, as lines. */
export function report(results, { examples = 5 } = {}) {
  const lines = [];
  for (const r of results) {
    if (r.state !== "changed") {
      lines.push(`${r.file}: ${r.state}`);
      continue;
    }
    const { changed, onlyBefore, onlyAfter } = r.diff;
    // Bytes differ yet no value does: key order or formatting, not numbers.
    if (changed.length + onlyBefore.length + onlyAfter.length === 0) {
      lines.push(`${r.file}: same values, different text`);
      continue;
    }
    lines.push(
      `${r.file}: ${changed.length} changed, ${onlyBefore.length} only before, ${onlyAfter.length} only after`,
    );
    for (const g of group(changed, examples)) {
      const range = g.maxAbs === null ? "" : ` (max |Δ| ${fmt(g.maxAbs)}, max rel ${fmt(g.maxRel)})`;
      lines.push(`  changed ${g.pattern} ×${g.count}${range}`);
      for (const e of g.examples) lines.push(`    ${e.path}: ${show(e.before)} → ${show(e.after)}`);
    }
    for (const [side, list] of [
      ["only before", onlyBefore],
      ["only after", onlyAfter],
    ])
      for (const g of group(list, examples)) {
        lines.push(`  ${side} ${g.pattern} ×${g.count}`);
        for (const e of g.examples) lines.push(`    ${e.path} = ${show(e.value)}`);
      }
  }
  const count = (s) => results.filter((r) => r.state === s).length;
  lines.push(
    `${results.length} files: ${count("identical")} identical, ${count("changed")} changed, ` +
      `${count("only-before")} only before, ${count("only-after")} only after`,
  );
  return lines;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [dirA, dirB] = process.argv
    .slice(2)
    .filter((a, i, all) => !a.startsWith("--") && all[i - 1] !== "--examples");
  if (!dirA || !dirB) {
    console.error("usage: node test/bench/dump-diff.mjs A B [--examples 5]");
    process.exit(2);
  }
  const i = process.argv.indexOf("--examples");
  const examples = i === -1 ? 5 : Number(process.argv[i + 1]);
  const results = diffDumps(dirA, dirB);
  console.log(report(results, { examples }).join("\n"));
  process.exitCode = results.every((r) => r.state === "identical") ? 0 : 1;
}
