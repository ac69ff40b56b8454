/** A lens above each step that makes calls: how many outputs answer them, and a link to its node in the preview. */
import type { ServiceContext } from '../common/languageService';
import type { Lens } from '../common/types';
import { RevealInPreviewCommand } from '../../../shared/requests';
import { count } from '../common/text';
import type { LinkedCalls } from './model';

/** The setting that caps them (a long trace's lenses would cost more than they help). */
export const maxLensesSetting = 'agentTraces.codeLens.maxEvents';

export function codeLenses(model: LinkedCalls, uri: string | undefined, context: ServiceContext): Lens[] {
  const max = context.settings.maxCodeLenses;
  const lenses: Lens[] = [];
  const withCalls = appendStepLenses(model, uri, lenses, max);
  if (withCalls > max && lenses.length > 0) {
    const title = `code lenses on the first ${count(max)} of ${count(withCalls)} ${model.format.stepWord}s with calls (${maxLensesSetting})`;
    // Said where the lenses start and where they stop.
    lenses.unshift({ span: lenses[0].span, title });
    lenses.push({ span: lenses[lenses.length - 1].span, title });
  }
  return lenses;
}

/**
 * Appends the lenses of a conversation's steps with calls, at most `room` of them, and returns how many of its
 * steps have calls (more than `room` when some were left out). `uri` is the document the reveal command opens.
 */
export function appendStepLenses(model: LinkedCalls, uri: string | undefined, lenses: Lens[], room: number): number {
  let withCalls = 0;
  for (const step of model.steps) {
    if (step.calls.length === 0) continue;
    withCalls++;
    if (withCalls > room) continue;
    let outputs = 0;
    for (const call of step.calls) outputs += call.outputs.length;
    const start = step.span.start;
    lenses.push({
      span: { start, end: start + 1 },
      title: `${outputs} output${outputs === 1 ? '' : 's'} · open in preview`,
      command: { id: RevealInPreviewCommand, arguments: [uri, start] },
    });
  }
  return withCalls;
}
