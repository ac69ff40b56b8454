/** What the cursor is on in an Inspect log: the path to the value under it, and what each object on the way is. */
import { pathAt, type PathStep } from '../json/queries';
import { sampleAt, sampleName } from './model';
import type { InspectModel } from './types';

export type Role =
  | 'log' | 'samples' | 'sample' | 'messages' | 'message' | 'toolCalls' | 'toolCall' | 'toolError' | 'contents' | 'contentPart'
  | 'scores' | 'other';

export interface Place {
  steps: PathStep[];
  /** What each step's node is (same length as steps). */
  roles: Role[];
  /** The key or index of the innermost node. */
  segment?: string | number;
}

export function childRole(parent: Role, segment: string | number | undefined): Role {
  switch (parent) {
    case 'log':
      return segment === 'samples' ? 'samples' : 'other';
    case 'samples':
    case 'messages':
    case 'toolCalls':
    case 'contents':
      return typeof segment !== 'number' ? 'other' : parent === 'samples' ? 'sample' : parent === 'messages' ? 'message' : parent === 'toolCalls' ? 'toolCall' : 'contentPart';
    case 'sample':
      return segment === 'messages' ? 'messages' : segment === 'scores' ? 'scores' : 'other';
    case 'message':
      return segment === 'tool_calls' ? 'toolCalls' : segment === 'error' ? 'toolError' : segment === 'content' ? 'contents' : 'other';
    default:
      return 'other';
  }
}

export function placeAt(model: InspectModel, offset: number): Place | undefined {
  const root = model.root;
  if (!root || offset < root.start || offset > root.end) return undefined;
  const steps = pathAt(root, offset);
  const roles: Role[] = ['log'];
  for (let i = 1; i < steps.length; i++) roles.push(steps[i].onKey ? roles[i - 1] : childRole(roles[i - 1], steps[i].segment));
  return { steps, roles, segment: steps[steps.length - 1].segment };
}

/**
 * `sample 3 (epoch 1), messages[4].tool_call_id`: where an offset lies, in words that need no text to look at (an
 * `.eval` archive's reports name this beside the line and column of its JSON view).
 */
export function placeName(model: InspectModel, offset: number): string | undefined {
  const sample = sampleAt(model, offset);
  if (!sample) return undefined;
  const path = pathAt(sample.node, offset).slice(1).map((step) => step.segment);
  const jsonPath = path.map((segment, i) => (typeof segment === 'number' ? `[${segment}]` : `${i === 0 ? '' : '.'}${segment}`)).join('');
  return `${sampleName(sample)}${jsonPath ? `, ${jsonPath}` : ''}`;
}
