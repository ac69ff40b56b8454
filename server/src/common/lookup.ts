/**
 * A lookup table keyed by names that come from trace or rule text. It has no prototype: a key such as
 * `constructor`, `toString` or `__proto__` finds nothing instead of an Object method.
 */
export function lookup<T>(entries: Record<string, T>): Record<string, T> {
  return Object.assign(Object.create(null) as Record<string, T>, entries);
}

/** The entry of a table under key, only when the table itself has it (never inherited). */
export function ownEntry<T>(table: Record<string, T> | undefined, key: string): T | undefined {
  return table && Object.prototype.hasOwnProperty.call(table, key) ? table[key] : undefined;
}
