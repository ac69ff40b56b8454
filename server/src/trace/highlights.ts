import type { Highlight } from '../common/types';
import { valueSpan, type TraceModel } from './model';
import { outputLinkSpan } from './definition';
import { linkGroupAt } from './references';

/** A call's id (write) and the outputs answering it (read), from either side. */
export function highlights(model: TraceModel, offset: number): Highlight[] {
  const group = linkGroupAt(model, offset);
  if (!group) return [];
  const highlights: Highlight[] = [];
  for (const call of group.calls) if (call.idField?.value) highlights.push({ span: valueSpan(call.idField.value), kind: 'write' });
  for (const output of group.outputs) highlights.push({ span: outputLinkSpan(output), kind: 'read' });
  return highlights;
}
