/** A lens above each event that makes tool calls: how many outputs answer them, and a link to the node in the preview. */
import type { ServiceContext } from '../common/languageService';
import type { Lens } from '../common/types';
import type { TraceModel } from './model';
import { RevealInPreviewCommand } from '../../../shared/requests';
import { count } from '../common/text';

/** The setting that caps them (a long trace's lenses would cost more than they help). */
export const maxLensesSetting = 'agentTraces.codeLens.maxEvents';

export function codeLenses(model: TraceModel, context: ServiceContext): Lens[] {
  const max = context.settings.maxCodeLenses;
  const lenses: Lens[] = [];
  const withCalls = appendEventLenses(model, model.uri, lenses, max);
  if (withCalls > max && lenses.length > 0) {
    const title = `code lenses on the first ${count(max)} of ${count(withCalls)} events with calls (${maxLensesSetting})`;
    // Said where the lenses start and where they stop.
    lenses.unshift({ span: lenses[0].span, title });
    lenses.push({ span: lenses[lenses.length - 1].span, title });
  }
  return lenses;
}

/**
 * Appends the lenses of a trace's events with calls, at most `room` of them, and returns how many of its events
 * have calls (more than `room` when some were left out). `uri` is the document the reveal command opens.
 */
export function appendEventLenses(model: TraceModel, uri: string | undefined, lenses: Lens[], room: number): number {
  let withCalls = 0;
  for (const event of model.events) {
    if (event.calls.length === 0) continue;
    withCalls++;
    if (withCalls > room) continue;
    let outputs = 0;
    for (const call of event.calls) outputs += call.outputs.length;
    const start = event.value.start;
    lenses.push({
      span: { start, end: start + 1 },
      title: `${outputs} output${outputs === 1 ? '' : 's'} · open in preview`,
      command: { id: RevealInPreviewCommand, arguments: [uri, start] },
    });
  }
  return withCalls;
}
