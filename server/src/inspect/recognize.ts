/**
 * An Inspect AI evaluation log (`.json`), by its content whatever its name: one JSON object whose `eval` object
 * describes the run (`task`, `task_id` or `eval_id`) beside the log's `version`. Inspect writes these keys first,
 * before the samples, so only the beginning of the text is looked at: a 100 MB log costs the same as a small one,
 * and other JSON files are passed over after a few searches.
 */

/** Characters searched: the eval object with its dataset and config fits well within this. */
const searched = 64 * 1024;

export function recognizeInspectLog(text: string): boolean {
  const head = text.slice(0, searched);
  if (!/^\uFEFF?\s*\{/.test(head)) return false;
  if (!/"version"\s*:\s*\d/.test(head)) return false;
  const evalAt = head.search(/"eval"\s*:\s*\{/);
  if (evalAt < 0) return false;
  return /"(?:task|task_id|eval_id)"\s*:\s*"/.test(head.slice(evalAt));
}
