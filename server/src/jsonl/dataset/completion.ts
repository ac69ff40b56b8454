import type { ServiceContext } from '../../common/languageService';
import type { CompletionEntry } from '../../common/types';
import { parseAddress, resolveAddress } from './address';
import { sourceOffsetInString } from '../strings';
import { property } from '../../json/queries';
import type { JsonNode, JsonString } from '../../json/nodes';
import type { Line, LinesModel } from '../lines';
import type { DatasetPlace } from './annotations';
import { isTraceLine, lineTraceService, traceModelOf } from './traceBridge';

/** Annotation addresses (the keys and indexes at the typed path), then the trace service for everything inside events. */
export function datasetCompletion(model: LinesModel, line: Line, place: DatasetPlace | undefined, offset: number, context: ServiceContext): CompletionEntry[] {
  if (place?.onAddress && place.annotation?.address && line.root) {
    return addressCompletion(model, line.root, place.annotation.address, offset);
  }
  if (isTraceLine(line)) return lineTraceService.completion(traceModelOf(model, line), offset, context);
  return [];
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
