/**
 * The checks of a Claude Code session beyond the family's (syntax, limits): the links between tool_use and
 * tool_result (shared with every format), a `parentUuid` that names no record, a uuid used twice, the records of
 * abandoned branches (faded), and record types and fields the known versions do not have (hints: the format
 * changes with every release). A real session has none of these but for what really went wrong.
 */
import type { ServiceContext } from '../../common/languageService';
import type { Problem, Severity, Span } from '../../common/types';
import { linkProblems } from '../../calls/validate';
import { ownEntry } from '../../common/lookup';
import type { LinesModel } from '../lines';
import { knownFields } from './docs';
import { sessionOf } from './session';
import type { RecordStep } from './types';

const code = (name: string) => `claude-code/${name}`;

export function validateSession(model: LinesModel, context: ServiceContext, report: (problem: Problem) => boolean): void {
  const session = sessionOf(model);
  const problems: Problem[] = [];
  const add = (span: Span, severity: Severity, name: string, message: string, related?: Problem['related']) => {
    const problem: Problem = { span, severity, code: name.includes('/') ? name : code(name), message };
    if (related) problem.related = related;
    problems.push(problem);
  };
  linkProblems(session, add);
  const firstUse = new Map<string, RecordStep>();
  for (const step of session.steps) {
    const facts = step.facts;
    const at = (span: Span | undefined): Span => (span ? { start: step.line.start + span.start, end: step.line.start + span.end } : { start: step.span.start, end: step.span.start + 1 });
    if (facts.uuid !== undefined) {
      const first = firstUse.get(facts.uuid);
      if (first) {
        add(at(facts.uuidSpan), 'warning', 'duplicate-uuid', `uuid "${facts.uuid}" is already the id of the record on line ${first.index + 1}: records naming it as their parent are ambiguous`,
          [{ span: { start: first.line.start + first.facts.uuidSpan!.start, end: first.line.start + first.facts.uuidSpan!.end }, message: 'the first record with this uuid' }]);
      } else firstUse.set(facts.uuid, step);
    }
    // The first records of a subagent's file continue its parent session's chain, which is in another file.
    if (typeof facts.parentUuid === 'string' && !session.byUuid.has(facts.parentUuid) && !facts.sidechain) {
      add(at(facts.parentSpan), 'warning', 'unknown-parent',
        `parentUuid "${facts.parentUuid}" names no record of this session: the chain of records is broken here (the file was edited or cut), so what came before is unknown`);
    }
    if (step.abandoned) {
      const problem: Problem = {
        span: step.span, severity: 'hint', code: code('abandoned'), unnecessary: true,
        message: 'This record is on an abandoned branch: the conversation was rewound or forked before it, and went on from another record',
      };
      problems.push(problem);
    }
    if (context.settings.unknownKeyHints) unknownTypeOrFields(step, add, at);
  }
  for (const problem of problems) if (!report(problem)) return;
}

const knownSets = new Map<string, Set<string>>();

function knownFieldSet(type: string): Set<string> | undefined {
  let set = knownSets.get(type);
  if (!set) {
    const fields = ownEntry(knownFields, type);
    if (!fields) return undefined;
    knownSets.set(type, (set = new Set(fields)));
  }
  return set;
}

function unknownTypeOrFields(step: RecordStep, add: (span: Span, severity: Severity, name: string, message: string) => void, at: (span: Span | undefined) => Span): void {
  const type = step.facts.type!;
  const known = knownFieldSet(type);
  if (!known) {
    add(at(step.facts.typeSpan), 'hint', 'unknown-type', `Record type "${type}" is not one the known versions of Claude Code write (up to 2.1.144): it may come from a newer one`);
    return;
  }
  const root = step.line.root;
  if (root?.type !== 'object') return;
  for (const property of root.properties) {
    if (known.has(property.key)) continue;
    add({ start: property.keyStart, end: property.keyEnd }, 'hint', 'unknown-field',
      `Field "${property.key}" is not one the known versions of Claude Code write in a "${type}" record (up to 2.1.144): it may come from a newer one`);
  }
}
