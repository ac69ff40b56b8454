/**
 * The spans of one trace as a tree, by `parentSpanId`: a span whose parent is not in the file is a root, and so is
 * one whose parent chain comes back to it (a cycle, marked on the span that closes it). Depths are found without
 * recursion, so a chain of a million parents costs a loop, not the stack.
 */
import type { SpanStep } from './types';

export function buildTree(steps: readonly SpanStep[], byId: ReadonlyMap<string, SpanStep>): SpanStep[] {
  for (const step of steps) {
    const parentHex = step.parentId?.hex;
    const parent = parentHex !== undefined ? byId.get(parentHex) : undefined;
    if (parent && parent !== step) step.parent = parent;
    else if (parent === step) step.cycle = true;
  }
  breakCycles(steps);
  const roots: SpanStep[] = [];
  for (const step of steps) {
    if (step.parent) step.parent.children.push(step);
    else roots.push(step);
  }
  for (const step of steps) if (step.children.length > 1) step.children.sort(byTime);
  roots.sort(byTime);
  assignDepths(roots);
  return roots;
}

/** Start time, then file order: the order spans ran in. */
export function byTime(a: SpanStep, b: SpanStep): number {
  return (a.time ?? Infinity) - (b.time ?? Infinity) || a.index - b.index;
}

/** Walks each parent chain once; a chain that meets itself loses the link that closes it. */
function breakCycles(steps: readonly SpanStep[]): void {
  const state = new Map<SpanStep, 'walking' | 'done'>();
  for (const first of steps) {
    if (state.has(first)) continue;
    const chain: SpanStep[] = [];
    let step: SpanStep | undefined = first;
    while (step && !state.has(step)) {
      state.set(step, 'walking');
      chain.push(step);
      const parent: SpanStep | undefined = step.parent;
      if (parent && state.get(parent) === 'walking') {
        step.parent = undefined;
        step.cycle = true;
        break;
      }
      step = parent;
    }
    for (const walked of chain) state.set(walked, 'done');
  }
}

function assignDepths(roots: readonly SpanStep[]): void {
  const stack: SpanStep[] = [...roots];
  for (const root of roots) root.depth = 0;
  while (stack.length > 0) {
    const step = stack.pop()!;
    for (const child of step.children) {
      child.depth = step.depth + 1;
      stack.push(child);
    }
  }
}

/** The spans in tree order (each before its children, siblings by start time), without recursion. */
export function treeOrder(roots: readonly SpanStep[]): SpanStep[] {
  const ordered: SpanStep[] = [];
  const stack: SpanStep[] = [...roots].reverse();
  while (stack.length > 0) {
    const step = stack.pop()!;
    ordered.push(step);
    for (let i = step.children.length - 1; i >= 0; i--) stack.push(step.children[i]);
  }
  return ordered;
}
