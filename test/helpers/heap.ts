/**
 * The bytes a memory test pins (never a time): the heap in use plus the array buffers beside it,
 * after two full garbage collections so only what is still reachable counts.
 */
import v8 from "node:v8";
import vm from "node:vm";

export function heapInUse(): number {
  v8.setFlagsFromString("--expose-gc");
  const gc = vm.runInNewContext("gc") as () => void;
  gc();
  gc();
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
}
