/** One folding range per object or array that spans lines, visited to a bounded depth. */
import type { FoldingSpan } from '../common/types';
import type { JsonNode } from '../json/nodes';
import type { ResponsesModel } from './model';

const maxDepth = 64;

export function folding(model: ResponsesModel): FoldingSpan[] {
  const spans: FoldingSpan[] = [];
  const text = model.text;
  const visit = (node: JsonNode | undefined, depth: number): void => {
    if (!node || depth > maxDepth || (node.type !== 'object' && node.type !== 'array')) return;
    const newline = text.indexOf('\n', node.start);
    if (newline === -1 || newline >= node.end) return;
    spans.push({ start: node.start, end: node.end });
    if (node.type === 'object') for (const property of node.properties) visit(property.value, depth + 1);
    else for (const item of node.items) visit(item, depth + 1);
  };
  visit(model.root, 0);
  return spans;
}
