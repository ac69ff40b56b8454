/** A map that keeps only its most recently used entries (a Map iterates in insertion order). */
export class LruCache<K, V> {
  private readonly entries = new Map<K, V>();

  constructor(readonly capacity: number) {}

  get(key: K): V | undefined {
    const value = this.entries.get(key);
    if (value !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, value);
    }
    return value;
  }

  set(key: K, value: V): void {
    this.entries.delete(key);
    this.entries.set(key, value);
    while (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value as K);
  }

  get size(): number {
    return this.entries.size;
  }
}

/** `compute`, called once per object (a document version's model) and kept as long as the object lives. */
export function oncePerObject<K extends object, V>(compute: (key: K) => V): (key: K) => V {
  const found = new WeakMap<K, V>();
  return (key) => {
    let value = found.get(key);
    if (value === undefined) {
      value = compute(key);
      found.set(key, value);
    }
    return value;
  };
}
