import type { FoldingSpan } from '../common/types';
import { walkExpr, type Expr, type Statement } from './ast';
import type { RuleModel } from './model';

/** Rules, declarations and definitions with blocks, quantifier blocks, and literals spanning several lines. */
export function folding(model: RuleModel): FoldingSpan[] {
  const spans: FoldingSpan[] = [];
  const text = model.text;
  const multiline = (start: number, end: number) => text.lastIndexOf('\n', end - 1) >= start;
  const add = (start: number, end: number) => {
    if (end > start && multiline(start, end)) spans.push({ start, end });
  };
  const exprs = (lines: Expr[]) => {
    for (const line of lines) {
      walkExpr(line, (e) => {
        if (e.kind === 'quantifier' || e.kind === 'object' || e.kind === 'list' || e.kind === 'comprehension' ||
          (e.kind === 'string' && e.triple) || (e.kind === 'call' && multiline(e.start, e.end))) {
          add(e.start, e.end);
        }
      });
    }
  };
  const statement = (s: Statement) => {
    switch (s.kind) {
      case 'rule': case 'predicate': case 'constant':
        add(s.span.start, s.span.end);
        if (s.kind === 'rule' && s.message) exprs([s.message]);
        exprs(s.body);
        break;
      case 'def':
        add(s.span.start, s.span.end);
        s.body.forEach(statement);
        break;
      default:
        break;
    }
  };
  model.program.statements.forEach(statement);
  // Runs of imports fold together.
  const statements = model.program.statements;
  for (let i = 0; i < statements.length; i++) {
    if (statements[i].kind !== 'import' && statements[i].kind !== 'fromImport') continue;
    let j = i;
    while (j + 1 < statements.length && (statements[j + 1].kind === 'import' || statements[j + 1].kind === 'fromImport')) j++;
    if (j > i) add(statements[i].span.start, statements[j].span.end);
    i = j;
  }
  spans.sort((a, b) => a.start - b.start);
  return spans;
}
