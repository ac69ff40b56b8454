import type { HoverResult, Span, WorkspaceTools } from '../common/types';
import type { ServiceContext } from '../common/languageService';
import { codeBlock, inlineCode } from '../common/markdown';
import {
  BUILTIN_FUNCTIONS, KEYWORD_DOCS, LIBRARY_FUNCTIONS, MODULES, OPERATOR_DOCS, RESULT_TYPES,
  displayType, fieldOf, functionSignature, has, typeInfo, type FunctionInfo,
} from './library';
import { lineTextAt, occurrenceAt, tokenAt, type RuleModel } from './model';
import { symbolTypeName, type Occurrence, type RuleSymbol } from './resolve';
import { describePythonImport, pythonImported } from './pythonImports';

const MAX_TOOL_FILES = 10;

function code(text: string): string {
  return codeBlock(text, 'guardrail');
}

export function describeType(name: string): string | undefined {
  const info = typeInfo(name);
  if (!info) return undefined;
  const parts = [code(`type ${displayType(name)}`), info.doc];
  if (info.fields.length > 0) {
    parts.push(info.fields.map((f) => `- ${inlineCode(f.name)}: ${inlineCode(displayType(f.type))} — ${f.doc}`).join('\n'));
  }
  return parts.join('\n\n');
}

export function describeFunction(f: FunctionInfo, module?: string): string {
  return [code(functionSignature(f)), f.doc + (module ? `\n\nFrom ${inlineCode(module)}.` : '')].join('\n\n');
}

function describeSymbol(model: RuleModel, symbol: RuleSymbol): string {
  const declaration = lineTextAt(model, symbol.declSpan.start);
  switch (symbol.kind) {
    case 'variable':
    case 'parameter':
    case 'comprehension': {
      const t = symbolTypeName(symbol);
      const label = symbol.kind === 'parameter' ? 'parameter' : 'variable';
      const parts = [code(`(${label}) ${symbol.name}: ${displayType(t)}`), `Declared by ${inlineCode(declaration)}`];
      const info = typeInfo(t);
      if (info && info.fields.length > 0) parts.push(`Fields: ${info.fields.map((f) => inlineCode(f.name)).join(', ')}`);
      return parts.join('\n\n');
    }
    case 'constant':
      return [code(declaration), `(constant) ${symbol.name}${symbol.inferred && symbol.inferred !== 'unknown' ? `: ${displayType(symbol.inferred)}` : ''}`].join('\n\n');
    case 'predicate':
      return [code(declaration), `(predicate) ${symbol.name}: holds when all of its conditions hold.`].join('\n\n');
    case 'import': {
      const parts = [code(declaration)];
      const module = symbol.module ? MODULES[symbol.module] : undefined;
      const imported = symbol.importedName;
      if (module && imported && has(LIBRARY_FUNCTIONS, imported)) parts.push(describeFunction(LIBRARY_FUNCTIONS[imported], module.name));
      else if (module && imported && typeInfo(imported)) parts.push(describeType(imported)!);
      else if (module && !imported) parts.push(module.doc);
      else if (!symbol.module?.startsWith('invariant')) parts.push(`Python ${imported ? 'name' : 'module'} imported from ${inlineCode(symbol.module ?? '')}, resolved when the rules are loaded.`);
      return parts.join('\n\n');
    }
  }
}

function describeBuiltin(name: string): string | undefined {
  if (has(BUILTIN_FUNCTIONS, name)) return describeFunction(BUILTIN_FUNCTIONS[name]);
  if (has(RESULT_TYPES, name)) return [code(name), RESULT_TYPES[name]].join('\n\n');
  if (name === 'input') return [code('input'), 'The parameters passed to the analysis: `input.name` reads the parameter `name`.'].join('\n\n');
  return describeType(name);
}

