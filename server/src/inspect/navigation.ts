/**
 * Navigation in an Inspect log, within the sample under the cursor: between a tool call's id and the tool messages
 * naming it as their tool_call_id (the shared features of linked calls).
 */
import type { Highlight, Target } from '../common/types';
import { definition as linkDefinition } from '../calls/definition';
import { highlights as linkHighlights, references as linkReferences } from '../calls/references';
import { traceAt } from './model';
import type { InspectModel } from './types';

export function definition(model: InspectModel, offset: number): Target[] {
  const trace = traceAt(model, offset);
  return trace ? linkDefinition(trace, offset) : [];
}

export function references(model: InspectModel, offset: number, includeDeclaration: boolean): Target[] {
  const trace = traceAt(model, offset);
  return trace ? linkReferences(trace, offset, includeDeclaration) : [];
}

export function highlights(model: InspectModel, offset: number): Highlight[] {
  const trace = traceAt(model, offset);
  return trace ? linkHighlights(trace, offset) : [];
}
