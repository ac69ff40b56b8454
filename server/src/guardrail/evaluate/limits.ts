import { PyError } from './values';

/**
 * How much memory one rule may take. Python would try any allocation and, on a real machine, run out of memory or
 * be killed; the engine here aborts the whole process when its heap is exhausted, with the editor's language
 * features or the whole `eval` run. So a value the rule makes is checked before it is made, and a rule that asks
 * for too much raises Python's MemoryError: the evaluation of that rule file on that trace fails, and nothing else.
 */

/** Items of a list or tuple a rule makes (10^7: 80 MB of references, before the items themselves). */
export const MAX_ITEMS = 10_000_000;

/** Characters of a string a rule makes (2^28: 256 MB of one-byte text; the engine refuses strings twice as long). */
export const MAX_STRING_LENGTH = 2 ** 28;

/**
 * Allocations at least this large (items or characters) also ask the heap gauge, if one is installed: many values
 * under the limits can still fill the heap together (`[[0] * 10**7 for x in l]`).
 */
const GAUGED_FROM = 100_000;

/** Bytes the heap may hold before a rule's allocation raises MemoryError; installed by the process that evaluates. */
export interface HeapGauge {
  /** True when `bytes` more would take the heap past its limit. */
  exceeds(bytes: number): boolean;
  /** The limit, for messages. */
  readonly limitBytes: number;
}

let gauge: HeapGauge | undefined;

/** The evaluation worker installs its heap gauge once; without one, only the per-value limits apply. */
export function installHeapGauge(installed: HeapGauge | undefined): void {
  gauge = installed;
}

function memoryError(detail: string): PyError {
  return new PyError('MemoryError', detail);
}

/** Raises MemoryError when a list or tuple of `count` items is over the limit or would fill the heap. */
export function checkItems(count: number): void {
  if (count > MAX_ITEMS) {
    throw memoryError(`a list of ${count.toLocaleString('en-US')} items is more than the evaluator holds (${MAX_ITEMS.toLocaleString('en-US')})`);
  }
  if (count >= GAUGED_FROM) checkHeap(count * 8);
}

/** Raises MemoryError when a string of `length` characters is over the limit or would fill the heap. */
export function checkLength(length: number): void {
  if (length > MAX_STRING_LENGTH) {
    throw memoryError(`a string of ${length.toLocaleString('en-US')} characters is more than the evaluator holds (${MAX_STRING_LENGTH.toLocaleString('en-US')})`);
  }
  if (length >= GAUGED_FROM) checkHeap(length * 2);
}

/** Raises MemoryError when the heap is (or with `bytes` more would be) over the installed gauge's limit. */
export function checkHeap(bytes = 0): void {
  if (gauge?.exceeds(bytes)) {
    throw memoryError(`the evaluation's values fill the memory allowed for rules (${Math.round(gauge.limitBytes / 2 ** 20)} MB)`);
  }
}
