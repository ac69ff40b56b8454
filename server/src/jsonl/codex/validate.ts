/**
 * The checks of a Codex rollout beyond the family's (syntax, a cut last line, limits): the links between calls and
 * outputs (shared with every format: an output whose call is missing, a call never answered, an output before its
 * call), `arguments` that are not a JSON object, and the records' schema (a field of the wrong kind or missing, a
 * record, item or event type the known versions do not write). A real rollout has none of these but for what
 * really went wrong.
 */
import type { ServiceContext } from '../../common/languageService';
import type { Problem, Severity, Span } from '../../common/types';
import type { TextSource } from '../../common/textSource';
import { ownEntry } from '../../common/lookup';
import { linkProblems } from '../../calls/validate';
import { checkEncodedArguments } from '../../calls/arguments';
import { parseJson } from '../../trace/parser';
import { property } from '../../json/queries';
import { checkFields, checkItem, type SchemaOptions } from '../../responses/schema';
import type { LinesModel } from '../lines';
import { eventTypes, recordFields, recordTypes } from './docs';
import { rolloutOf } from './rollout';
import type { RolloutStep } from './types';

export function validateRollout(model: LinesModel, context: ServiceContext, report: (problem: Problem) => boolean): void {
  const rollout = rolloutOf(model);
  const problems: Problem[] = [];
  const add = (span: Span, severity: Severity, code: string, message: string, related?: Problem['related'], suggestion?: string) => {
    const problem: Problem = { span, severity, code, message };
    if (related) problem.related = related;
    if (suggestion !== undefined) problem.suggestion = suggestion;
    problems.push(problem);
  };
  linkProblems(rollout, add);
  const options: SchemaOptions = { codePrefix: 'codex', unknownKeyHints: context.settings.unknownKeyHints };
  const first = rollout.steps[0];
  if (first && first.facts.type !== 'session_meta') {
    add({ start: first.span.start, end: first.span.start + 1 }, 'information', 'codex/no-session-meta',
      'This rollout does not start with its session_meta record: its head was cut off, so the session\'s id, folder and Codex version are unknown');
  }
  for (const step of rollout.steps) {
    checkRecord(step, options, add);
    if (step.calls.length > 0) checkArguments(step, rollout.text, add);
  }
  for (const problem of problems) if (!report(problem)) return;
}

function checkRecord(step: RolloutStep, options: SchemaOptions, add: (span: Span, severity: Severity, code: string, message: string) => void): void {
  const root = step.line.root;
  if (root?.type !== 'object') return;
  const facts = step.facts;
  const type = facts.type!;
  const schema = ownEntry(recordTypes, type);
  checkFields(root, recordFields, 'a rollout record', { ...options, unknownKeyHints: options.unknownKeyHints && schema !== undefined }, add);
  if (!schema) {
    if (options.unknownKeyHints && facts.typeSpan) {
      add(at(step, facts.typeSpan), 'hint', 'codex/unknown-type', `Record type "${type}" is not one the known versions of Codex write: it may come from a newer one`);
    }
    return;
  }
  if (facts.timeSpan && facts.time === undefined) {
    add(at(step, facts.timeSpan), 'warning', 'codex/timestamp', 'timestamp must be an ISO 8601 time (`2025-01-04T09:00:07.000Z`): the time of this step is unknown');
  }
  const payload = property(root, 'payload')?.value;
  if (payload?.type !== 'object') return;
  // Sessions, turns and events gain fields with every release: only their kinds are checked.
  const loose = { ...options, unknownKeyHints: false };
  if (type === 'response_item') {
    checkItem(payload, options, add);
  } else if (type === 'event_msg') {
    const event = facts.payloadType !== undefined ? ownEntry(eventTypes, facts.payloadType) : undefined;
    if (event) checkFields(payload, event.payload, `a ${facts.payloadType} event`, loose, add);
    else if (options.unknownKeyHints && facts.payloadTypeSpan) {
      add(at(step, facts.payloadTypeSpan), 'hint', 'codex/unknown-event', `Event "${facts.payloadType}" is not one the known versions of Codex keep in a rollout: it may come from a newer one`);
    }
  } else {
    checkFields(payload, schema.payload, `a ${type} payload`, loose, add);
  }
}

/** A function call's (or MCP call's) `arguments` must be a JSON string holding an object. */
function checkArguments(step: RolloutStep, text: TextSource, add: (span: Span, severity: Severity, code: string, message: string) => void): void {
  for (const call of step.calls) {
    const literal = call.argsSpan;
    if (!literal || call.facts.argsEncoding !== 'json-string') continue;
    const node = property(property(step.line.root, 'payload')?.value, 'arguments')?.value;
    if (node?.type !== 'string') continue;
    checkEncodedArguments(text, literal, node.value, (json) => parseJson(json).errors[0], 'codex/arguments-json', add);
  }
}

function at(step: RolloutStep, span: Span): Span {
  return { start: step.line.start + span.start, end: step.line.start + span.end };
}
