// The thread behind RecordBlockParser (lib/ingest/record-block-parser.ts): it decodes and parses
// each block of aiperf record lines it is sent (their bytes, moved here) into typed columns and
// answers with the block id and the columns, their buffers moved rather than copied. Blocks are
// answered in the order they arrive.
import { parentPort } from "node:worker_threads";
import { blockTransfer, parseRecordBytes } from "../formats/aiperf-record-block.mjs";

parentPort.on("message", ({ id, bytes, length }) => {
  let block;
  try {
    block = parseRecordBytes(bytes, length);
  } catch (err) {
    parentPort.postMessage({
      id,
      error: err instanceof Error ? err.message : String(err),
    });
    return;
  }
  parentPort.postMessage({ id, block }, blockTransfer(block));
});
