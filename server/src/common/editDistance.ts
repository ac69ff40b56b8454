/** Levenshtein distance, stopping early once it exceeds `limit` (returns limit + 1 then). */
export function editDistance(a: string, b: string, limit = 3): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost);
      rowMin = Math.min(rowMin, current[j]);
    }
    if (rowMin > limit) return limit + 1;
    previous = current;
  }
  return previous[b.length];
}

/**
 * The known names closest to a misspelled one (at most 2 edits, and fewer than half its length), best first.
 * Several names at the same best distance are all returned: the caller knows there is a choice.
 */
export function closestNames(name: string, known: Iterable<string>): string[] {
  const limit = Math.min(2, Math.floor((name.length - 1) / 2));
  let best = limit + 1;
  let found: string[] = [];
  for (const candidate of known) {
    if (candidate === name) continue;
    const distance = editDistance(name.toLowerCase(), candidate.toLowerCase(), limit);
    if (distance < best) {
      best = distance;
      found = [candidate];
    } else if (distance === best && distance <= limit) found.push(candidate);
  }
  return found;
}
