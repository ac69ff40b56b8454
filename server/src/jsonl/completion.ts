import type { ServiceContext } from '../common/service';
import type { CompletionEntry, Span } from '../common/types';
import { STATUS_DOCS, STATUS_VALUES, USAGE_KINDS, VALIDATION_KINDS, VALIDATION_KIND_DOCS, isFailedStatus, specAt } from './agentguardSchema';
import { parseAddress, resolveAddress } from './address';
import { sourceOffsetInString } from './strings';
import { contains, property, type JsonNode, type JsonString } from './json';
import { lineAt, type LinesModel } from './model';
import { placeAt } from './locate';
import { isTraceLine, lineTraceService, traceModelOf } from './traceBridge';

/**
 * agentguard: status values, validation kinds, usage kinds and field names. Datasets: annotation addresses
 * (the keys and indexes at the typed path), then the trace service for everything inside events.
 */
export function completion(model: LinesModel, offset: number, context: ServiceContext): CompletionEntry[] {
  const line = lineAt(model, offset);
  if (!line) return [];
  const place = placeAt(model, offset);
  if (line.kind === 'agentguard' || (model.format === 'agentguard' && line.kind === 'invalid')) {
    return place ? agentguardCompletion(model, place.path, place.steps[place.steps.length - 1].node, offset) : [];
  }
  if (place?.onAddress && place.annotation?.address && line.root) {
    return addressCompletion(model, line.root, place.annotation.address, offset);
  }
  if (isTraceLine(line)) return lineTraceService.completion(traceModelOf(model, line), offset, context);
  return [];
}

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

function agentguardCompletion(model: LinesModel, path: (string | number)[], node: JsonNode, offset: number): CompletionEntry[] {
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

function addressCompletion(model: LinesModel, root: JsonNode, address: JsonString, offset: number): CompletionEntry[] {
  const text = model.text;
  // Decoded cursor position in the address (addresses rarely hold escapes; map through them anyway).
  let typed = 0;
  while (typed < address.value.length && sourceOffsetInString(text, address, typed + 1) <= offset) typed++;
  const before = address.value.slice(0, typed);
  if (before.includes(':')) return [];
  const lastDot = Math.max(before.lastIndexOf('.'), before.lastIndexOf('['));
  const parentPath = lastDot === -1 ? '' : before.slice(0, before[lastDot] === '[' ? lastDot : lastDot);
  const replaceStart = sourceOffsetInString(text, address, lastDot + 1);
  let wordEnd = typed;
  while (wordEnd < address.value.length && !'.[]:'.includes(address.value[wordEnd])) wordEnd++;
  const replace = { start: replaceStart, end: sourceOffsetInString(text, address, wordEnd) };
  let node: JsonNode | undefined = root;
  if (parentPath !== '') {
    const resolution = resolveAddress(text, root, parentPath, parseAddress(parentPath));
    node = resolution.ok ? resolution.node : undefined;
  }
  if (!node) return [];
  if (node.type === 'object') {
    const keys = parentPath === '' ? node.properties.filter((p) => p.key === 'messages') : node.properties;
    return keys.map((p, i) => ({ label: p.key, kind: 'field' as const, replace, sortText: String(i).padStart(5, '0') }));
  }
  if (node.type === 'array') {
    return node.items.map((item, i) => ({
      label: String(i),
      kind: 'value' as const,
      detail: describeItem(item),
      replace,
      sortText: String(i).padStart(6, '0'),
    }));
  }
  if (node.type === 'string') {
    return [
      { label: `:0-${node.value.length}`, kind: 'snippet', detail: 'character range', insertText: `:\${1:0}-\${2:${node.value.length}}`, snippet: true, replace: { start: offset, end: offset } },
      { label: ':L0', kind: 'snippet', detail: 'a line of the string', insertText: ':L${1:0}', snippet: true, replace: { start: offset, end: offset } },
    ];
  }
  return [];
}

function describeItem(item: JsonNode): string | undefined {
  if (item.type !== 'object') return undefined;
  const role = property(item, 'role')?.value;
  if (role?.type === 'string') return role.value;
  const type = property(item, 'type')?.value;
  return type?.type === 'string' ? type.value : undefined;
}
