/**
 * What the local evaluator does with the Python modules of Python's own library that a rule file imports, said once,
 * on the import: json, re, math and string are evaluated (a name they do not provide is noted); any other module is
 * never run, so the rules that use it are reported as not evaluated. The official analyzer imports and runs them all.
 */
import type { Problem } from '../common/types';
import { providedName } from './evaluate/stdlib/modules';
import type { RuleModel } from './model';
import { EVALUATED_MODULES, isMachineModule, isThirdPartyModule } from './python';
import { spanOf } from '../common/spans';

export function standardImportProblems(model: RuleModel): Problem[] {
  const problems: Problem[] = [];
  for (const statement of model.program.statements) {
    if (statement.kind !== 'import' && statement.kind !== 'fromImport') continue;
    const module = statement.module.name;
    if (!module || module === 'invariant' || module.startsWith('invariant.')) continue;
    const span = spanOf(statement.module);
    if (isMachineModule(module)) {
      problems.push({
        span, severity: 'information', code: 'gr/module-never-run',
        message: `${module} can act on the machine or the network: the local evaluator never runs it and reports the rules that use it as not evaluated (the official analyzer runs it as Python)`,
      });
      continue;
    }
    if (isThirdPartyModule(module)) continue; // pythonImports.ts speaks of those
    const evaluated = Object.keys(EVALUATED_MODULES);
    if (!evaluated.includes(module)) {
      problems.push({
        span, severity: 'information', code: 'gr/module-not-evaluated',
        message: `Of Python's own modules the local evaluator runs ${evaluated.join(', ')}, not ${module}: it reports the rules that use it as not evaluated`,
      });
      continue;
    }
    if (statement.kind !== 'fromImport') continue;
    for (const { name } of statement.names) {
      if (!EVALUATED_MODULES[module].includes(name.name) || providedName(module, name.name)) continue;
      problems.push({
        span: spanOf(name), severity: 'information', code: 'gr/module-not-evaluated',
        message: `${module}.${name.name} is not provided by the local evaluator: it reports the rules that use it as not evaluated`,
      });
    }
  }
  return problems;
}