export function describeTool(name: string, tools: WorkspaceTools | undefined): string {
  const header = code(`tool:${name}`);
  const explain = `Matches a call of the tool ${inlineCode(name)} (the name must match fully as a regular expression), or an output answering such a call.`;
  if (!tools) return [header, explain].join('\n\n');
  const usage = tools.tools().find((t) => t.name === name);
  const notice = tools.truncated ? '\n\nThe workspace index stopped at its file limit, so other trace files may call it too.' : '';
  if (!usage || usage.files.length === 0) {
    return [header, explain, `No trace file in the workspace calls ${inlineCode(name)}.${notice}`].join('\n\n');
  }
  const total = usage.files.reduce((n, f) => n + f.count, 0);
  const files = [...usage.files].sort((a, b) => b.count - a.count);
  const listed = files.slice(0, MAX_TOOL_FILES).map((f) => `- ${inlineCode(f.uri)}: ${f.count} call${f.count === 1 ? '' : 's'}`);
  if (files.length > MAX_TOOL_FILES) listed.push(`- … and ${files.length - MAX_TOOL_FILES} more files`);
  const summary = `Called ${total} time${total === 1 ? '' : 's'} in ${files.length} trace file${files.length === 1 ? '' : 's'} of the workspace:`;
  return [header, explain, summary + '\n' + listed.join('\n') + notice].join('\n\n');
}

function describeOccurrence(model: RuleModel, o: Occurrence, context: ServiceContext): string | undefined {
  if (o.tool !== undefined) return describeTool(o.tool, context.workspaceTools);
  if (o.symbol?.kind === 'import' && o.symbol.module) {
    const imported = pythonImported(context.pythonModules, o.symbol.module, o.symbol.importedName);
    if (imported) return [code(lineTextAt(model, o.symbol.declSpan.start)), describePythonImport(imported, o.symbol.module)].join('\n\n');
  }
  if (o.symbol) return describeSymbol(model, o.symbol);
  if (o.module !== undefined && o.builtin === undefined) {
    const imported = pythonImported(context.pythonModules, o.module, undefined);
    if (imported) return describePythonImport(imported, o.module);
    const module = MODULES[o.module];
    if (module) return [code(`module ${module.name}`), module.doc, module.members.length ? `Provides: ${module.members.map((m) => inlineCode(m)).join(', ')}` : ''].filter(Boolean).join('\n\n');
    return o.module.startsWith('invariant') ? undefined : [code(`module ${o.module}`), 'A Python module, resolved when the rules are loaded.'].join('\n\n');
  }
  if (o.builtin !== undefined && o.module !== undefined) {
    if (has(LIBRARY_FUNCTIONS, o.builtin)) return describeFunction(LIBRARY_FUNCTIONS[o.builtin], o.module);
    return describeType(o.builtin);
  }
  if (o.builtin !== undefined) return describeBuiltin(o.builtin);
  if (o.typeName !== undefined) return describeType(o.typeName);
  if (o.member) {
    const field = fieldOf(o.member.objectType, o.member.name);
    if (!field) return undefined;
    const owner = typeInfo(o.member.objectType)?.name ?? o.member.objectType;
    return [code(`${owner}.${field.name}: ${displayType(field.type)}`), field.doc].join('\n\n');
  }
  return undefined;
}

export function hover(model: RuleModel, offset: number, context: ServiceContext): HoverResult | null {
  const occurrence = occurrenceAt(model, offset);
  if (occurrence) {
    const markdown = describeOccurrence(model, occurrence, context);
    if (markdown) return { span: occurrence.span, markdown };
  }
  const index = tokenAt(model, offset);
  if (index < 0) return null;
  const token = model.tokens[index];
  const span: Span = { start: token.start, end: token.end };
  if (token.kind === 'keyword' || token.kind === 'op') {
    if (has(OPERATOR_DOCS, token.text)) return { span, markdown: [code(token.text), OPERATOR_DOCS[token.text]].join('\n\n') };
    if ((token.text === 'if' || token.text === 'else') && model.tokens[index + 1]?.text !== ':') {
      return { span, markdown: [code('a if condition else b'), 'Conditional expression: `a` when the condition holds, otherwise `b`.'].join('\n\n') };
    }
    if (has(KEYWORD_DOCS, token.text)) return { span, markdown: [code(token.text), KEYWORD_DOCS[token.text]].join('\n\n') };
  }
  if (token.kind === 'name' && token.text === 'tool') {
    const next = model.tokens[index + 2];
    if (model.tokens[index + 1]?.text === ':' && next?.kind === 'name') return { span: { start: token.start, end: next.end }, markdown: describeTool(next.text, context.workspaceTools) };
  }
  return null;
}
