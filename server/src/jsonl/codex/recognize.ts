/**
 * A Codex rollout is recognised by its first record, whatever the file is called: `{"timestamp", "type":
 * "session_meta", "payload": {…}}`. A rollout whose head was cut off (a fragment pasted from one) is recognised by a
 * first record of another rollout type with the same three keys.
 */
import type { JsonNode } from '../../json/nodes';
import { property } from '../../json/queries';
import { ownEntry } from '../../common/lookup';
import type { FileFormat } from '../lines';
import { recordTypes } from './docs';

/** The format of a file whose first value is a rollout's record. */
export function recognizeRollout(first: JsonNode | undefined): FileFormat | undefined {
  return isRolloutRecord(first) ? 'codex' : undefined;
}

export function isRolloutRecord(root: JsonNode | undefined): boolean {
  if (root?.type !== 'object') return false;
  const type = property(root, 'type')?.value;
  if (type?.type !== 'string' || !ownEntry(recordTypes, type.value)) return false;
  return property(root, 'payload')?.value?.type === 'object' && property(root, 'timestamp')?.value?.type === 'string';
}
