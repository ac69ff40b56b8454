/**
 * A Claude Code session is recognised by its first record, whatever the file is called: an object whose `type` is
 * one of the record types Claude Code writes, with the keys that only its records have (`sessionId`, `parentUuid`;
 * a first `file-history-snapshot` has its `snapshot`, a first `summary` its `leafUuid`).
 */
import { property } from '../../json/queries';
import type { JsonNode } from '../../json/nodes';
import { ownEntry } from '../../common/lookup';
import type { FileFormat } from '../lines';
import { knownFields } from './docs';

/** The format of a file whose first value is a session's record. */
export function recognizeSession(first: JsonNode | undefined): FileFormat | undefined {
  return isSessionRecord(first) ? 'claude-code' : undefined;
}

export function isSessionRecord(root: JsonNode | undefined): boolean {
  if (root?.type !== 'object') return false;
  const type = property(root, 'type')?.value;
  if (type?.type !== 'string' || !ownEntry(knownFields, type.value)) return false;
  if (property(root, 'sessionId') || property(root, 'parentUuid')) return true;
  if (type.value === 'file-history-snapshot') return property(root, 'snapshot') !== undefined && property(root, 'messageId') !== undefined;
  if (type.value === 'summary') return property(root, 'leafUuid') !== undefined;
  return false;
}
