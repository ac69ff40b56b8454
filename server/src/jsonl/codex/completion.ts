/**
 * Completion in a Codex rollout: a record's keys and types, a payload's fields by its record and item type, the
 * item types of a `response_item` and the events of an `event_msg`, content parts' types, and the values of fields
 * that take few (`role`, `status`).
 */
import type { CompletionEntry } from '../../common/types';
import { ownEntry } from '../../common/lookup';
import type { JsonNode, JsonObject } from '../../json/nodes';
import { property } from '../../json/queries';
import { schemaCompletion, type Path, type SchemaAt } from '../../responses/schemaCompletion';
import { itemSchemas, partSchemas, type FieldSchema } from '../../responses/items';
import type { Place } from '../locate';
import { eventTypes, recordFields, recordTypes } from './docs';

export function rolloutCompletion(text: string, place: Place, offset: number): CompletionEntry[] {
  return schemaCompletion(text, place.steps, place.path, offset, rolloutSchema(place.line.root));
}

function typeOf(object: JsonNode | undefined): string | undefined {
  const type = property(object, 'type')?.value;
  return type?.type === 'string' ? type.value : undefined;
}

const typeField = (doc: string, values: string[]): FieldSchema => ({ kinds: ['string'], required: true, doc, values });

function rolloutSchema(root: JsonNode | undefined): SchemaAt {
  const recordType = typeOf(root);
  const payload = property(root, 'payload')?.value;
  return {
    fields(path: Path, object: JsonObject) {
      if (path.length === 0) return recordFields;
      if (path.length === 1 && path[0] === 'payload') return payloadFields(recordType, typeOf(object));
      if (path.length === 3 && path[0] === 'payload' && typeof path[2] === 'number' && recordType === 'response_item') {
        const part = typeOf(object);
        return (part !== undefined ? ownEntry(partSchemas, part)?.fields : undefined) ?? { type: typeField('The part\'s type.', Object.keys(partSchemas)) };
      }
      return undefined;
    },
    values(path: Path) {
      if (path.length === 1 && path[0] === 'type') return { values: Object.keys(recordTypes), docs: (value) => ownEntry(recordTypes, value)?.doc };
      if (path[0] !== 'payload') return undefined;
      if (path.length === 2 && path[1] === 'type') {
        if (recordType === 'response_item') return { values: Object.keys(itemSchemas), docs: (value) => ownEntry(itemSchemas, value)?.doc };
        if (recordType === 'event_msg') return { values: Object.keys(eventTypes), docs: (value) => ownEntry(eventTypes, value)?.doc };
        return undefined;
      }
      if (path.length === 4 && path[3] === 'type' && recordType === 'response_item') {
        return { values: Object.keys(partSchemas), docs: (value) => ownEntry(partSchemas, value)?.doc };
      }
      if (path.length === 2 && typeof path[1] === 'string') {
        const values = ownEntry(payloadFields(recordType, typeOf(payload)) ?? {}, path[1])?.values;
        return values ? { values } : undefined;
      }
      return undefined;
    },
  };
}

function payloadFields(recordType: string | undefined, payloadType: string | undefined): Record<string, FieldSchema> | undefined {
  if (recordType === 'response_item') {
    const item = payloadType !== undefined ? ownEntry(itemSchemas, payloadType) : undefined;
    return item?.fields ?? { type: typeField('The item\'s type.', Object.keys(itemSchemas)) };
  }
  if (recordType === 'event_msg') {
    const event = payloadType !== undefined ? ownEntry(eventTypes, payloadType) : undefined;
    return { type: typeField('The event.', Object.keys(eventTypes)), ...(event?.payload ?? {}) };
  }
  return recordType !== undefined ? ownEntry(recordTypes, recordType)?.payload : undefined;
}
