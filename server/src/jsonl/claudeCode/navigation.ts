/**
 * Navigation in a Claude Code session: between a tool_use and its tool_result (the shared features), from a
 * record's `parentUuid` (`leafUuid`, `logicalParentUuid`) to the record it names and back, from a `Task` call or an
 * `agentId` to the subagent's own file beside the session, and from a progress record to the call it reports on.
 */
import type { ServiceContext } from '../../common/languageService';
import type { Highlight, Span, Target } from '../../common/types';
import { callTarget, definition } from '../../calls/definition';
import { highlights, references } from '../../calls/references';
import type { Place } from '../locate';
import type { LinesModel } from '../lines';
import { subagentFile } from './describe';
import { sessionOf, stepOfLine } from './session';
import type { RecordStep, SessionModel } from './types';

const linkKeys = new Set(['parentUuid', 'logicalParentUuid', 'leafUuid']);
const startOfFile = { positionAt: () => ({ line: 0, character: 0 }) };

function spanIn(step: RecordStep, relative: Span): Span {
  return { start: step.line.start + relative.start, end: step.line.start + relative.end };
}

function recordTarget(step: RecordStep): Target {
  const uuid = step.facts.uuidSpan;
  return uuid ? { span: step.span, selection: spanIn(step, uuid) } : { span: step.span };
}

/** The string value under the cursor, its key and its path, when it is one. */
function valueAt(place: Place): { key: string | number | undefined; value: string; span: Span } | undefined {
  const last = place.steps[place.steps.length - 1];
  if (last.onKey || last.node.type !== 'string') return undefined;
  return { key: place.path[place.path.length - 1], value: last.node.value, span: { start: last.node.start, end: last.node.end } };
}

export function sessionDefinition(model: LinesModel, place: Place, offset: number, context?: ServiceContext): Target[] {
  const session = sessionOf(model);
  const linked = definition(session, offset);
  if (linked.length > 0) return linked;
  const at = valueAt(place);
  if (!at) return [];
  const step = stepOfLine(session, place.line);
  if (place.path.length === 1 && typeof at.key === 'string' && linkKeys.has(at.key)) {
    const named = session.byUuid.get(at.value);
    return named ? [recordTarget(named)] : [];
  }
  if (at.key === 'agentId') return subagentTargets(session, at.value, context);
  if (place.path.length === 1 && (at.key === 'toolUseID' || at.key === 'parentToolUseID')) {
    return (session.callsById.get(at.value) ?? []).map(callTarget);
  }
  // A Task call's name or input: the subagent it ran.
  const call = step?.calls.find((candidate) => offset >= candidate.span.start && offset <= candidate.span.end);
  if (call?.id !== undefined) {
    const run = session.subagents.get(call.id);
    if (run?.agentId) return subagentTargets(session, run.agentId, context);
  }
  return [];
}

/** The subagent's own file, when it is there (or when nothing can tell). */
function subagentTargets(session: SessionModel, agentId: string, context?: ServiceContext): Target[] {
  const file = subagentFile(session.lines.uri, agentId);
  if (context?.files && !context.files.exists(file.uri)) return [];
  return [{ uri: file.uri, span: { start: 0, end: 0 }, positions: startOfFile }];
}

/** A record's uuid and the records that name it as their parent (or leaf, or logical parent). */
function uuidGroup(session: SessionModel, place: Place): { declaration?: Span; mentions: Span[] } | undefined {
  const at = valueAt(place);
  if (!at || place.path.length !== 1 || typeof at.key !== 'string' || (at.key !== 'uuid' && !linkKeys.has(at.key))) return undefined;
  const uuid = at.value;
  const named = session.byUuid.get(uuid);
  const mentions: Span[] = [];
  for (const step of session.steps) {
    const facts = step.facts;
    if (facts.parentUuid === uuid && facts.parentSpan) mentions.push(spanIn(step, facts.parentSpan));
    if (facts.logicalParentUuid === uuid && facts.logicalParentSpan) mentions.push(spanIn(step, facts.logicalParentSpan));
    if (facts.leafUuid === uuid && facts.leafSpan) mentions.push(spanIn(step, facts.leafSpan));
  }
  return { declaration: named?.facts.uuidSpan && spanIn(named, named.facts.uuidSpan), mentions };
}

export function sessionReferences(model: LinesModel, place: Place, offset: number, includeDeclaration: boolean): Target[] {
  const session = sessionOf(model);
  const linked = references(session, offset, includeDeclaration);
  if (linked.length > 0) return linked;
  const group = uuidGroup(session, place);
  if (!group) return [];
  const targets: Target[] = [];
  if (includeDeclaration && group.declaration) targets.push({ span: group.declaration });
  for (const span of group.mentions) targets.push({ span });
  return targets;
}

export function sessionHighlights(model: LinesModel, place: Place, offset: number): Highlight[] {
  const session = sessionOf(model);
  const linked = highlights(session, offset);
  if (linked.length > 0) return linked;
  const group = uuidGroup(session, place);
  if (!group) return [];
  const found: Highlight[] = group.declaration ? [{ span: group.declaration, kind: 'write' }] : [];
  for (const span of group.mentions) found.push({ span, kind: 'read' });
  return found;
}
