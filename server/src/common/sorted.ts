/** The position of the first item whose key is above `key`, in a list in order of its keys (a binary search). */
export function firstAfter<T>(list: readonly T[], keyOf: (item: T) => number, key: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (keyOf(list[mid]) > key) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}
