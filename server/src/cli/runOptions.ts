import { availableParallelism } from 'node:os';
import { bytesPerMB } from '../disk/files';

/** The options of the commands that read many inputs: how many workers, which share of the inputs, the size limit. */

/** `--shard i/n`: the inputs a machine of a CI matrix takes (1-based, as test runners count). */
export interface Shard {
  index: number;
  count: number;
}

/** Reads `i/n` (1 ≤ i ≤ n), or an error message. */
export function readShard(text: string | undefined): Shard | string {
  const match = /^(\d+)\/(\d+)$/.exec(text ?? '');
  const index = Number(match?.[1]);
  const count = Number(match?.[2]);
  return match && count >= 1 && index >= 1 && index <= count ? { index, count } : '--shard takes i/n with 1 <= i <= n (e.g. --shard 2/4)';
}

/**
 * Whether the shard takes item `position` (0-based) of a sequence: whole inputs by their place among the inputs, the
 * lines of a dataset by their number. Every item is taken by exactly one of the n shards.
 */
export function shardTakes(shard: Shard | undefined, position: number): boolean {
  return !shard || position % shard.count === shard.index - 1;
}

/** Workers when --jobs does not say: one per core. */
export const defaultJobs = availableParallelism();

/** Reads the count given to --jobs, or an error message. */
export function readJobs(text: string | undefined): number | string {
  const value = Number(text);
  return Number.isInteger(value) && value >= 1 && value <= 256 ? value : '--jobs takes a whole number from 1 to 256';
}

/** Default of --max-file-size: files read whole above it are refused. */
export const defaultMaxFileSizeMB = 100;

/** Reads the megabytes given to --max-file-size, as bytes, or an error message. */
export function readMaxFileSize(text: string | undefined): number | string {
  const value = Number(text);
  return Number.isFinite(value) && value > 0 ? value * bytesPerMB : '--max-file-size takes a number of megabytes above 0';
}
