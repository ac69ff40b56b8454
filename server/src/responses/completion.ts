/**
 * Completion in a Responses document: the top-level fields of a body, an item's fields by its type, item and part
 * types, and the values of fields that take few (`role`, `status`).
 */
import type { CompletionEntry } from '../common/types';
import { ownEntry } from '../common/lookup';
import type { JsonNode, JsonObject } from '../json/nodes';
import { property } from '../json/queries';
import { bodyFields } from './bodyFields';
import { itemSchemas, partSchemas, type FieldSchema } from './items';
import { placeAt } from './locate';
import type { ResponsesModel } from './model';
import { schemaCompletion, type Path, type SchemaAt } from './schemaCompletion';

export function completion(model: ResponsesModel, offset: number): CompletionEntry[] {
  const place = placeAt(model, offset);
  if (!place) return [];
  return schemaCompletion(model.text, place.steps, place.path, offset, responsesSchema(model.root));
}

const typeField = (doc: string, values: string[]): FieldSchema => ({ kinds: ['string'], required: true, doc, values });

function typeOf(object: JsonNode | undefined): string | undefined {
  const type = property(object, 'type')?.value;
  return type?.type === 'string' ? type.value : undefined;
}

/** How deep items are: [i] in a bare list, ["input" | "output", i] in a body; -1 where a path holds none. */
function itemDepth(root: JsonNode | undefined, path: Path): number {
  if (root?.type === 'array') return typeof path[0] === 'number' ? 1 : -1;
  return (path[0] === 'input' || path[0] === 'output') && typeof path[1] === 'number' ? 2 : -1;
}

function itemFields(type: string | undefined): Record<string, FieldSchema> {
  return (type !== undefined ? ownEntry(itemSchemas, type)?.fields : undefined) ?? { type: typeField('The item\'s type.', Object.keys(itemSchemas)) };
}

function responsesSchema(root: JsonNode | undefined): SchemaAt {
  return {
    fields(path: Path, object: JsonObject) {
      if (path.length === 0 && root?.type === 'object') return bodyFields;
      const depth = itemDepth(root, path);
      if (depth < 0) return undefined;
      if (path.length === depth) return itemFields(typeOf(object));
      if (path.length === depth + 2 && typeof path[depth + 1] === 'number') {
        const part = typeOf(object);
        return (part !== undefined ? ownEntry(partSchemas, part)?.fields : undefined) ?? { type: typeField('The part\'s type.', Object.keys(partSchemas)) };
      }
      return undefined;
    },
    values(path: Path, holder: JsonObject | undefined) {
      if (path.length === 1 && root?.type === 'object') {
        const values = ownEntry(bodyFields, String(path[0]))?.values;
        return values ? { values } : undefined;
      }
      const depth = itemDepth(root, path);
      if (depth < 0) return undefined;
      const key = path[path.length - 1];
      if (path.length === depth + 1 && key === 'type') return { values: Object.keys(itemSchemas), docs: (value) => ownEntry(itemSchemas, value)?.doc };
      if (path.length === depth + 3 && key === 'type') return { values: Object.keys(partSchemas), docs: (value) => ownEntry(partSchemas, value)?.doc };
      if (path.length === depth + 1 && typeof key === 'string') {
        const values = ownEntry(itemFields(typeOf(holder)), key)?.values;
        return values ? { values } : undefined;
      }
      return undefined;
    },
  };
}
