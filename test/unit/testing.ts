import { readdirSync, statSync } from 'node:fs';
import * as path from 'node:path';

/** Deterministic pseudo-random numbers in [0, 1) (mulberry32), so a failure names a seed and step to replay. */
export function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The files below `dir` whose names end with `suffix`, in a stable order. */
export function filesUnder(dir: string, suffix: string): string[] {
  const found: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) found.push(...filesUnder(full, suffix));
    else if (name.endsWith(suffix)) found.push(full);
  }
  return found;
}
