/**
 * Which run an uploaded file belongs to when one upload holds a sweep (docs/formats.md §Sweep
 * uploads): the folder named for its concurrency or rate. aiperf names a sweep's folders
 * `concurrency_<N>` or `request_rate_<R>` (with trials below them, or them below trial folders);
 * hand-made sweeps use `<anything>_c<N>` or `<anything>-c<N>`, or a `concurrency<N>` / `conc<N>`
 * word in the folder's name (`qwen_concurrency4`, `llama-conc16-tp2`, aiperf's default artifact
 * folder `<model>-openai-chat-concurrency2`). Files under the same such name are one run, whatever
 * folders surround it, so aiperf's repeated trials of one value pool.
 */

const AIPERF_DIR = /^(concurrency|request_rate)[_-]?(\d+(?:\.\d+)?)$/i;
const SUFFIX_DIR = /^(.*[-_])?c(\d+)$/i;
/** A word of the folder's name (between `-`, `_`, `.` or its ends); `max_concurrency=8` is not one. */
const CONCURRENCY_WORD = /(?:^|[-_.])(?:concurrency|conc)[-_]?(\d+)(?=$|[-_.])/i;

export interface RunDir {
  /** The folder name that names the run; "" for a file outside any such folder */
  key: string;
  concurrency: number | null;
  requestRate: number | null;
}

export function runDirOf(name: string): RunDir {
  const dirs = name.replace(/\\/g, "/").split("/").slice(0, -1);
  for (let i = dirs.length - 1; i >= 0; i--) {
    const d = dirs[i];
    const aiperf = AIPERF_DIR.exec(d);
    if (aiperf) {
      const v = Number(aiperf[2]);
      const isRate = aiperf[1].toLowerCase() === "request_rate";
      return { key: d, concurrency: isRate ? null : v, requestRate: isRate ? v : null };
    }
    const suffix = SUFFIX_DIR.exec(d);
    if (suffix) return { key: d, concurrency: Number(suffix[2]), requestRate: null };
    const word = CONCURRENCY_WORD.exec(d);
    if (word) return { key: d, concurrency: Number(word[1]), requestRate: null };
  }
  return { key: "", concurrency: null, requestRate: null };
}
