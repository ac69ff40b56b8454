/** One fold per object or list spanning several lines, as a JSON editor folds them. */
import type { FoldingSpan } from '../common/types';
import type { JsonNode } from '../json/nodes';
import type { ConversationModel } from './types';

/** Nesting deeper than this is not folded (nobody folds there, and the walk stays bounded). */
const maxDepth = 64;

export function folding(model: ConversationModel): FoldingSpan[] {
  if (model.lines) return [];
  const folds: FoldingSpan[] = [];
  const text = model.text;
  const stack: { node: JsonNode; depth: number }[] = [];
  for (const value of model.values) if (value.root) stack.push({ node: value.root, depth: 0 });
  while (stack.length > 0) {
    const { node, depth } = stack.pop()!;
    if (node.type !== 'object' && node.type !== 'array') continue;
    const newline = text.indexOf('\n', node.start);
    if (newline !== -1 && newline < node.end) folds.push({ start: node.start, end: node.end });
    if (depth === maxDepth) continue;
    const children = node.type === 'object' ? node.properties.map((prop) => prop.value) : node.items;
    for (const child of children) if (child && (child.type === 'object' || child.type === 'array')) stack.push({ node: child, depth: depth + 1 });
  }
  return folds.sort((a, b) => a.start - b.start);
}
