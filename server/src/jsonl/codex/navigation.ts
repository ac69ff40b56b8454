/**
 * Navigation in a Codex rollout: between a call and its outputs by `call_id` (shared with every format), from a UI
 * event that reports a call to that call, from a UI event that repeats a message to the record it repeats, and from
 * a token count to the record its tokens are counted on. References of a call id include the UI events that report
 * the call.
 */
import type { Highlight, Target } from '../../common/types';
import { callTarget, definition } from '../../calls/definition';
import { highlights, linkGroupAt, references } from '../../calls/references';
import { contains } from '../../common/spans';
import type { LinesModel } from '../lines';
import { stepOfLine } from './hover';
import { rolloutOf } from './rollout';
import { absolute, type RolloutStep } from './types';
import { lineAt } from '../lines';

export function rolloutDefinition(model: LinesModel, offset: number): Target[] {
  const rollout = rolloutOf(model);
  const shared = definition(rollout, offset);
  if (shared.length > 0) return shared;
  const line = lineAt(model, offset);
  const step = line && stepOfLine(rollout, line.number);
  if (!step) return [];
  const event = step.facts.event;
  const callIdSpan = absolute(step.line, event?.callIdSpan);
  if (event?.callId !== undefined && callIdSpan && contains(callIdSpan, offset)) return (rollout.callsById.get(event.callId) ?? []).map(callTarget);
  const typeSpan = absolute(step.line, step.facts.payloadTypeSpan);
  if (!typeSpan || !contains(typeSpan, offset)) return [];
  const target = step.repeats ?? step.countedOn;
  return target ? [recordTarget(target)] : [];
}

function recordTarget(step: RolloutStep): Target {
  const selection = absolute(step.line, step.facts.payloadTypeSpan ?? step.facts.typeSpan);
  return selection ? { span: { ...step.span }, selection } : { span: { ...step.span } };
}

export function rolloutReferences(model: LinesModel, offset: number, includeDeclaration: boolean): Target[] {
  const rollout = rolloutOf(model);
  const targets = references(rollout, offset, includeDeclaration);
  const group = linkGroupAt(rollout, offset);
  for (const call of group?.calls ?? []) {
    for (const report of (call as { reports?: RolloutStep[] }).reports ?? []) {
      const span = absolute(report.line, report.facts.event?.callIdSpan);
      if (span) targets.push({ span });
    }
  }
  return targets;
}

export function rolloutHighlights(model: LinesModel, offset: number): Highlight[] {
  return highlights(rolloutOf(model), offset);
}
