/** A lens above each event that makes tool calls: how many outputs answer them, and a link to the node in the preview. */
import type { ServiceContext } from '../common/service';
import type { Lens } from '../common/types';
import type { TraceModel } from './model';

/** The command the client registers: reveal the node of the event at an offset in the document's preview. */
export const revealInPreviewCommand = 'agentTraces.revealInPreview';

/** Lenses past this many events are left out (a long trace's lenses would cost more than they help); the last one says so. */
export const maxLenses = 2000;

export function codeLenses(model: TraceModel, _context: ServiceContext): Lens[] {
  const lenses: Lens[] = [];
  let withCalls = 0;
  for (const event of model.events) {
    if (event.calls.length === 0) continue;
    withCalls++;
    if (lenses.length >= maxLenses) continue;
    let outputs = 0;
    for (const call of event.calls) outputs += call.outputs.length;
    const start = event.value.start;
    lenses.push({
      span: { start, end: start + 1 },
      title: `${outputs} output${outputs === 1 ? '' : 's'} · open in preview`,
      command: { id: revealInPreviewCommand, arguments: [model.uri, start] },
    });
  }
  if (withCalls > maxLenses) {
    const last = lenses[lenses.length - 1];
    lenses.push({ span: last.span, title: `lenses shown for the first ${maxLenses} of ${withCalls} events with calls` });
  }
  return lenses;
}
