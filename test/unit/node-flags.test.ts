/**
 * The server's V8 flags (bin/node-flags.mjs) are the ones `npm start` passes, and Node accepts
 * them: a flag Node refused would stop the server from starting at all.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { SERVER_NODE_FLAGS } from "../../bin/node-flags.mjs";

const ROOT = path.resolve(__dirname, "../..");

describe("server V8 flags", () => {
  it("are passed by `npm start`", () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8"));
    expect(pkg.scripts.start).toBe(`node ${SERVER_NODE_FLAGS.join(" ")} bin/start.mjs`);
  });

  it("are accepted by this Node and keep the young generation small", () => {
    const r = spawnSync(
      process.execPath,
      [
        ...SERVER_NODE_FLAGS,
        "-e",
        // Allocate enough short-lived garbage for the young generation to grow to its limit.
        "let a=[];for(let i=0;i<3e6;i++){a.push({i});if(a.length>1e4)a=[]}" +
          "const s=require('v8').getHeapSpaceStatistics().find(s=>s.space_name==='new_space');" +
          "console.log(s.space_size)",
      ],
      { encoding: "utf8" },
    );
    expect(r.status, r.stderr).toBe(0);
    // Two semi-spaces of at most 4 MB each (V8's own default grows to 2 × 16 MB).
    expect(Number(r.stdout.trim())).toBeLessThanOrEqual(8 * 2 ** 20);
  });

  it("collect the old generation before it grows far past what is live", () => {
    const r = spawnSync(
      process.execPath,
      [
        ...SERVER_NODE_FLAGS,
        "-e",
        // ~10 MB that stays, then batches of objects that each live long enough to be promoted
        // and then die: the heap's high-water mark against what is live at the end.
        "const v8=require('v8');const keep=[];" +
          "for(let i=0;i<400;i++)keep.push(new Float64Array(12500).fill(1).join(','));" +
          "const ring=new Array(64).fill(null);let max=0;" +
          "for(let i=0;i<3000;i++){ring[i%64]=Array.from({length:2000},(_,j)=>({j}));" +
          "if(i%20===0)max=Math.max(max,v8.getHeapStatistics().total_physical_size)}" +
          "console.log(keep.length,max)",
      ],
      { encoding: "utf8" },
    );
    expect(r.status, r.stderr).toBe(0);
    const [kept, maxBytes] = r.stdout.trim().split(" ").map(Number);
    expect(kept).toBe(400);
    // ~39 MB with the flags; V8's default growing factor lets the same program reach ~87 MB.
    expect(maxBytes).toBeLessThanOrEqual(60e6);
  }, 180_000);
});
