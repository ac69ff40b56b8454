import type { CompletionEntry, Span } from '../../common/types';
import { contains, property } from '../../json/queries';
import type { JsonNode } from '../../json/nodes';
import type { LinesModel } from '../lines';
import { STATUS_DOCS, STATUS_VALUES, USAGE_KINDS, VALIDATION_KINDS, VALIDATION_KIND_DOCS, isFailedStatus, specAt } from './schema';

function valueEntries(values: readonly string[], docs: Record<string, string> | undefined, replace: Span | undefined, quoted: boolean): CompletionEntry[] {
  return values.map((value, i) => ({
    label: value,
    kind: 'enum' as const,
    documentation: docs?.[value],
    detail: docs === STATUS_DOCS ? (isFailedStatus(value) ? 'failure' : 'not a failure') : undefined,
    insertText: quoted ? value : `"${value}"`,
    sortText: String(i).padStart(2, '0'),
    ...(replace ? { replace } : {}),
  }));
}

/** Status values, validation kinds, usage kinds and field names, from the entry schema. */
export function agentguardCompletion(model: LinesModel, path: (string | number)[], node: JsonNode, offset: number): CompletionEntry[] {
  const field = path[path.length - 1];
  const inString = node.type === 'string' && offset > node.start && offset < node.end;
  const replace = node.type === 'string' && contains(node, offset) ? { start: node.start + 1, end: node.end - 1 } : undefined;
  const quoted = inString;
  const replaceWhole = !inString && node.type !== 'object' && node.type !== 'array' ? { start: node.start, end: node.end } : undefined;
  const target = inString ? replace : replaceWhole;
  if (path[0] === 'result' && path.length === 2 && field === 'status') return valueEntries(STATUS_VALUES, STATUS_DOCS, target, quoted);
  if (path[1] === 'validations' && field === 'kind') return valueEntries(VALIDATION_KINDS, VALIDATION_KIND_DOCS, target, quoted);
  if (path[1] === 'usage' && field === 'kind') return valueEntries(USAGE_KINDS, undefined, target, quoted);
  // Field names inside an object of the entry.
  if (node.type === 'object' || (node.type === 'string' && isKeyPosition(model.text, node))) {
    const objectPath = node.type === 'object' ? path : path.slice(0, -1);
    const spec = specAt(objectPath);
    if (!spec?.fields) return [];
    const container = node.type === 'object' ? node : undefined;
    return Object.entries(spec.fields)
      .filter(([key]) => !container || !property(container, key))
      .map(([key, fieldSpec]) => ({ label: key, kind: 'property' as const, documentation: fieldSpec.doc, insertText: quoted ? key : `"${key}"`, ...(replace && quoted ? { replace } : {}) }));
  }
  return [];
}

function isKeyPosition(text: string, node: JsonNode): boolean {
  let i = node.end;
  while (i < text.length && (text[i] === ' ' || text[i] === '\t')) i++;
  return text[i] === ':';
}
