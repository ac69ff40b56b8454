import { capProblems, sortByPosition, tooManyProblemsMessage } from '../common/capProblems';
import type { Problem } from '../common/types';
import type { ServiceContext } from '../common/languageService';
import type { RuleModel } from './model';
import { pythonImportProblems } from './pythonImports';
import { standardImportProblems } from './standardImports';
import { coverageProblems } from './coverage';

/** Syntax and semantic problems of a rule file, in source order, capped at the configured maximum. */
export function validate(model: RuleModel, context: ServiceContext): Problem[] {
  const problems: Problem[] = [
    ...model.syntaxProblems.map((p): Problem => ({ span: p.span, severity: 'error', code: p.code, message: p.message })),
    ...model.semanticProblems,
    ...pythonImportProblems(model, context.pythonModules),
    ...standardImportProblems(model),
    ...coverageProblems(model, context),
  ];
  return capProblems(sortByPosition(problems), context.settings.maxProblems, (_omitted, shown, found) => ({
    span: { start: 0, end: 0 },
    severity: 'information',
    code: 'gr/too-many-problems',
    message: tooManyProblemsMessage(shown, found),
  }));
}
