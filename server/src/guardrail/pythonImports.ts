/**
 * Imports of Python modules outside the standard library. The official tool imports them when it loads the rules
 * and fails when it cannot, so the editor warns, and where the user has named folders to search
 * (`agentTraces.guardrails.pythonPaths`), reads the module's file: the imported names resolve to its top-level
 * definitions, with their signatures and docstrings.
 */
import type { Problem, PythonModuleFile, PythonModules, Span, Target } from '../common/types';
import { LineIndex } from '../common/lineIndex';
import type { RuleModel } from './model';
import { isThirdPartyModule, pythonModuleInfo, type PythonName } from './python';
import { codeBlock, inlineCode } from '../common/markdown';
import { spanOf } from '../common/spans';

/** Warnings on imports of modules outside the standard library that cannot be found, or lack a name. */
export function pythonImportProblems(model: RuleModel, modules: PythonModules | undefined): Problem[] {
  const problems: Problem[] = [];
  for (const statement of model.program.statements) {
    if (statement.kind !== 'import' && statement.kind !== 'fromImport') continue;
    const module = statement.module.name;
    if (!module || !isThirdPartyModule(module)) continue;
    const span = spanOf(statement.module);
    const file = modules?.find(module);
    if (!file) {
      problems.push({ span, severity: 'warning', code: 'gr/unresolved-module', message: unresolvedMessage(module, modules) });
      continue;
    }
    if (file.text === undefined) {
      problems.push({
        span, severity: 'warning', code: 'gr/unresolved-module',
        message: `Module '${module}' is ${file.path}, which is larger than ${file.limit} bytes (agentTraces.guardrails.maxPythonFileSize), so its names were not checked`,
      });
      continue;
    }
    if (statement.kind !== 'fromImport') continue;
    const info = pythonModuleInfo(file.uri, file.text);
    if (info.wildcard) continue;
    for (const { name } of statement.names) {
      if (info.names.has(name.name) || modules?.find(`${module}.${name.name}`)) continue;
      problems.push({
        span: spanOf(name), severity: 'warning', code: 'gr/unknown-import',
        message: `module '${module}' has no attribute '${name.name}': ${file.path} defines no top-level function, class or variable of that name`,
      });
    }
  }
  return problems;
}

function unresolvedMessage(module: string, modules: PythonModules | undefined): string {
  const base = `Module '${module}' is not part of the standard library: it must be importable where the policy runs`;
  const path = module.replace(/\./g, '/');
  if (modules?.unavailable) return `${base}. ${modules.unavailable}, so its names are not checked here`;
  if (!modules || modules.folders.length === 0) {
    return `${base}. To check it here, add the folder holding ${path}.py to agentTraces.guardrails.pythonPaths`;
  }
  return `${base}. No ${path}.py or ${path}/__init__.py in ${modules.folders.join(', ')} (agentTraces.guardrails.pythonPaths)`;
}

export interface PythonImported {
  file: PythonModuleFile & { text: string };
  /** The definition of the imported name, when the module file has one (undefined for the module itself). */
  definition?: PythonName;
}

/** The module file and definition behind an imported name (or a module name in an import), when found. */
export function pythonImported(modules: PythonModules | undefined, module: string | undefined, name: string | undefined): PythonImported | undefined {
  if (!modules || !module || !isThirdPartyModule(module)) return undefined;
  const file = modules.find(module);
  if (!file || file.text === undefined) return undefined;
  const withText = file as PythonImported['file'];
  if (name === undefined) return { file: withText };
  const definition = pythonModuleInfo(file.uri, file.text).names.get(name);
  if (definition) return { file: withText, definition };
  const submodule = modules.find(`${module}.${name}`);
  return submodule?.text !== undefined ? { file: submodule as PythonImported['file'] } : undefined;
}

/** Go to definition: the `def`, class or assignment in the module file, or the file itself. */
export function pythonTarget(imported: PythonImported): Target {
  const positions = new LineIndex(imported.file.text);
  const d = imported.definition;
  const span: Span = d ? d.statementSpan : { start: 0, end: 0 };
  return { uri: imported.file.uri, span, selection: d ? d.nameSpan : span, positions };
}

/** Hover Markdown: the signature in a Python code block, then the docstring as plain text, then the file. */
export function describePythonImport(imported: PythonImported, module: string): string {
  const d = imported.definition;
  const parts: string[] = [];
  if (d?.signature) parts.push(codeBlock(d.signature, 'python'));
  else if (d) parts.push(codeBlock(`${d.name}  # ${d.kind === 'import' ? 'imported name' : d.kind}`, 'python'));
  else parts.push(codeBlock(`module ${module}`, 'python'));
  if (d?.docstring) parts.push(codeBlock(d.docstring, 'text'));
  parts.push(`From ${inlineCode(imported.file.path)}, found through agentTraces.guardrails.pythonPaths; it must also be importable where the policy runs.`);
  return parts.join('\n\n');
}
