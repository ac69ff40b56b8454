import type { Span } from '../common/types';
import type { RuleModel } from './model';
import { shorten } from '../common/text';
import { stringValue } from './evaluate/strings';

/** One rule of a rule file as tests and coverage name it: its `raise`, where it is, and what it says. */
export interface RuleInfo {
  index: number;
  /** 1-based line of the `raise`. */
  line: number;
  /** The raise's header in the rule file. */
  span: Span;
  /** Its message when the raise names one as a literal, else the raise's own text. */
  label: string;
  /** The literal message, when the raise has one (a violation of this rule says exactly this). */
  message?: string;
}

export function rulesOf(model: RuleModel): RuleInfo[] {
  const out: RuleInfo[] = [];
  for (const statement of model.program.statements) {
    if (statement.kind !== 'rule') continue;
    const raise = statement.message;
    const literal = raise?.kind === 'string' ? raise : raise?.kind === 'call' && raise.args[0]?.kind === 'string' ? raise.args[0] : undefined;
    // f-strings are not interpolated: their text is the message too.
    const message = literal?.kind === 'string' ? stringValue(model.text, literal) : undefined;
    const source = raise ? model.text.slice(raise.start, raise.end) : model.text.slice(statement.headerSpan.start, statement.headerSpan.end);
    out.push({
      index: out.length,
      line: model.lines.positionAt(statement.headerSpan.start).line + 1,
      span: statement.headerSpan,
      label: message ?? shorten(source.replace(/\s+/g, ' '), 80),
      ...(message !== undefined ? { message } : {}),
    });
  }
  return out;
}

/** The rule whose text (its header and conditions) holds `offset`, if any. */
export function ruleAt(model: RuleModel, offset: number): RuleInfo | undefined {
  const rules = model.program.statements.filter((statement) => statement.kind === 'rule');
  const index = rules.findIndex((rule) => rule.span.start <= offset && offset <= rule.span.end);
  return index < 0 ? undefined : rulesOf(model)[index];
}
