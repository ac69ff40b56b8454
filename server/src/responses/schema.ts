/**
 * The schema checks of Responses items, shared by Responses files and Codex rollouts: a field of the wrong JSON kind
 * or a required one missing (warnings: the API refuses such an item), an item or part type the known versions do not
 * have, and fields they do not define (hints at most: the API grows new ones).
 */
import type { JsonNode, JsonObject } from '../json/nodes';
import { property } from '../json/queries';
import type { Severity, Span } from '../common/types';
import { ownEntry } from '../common/lookup';
import { itemSchemas, partSchemas, type FieldSchema, type JsonKind } from './items';

export type AddSchemaProblem = (span: Span, severity: Severity, code: string, message: string) => void;

export interface SchemaOptions {
  /** Problem codes start with it: `codex`, `responses`. */
  codePrefix: string;
  /** Hints on fields the known versions do not define. */
  unknownKeyHints: boolean;
}

export function kindOf(node: JsonNode): JsonKind {
  return node.type;
}

const article = (kind: string) => (/^[aeiou]/.test(kind) ? `an ${kind}` : `a ${kind}`);

function kindList(kinds: readonly JsonKind[]): string {
  const named = kinds.map(article);
  return named.length <= 1 ? named.join('') : `${named.slice(0, -1).join(', ')} or ${named[named.length - 1]}`;
}

/**
 * The fields of an object against their schema: `what` names the object in messages (`a function_call item`).
 * Returns nothing; reports through `add`.
 */
export function checkFields(node: JsonObject, fields: Record<string, FieldSchema>, what: string, options: SchemaOptions, add: AddSchemaProblem): void {
  const code = (name: string) => `${options.codePrefix}/${name}`;
  for (const field of node.properties) {
    const schema = ownEntry(fields, field.key);
    if (!schema) {
      if (options.unknownKeyHints) add({ start: field.keyStart, end: field.keyEnd }, 'hint', code('unknown-field'), `Field "${field.key}" is not one the known versions write in ${what}: it may come from a newer one`);
      continue;
    }
    const value = field.value;
    if (value && !schema.kinds.includes(kindOf(value))) {
      add({ start: value.start, end: value.end }, 'warning', code('wrong-kind'), `"${field.key}" of ${what} must be ${kindList(schema.kinds)}, not ${article(kindOf(value))}`);
    }
  }
  for (const [key, schema] of Object.entries(fields)) {
    if (!schema.required || property(node, key)) continue;
    const at = node.properties[0] ? { start: node.properties[0].keyStart, end: node.properties[0].keyEnd } : { start: node.start, end: Math.min(node.end, node.start + 1) };
    add(at, 'warning', code('missing-field'), `${capitalised(what)} needs "${key}": ${firstSentence(schema.doc)}`);
  }
}

/** An item: its type known, its fields, and the parts of its content. */
export function checkItem(node: JsonNode, options: SchemaOptions, add: AddSchemaProblem): void {
  if (node.type !== 'object') {
    add({ start: node.start, end: node.end }, 'warning', `${options.codePrefix}/wrong-kind`, `An item must be an object, not ${article(kindOf(node))}`);
    return;
  }
  const typeNode = property(node, 'type')?.value;
  const type = typeNode?.type === 'string' ? typeNode.value : typeNode === undefined && property(node, 'role') ? 'message' : undefined;
  if (type === undefined) {
    if (!typeNode) add({ start: node.start, end: Math.min(node.end, node.start + 1) }, 'warning', `${options.codePrefix}/missing-field`, 'An item needs "type" (`message`, `function_call`, `function_call_output`, …)');
    return;
  }
  const schema = ownEntry(itemSchemas, type);
  if (!schema) {
    if (options.unknownKeyHints && typeNode) add({ start: typeNode.start, end: typeNode.end }, 'hint', `${options.codePrefix}/unknown-type`, `Item type "${type}" is not one the known versions of the Responses API have: it may come from a newer one`);
    return;
  }
  checkFields(node, schema.fields, `a ${type} item`, options, add);
  if (type === 'message' || type === 'reasoning') {
    for (const key of ['content', 'summary']) {
      const parts = property(node, key)?.value;
      if (parts?.type === 'array') for (const part of parts.items) checkPart(part, options, add);
    }
  } else if (type === 'function_call_output' || type === 'custom_tool_call_output') {
    const parts = property(node, 'output')?.value;
    if (parts?.type === 'array') for (const part of parts.items) checkPart(part, options, add);
  }
}

function checkPart(node: JsonNode, options: SchemaOptions, add: AddSchemaProblem): void {
  if (node.type !== 'object') return;
  const typeNode = property(node, 'type')?.value;
  if (typeNode?.type !== 'string') return;
  const schema = ownEntry(partSchemas, typeNode.value);
  if (!schema) {
    if (options.unknownKeyHints) add({ start: typeNode.start, end: typeNode.end }, 'hint', `${options.codePrefix}/unknown-type`, `Content part type "${typeNode.value}" is not one the known versions have: it may come from a newer one`);
    return;
  }
  checkFields(node, schema.fields, `an ${typeNode.value} part`.replace(/^an (?![aeiou])/, 'a '), options, add);
}

function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function firstSentence(doc: string): string {
  const end = doc.search(/\.(\s|$)/);
  const sentence = end === -1 ? doc : doc.slice(0, end);
  return sentence.charAt(0).toLowerCase() + sentence.slice(1);
}
