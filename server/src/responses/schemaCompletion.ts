/**
 * Completion from a schema table, for Responses files and Codex rollouts: the keys an object of a known type may
 * have (those it lacks), and the values of a field that takes few (an item's `type`, a message's `role`). The
 * format says which fields an object at a path has and which values a field at a path takes.
 */
import type { CompletionEntry, Span } from '../common/types';
import type { JsonObject } from '../json/nodes';
import { property, type PathStep } from '../json/queries';
import type { FieldSchema } from './items';

export type Path = (string | number)[];

export interface SchemaAt {
  /** The fields of the object at `path` (the object itself given, for its `type`), or undefined when unknown. */
  fields(path: Path, object: JsonObject): Record<string, FieldSchema> | undefined;
  /** The values the field at `path` takes, with a doc for each, or undefined. */
  values(path: Path, object: JsonObject | undefined): { values: readonly string[]; docs?: (value: string) => string | undefined } | undefined;
}

export function schemaCompletion(text: string, steps: PathStep[], path: Path, offset: number, schema: SchemaAt): CompletionEntry[] {
  const last = steps[steps.length - 1];
  const node = last.node;
  if (last.onKey && last.property && node.type === 'object') {
    const key = last.property;
    const replace = inside(text, { start: key.keyStart, end: key.keyEnd });
    return keyEntries(schema.fields(path.slice(0, -1), node), node, key.key, replace, true);
  }
  if (node.type === 'object') {
    if (!betweenProperties(node, offset)) return [];
    return keyEntries(schema.fields(path, node), node, undefined, undefined, false);
  }
  const holder = steps.length >= 2 ? steps[steps.length - 2].node : undefined;
  const found = schema.values(path, holder?.type === 'object' ? holder : undefined);
  if (!found) return [];
  const inString = node.type === 'string' && offset > node.start && (offset < node.end || text.charCodeAt(node.end - 1) !== 0x22 || node.end - node.start === 1);
  const replace = inString ? inside(text, node) : { start: node.start, end: node.end };
  return found.values.map((value, i) => ({
    label: value,
    kind: 'enum' as const,
    documentation: found.docs?.(value),
    insertText: inString ? value : JSON.stringify(value),
    replace,
    sortText: String(i).padStart(3, '0'),
  }));
}

function keyEntries(
  fields: Record<string, FieldSchema> | undefined, object: JsonObject, typed: string | undefined, replace: Span | undefined, quoted: boolean,
): CompletionEntry[] {
  if (!fields) return [];
  const entries: CompletionEntry[] = [];
  for (const [key, field] of Object.entries(fields)) {
    if (key !== typed && property(object, key)) continue;
    entries.push({
      label: key,
      kind: 'property',
      detail: `${field.required ? 'required · ' : ''}${field.kinds.join(' | ')}`,
      documentation: field.doc,
      insertText: quoted ? key : `"${key}": ${placeholder(field)}`,
      snippet: !quoted,
      sortText: `${field.required ? '0' : '1'}${key}`,
      ...(replace ? { replace } : {}),
    });
  }
  return entries;
}

function placeholder(field: FieldSchema): string {
  switch (field.kinds[0]) {
    case 'string': return field.values ? `"\${1|${field.values.join(',')}|}"` : '"$1"';
    case 'object': return '{$1}';
    case 'array': return '[$1]';
    default: return '$1';
  }
}

/** Whether the offset is inside the object but not inside one of its properties (where a new key goes). */
function betweenProperties(object: JsonObject, offset: number): boolean {
  if (offset <= object.start || (offset >= object.end && object.end > object.start + 1)) return false;
  return object.properties.every((prop) => offset < prop.keyStart || offset > (prop.value?.end ?? prop.keyEnd));
}

/** A string's characters between its quotes (to the line's end when it is not closed). */
function inside(text: string, node: { start: number; end: number }): Span {
  const start = node.start + 1;
  const closed = node.end - node.start >= 2 && text.charCodeAt(node.end - 1) === 0x22;
  return { start, end: Math.max(start, closed ? node.end - 1 : node.end) };
}
