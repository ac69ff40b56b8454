/**
 * Folds of an Inspect log: every object or list spanning several lines, down to a depth where nobody folds (inside
 * a message's content). Containers deeper than that are never built, so a big log's events and images stay unread.
 */
import type { FoldingSpan } from '../common/types';
import type { JsonNode } from '../json/nodes';
import type { InspectModel } from './types';

/** log → samples → sample → messages → message → tool_calls → call → arguments. */
const maxDepth = 8;
/** Parts folded as a whole, never inside: the bulk of a big log (model requests repeated in events, images). */
const foldedWhole = new Set(['events', 'attachments', 'store', 'transcript']);
/** Folds of a huge log beyond this are not reported (the editor would not show them all anyway). */
const maxFolds = 50_000;

export function folding(model: InspectModel): FoldingSpan[] {
  const folds: FoldingSpan[] = [];
  const text = model.text;
  const stack: { node: JsonNode; depth: number }[] = model.root ? [{ node: model.root, depth: 0 }] : [];
  while (stack.length > 0 && folds.length < maxFolds) {
    const { node, depth } = stack.pop()!;
    if (node.type !== 'object' && node.type !== 'array') continue;
    const newline = text.indexOf('\n', node.start);
    if (newline === -1 || newline >= node.end) continue;
    folds.push({ start: node.start, end: node.end });
    if (depth === maxDepth) continue;
    const children = node.type === 'object' ? node.properties.map((prop) => ({ child: prop.value, leaf: foldedWhole.has(prop.key) })) : node.items.map((child) => ({ child, leaf: false }));
    for (const { child, leaf } of children) if (child && (child.type === 'object' || child.type === 'array')) stack.push({ node: child, depth: leaf ? maxDepth : depth + 1 });
  }
  return folds.sort((a, b) => a.start - b.start);
}
