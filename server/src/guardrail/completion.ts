import type { CompletionEntry, Span } from '../common/types';
import type { ServiceContext } from '../common/languageService';
import { spend, type Budget } from '../common/budget';
import {
  BUILTIN_FUNCTIONS, LIBRARY_FUNCTIONS, MODULES, RESULT_TYPES, displayType, fieldOf, functionSignature, has, typeInfo,
} from './library';
import type { RuleModel } from './model';
import { BUILTIN_TYPE_NAMES, symbolTypeName, type RuleSymbol, type Scope } from './resolve';

const STRING_METHODS = ['strip', 'lower', 'upper', 'splitlines', 'split', 'format', 'join'];
const DICT_METHODS = ['keys', 'values', 'items', 'get'];
const BODY_KEYWORDS = ['not', 'and', 'or', 'in', 'is', 'contains_only', 'if', 'else', 'for', 'True', 'False', 'None'];

function indentUnit(model: RuleModel): string {
  const m = /^([ \t]+)\S/m.exec(model.text);
  return m ? m[1] : '    ';
}

function scopeAt(model: RuleModel, offset: number, indented: boolean, budget: Budget | undefined): Scope {
  let best: { span: Span; scope: Scope } | undefined;
  let steps = 0;
  for (const info of model.resolution.scopes) {
    steps = spend(budget, steps);
    if (info.span.start <= offset && offset <= info.span.end) {
      if (!best || info.span.end - info.span.start <= best.span.end - best.span.start) best = info;
    }
  }
  if (best) return best.scope;
  if (indented) {
    // A new line typed after the end of a block still belongs to the block above it.
    let last: { span: Span; scope: Scope } | undefined;
    for (const info of model.resolution.scopes) {
      if (info.span.start <= offset && info.scope.parent === model.resolution.global && (!last || info.span.start > last.span.start)) last = info;
    }
    if (last) return last.scope;
  }
  return model.resolution.global;
}

function symbolEntry(symbol: RuleSymbol, replace: Span): CompletionEntry {
  const kind = symbol.kind === 'predicate' ? 'function' : symbol.kind === 'constant' ? 'constant' : symbol.kind === 'import' ? 'reference' : 'variable';
  const t = symbolTypeName(symbol);
  return { label: symbol.name, kind, detail: t !== 'unknown' ? displayType(t) : symbol.kind, replace, sortText: `0${symbol.name}` };
}

/** The type of `a.b.c` at the cursor, from the scope's variables and the known fields. */
function chainType(chain: string[], scope: Scope): string {
  const head = scope.lookup(chain[0]);
  let t = head ? symbolTypeName(head) : 'unknown';
  for (const field of chain.slice(1)) t = fieldOf(t, field)?.type ?? 'unknown';
  return t;
}

const isWordCode = (c: number) => (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
const isDigitCode = (c: number) => c >= 48 && c <= 57;

/** Start of the run of word characters ending at `end` (not before `from`). */
function wordRunStart(text: string, from: number, end: number): number {
  let start = end;
  while (start > from && isWordCode(text.charCodeAt(start - 1))) start--;
  return start;
}

/** The identifier ending at `end`: the word characters before it, without leading digits. */
function identifierBefore(text: string, from: number, end: number): Span {
  let start = wordRunStart(text, from, end);
  while (start < end && isDigitCode(text.charCodeAt(start))) start++;
  return { start, end };
}

/**
 * `a.b.c` in `a.b.c.partial` ending at `wordStart` (just after the dot), read backwards in one pass (a regular
 * expression anchored at the end would try every start on the line: quadratic on a long line); undefined when no
 * name precedes the dot.
 */
function chainBefore(text: string, from: number, wordStart: number): string[] | undefined {
  if (wordStart <= from || text.charCodeAt(wordStart - 1) !== 46 /* . */) return undefined;
  const parts: string[] = [];
  let end = wordStart - 1;
  for (;;) {
    const run = wordRunStart(text, from, end);
    const name = identifierBefore(text, from, end);
    if (name.start === name.end) break;
    parts.push(text.slice(name.start, name.end));
    if (name.start !== run || run <= from || text.charCodeAt(run - 1) !== 46) break;
    end = run - 1;
  }
  return parts.length > 0 ? parts.reverse() : undefined;
}

/** Lines longer than this get no import-line completion (its pattern backtracks on very long lines). */
const MAX_IMPORT_LINE = 4096;

export function completion(model: RuleModel, offset: number, context: ServiceContext): CompletionEntry[] {
  const text = model.text;
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  const prefix = text.slice(lineStart, offset);
  const word: Span = identifierBefore(text, lineStart, offset);
  const indented = /^[ \t]+/.test(prefix);
  const importLine = prefix.length <= MAX_IMPORT_LINE;

  let m = importLine ? /^\s*(?:from|import)\s+([\w.]*)$/.exec(prefix) : null;
  if (m) {
    const replace = { start: offset - m[1].length, end: offset };
    return Object.values(MODULES).map((mod) => ({ label: mod.name, kind: 'module' as const, detail: 'standard library', documentation: mod.doc, replace }));
  }
  m = importLine ? /^\s*from\s+([\w.]+)\s+import\s+(?:\w+(?:\s+as\s+\w+)?\s*,\s*)*(\w*)$/.exec(prefix) : null;
  if (m) {
    const mod = MODULES[m[1]];
    if (!mod) return [];
    return mod.members.map((name) => {
      const f = has(LIBRARY_FUNCTIONS, name) ? LIBRARY_FUNCTIONS[name] : has(BUILTIN_FUNCTIONS, name) ? BUILTIN_FUNCTIONS[name] : undefined;
      return f
        ? { label: name, kind: 'function' as const, detail: functionSignature(f), documentation: f.doc, replace: word }
        : { label: name, kind: 'type' as const, detail: typeInfo(name)?.doc ?? (has(RESULT_TYPES, name) ? RESULT_TYPES[name] : undefined), replace: word };
    });
  }
  if (importLine && /^\s*from\s+[\w.]+\s+\w*$/.test(prefix)) {
    return [{ label: 'import', kind: 'keyword', replace: word }];
  }
  m = /\btool:(\w*)$/.exec(prefix);
  if (m) {
    const tools = context.workspaceTools;
    if (!tools) return [];
    return tools.tools()
      .map((t) => ({ t, total: t.files.reduce((n, f) => n + f.count, 0) }))
      .sort((a, b) => b.total - a.total || a.t.name.localeCompare(b.t.name))
      .map(({ t, total }, i) => ({
        label: t.name,
        kind: 'value' as const,
        detail: `${total} call${total === 1 ? '' : 's'} in ${t.files.length} trace file${t.files.length === 1 ? '' : 's'}`,
        replace: word,
        sortText: String(i).padStart(6, '0'),
      }));
  }
  const scope = scopeAt(model, offset, indented, context.budget);
  m = /\(\s*\w+\s*:\s*(\w*)$/.exec(prefix);
  if (m) {
    const entries: CompletionEntry[] = BUILTIN_TYPE_NAMES.map((name) => ({ label: name, kind: 'type' as const, detail: typeInfo(name)?.doc, replace: word }));
    for (const symbol of model.resolution.global.visible()) {
      if (symbol.kind === 'import' && symbol.importedName && /^[A-Z]/.test(symbol.importedName)) entries.push({ label: symbol.name, kind: 'type', detail: `from ${symbol.module}`, replace: word });
    }
    return entries;
  }
  const chain = chainBefore(text, lineStart, wordRunStart(text, lineStart, offset));
  if (chain) {
    const t = chainType(chain, scope);
    const info = typeInfo(t);
    if (info && info.fields.length > 0) {
      return info.fields.map((f) => ({ label: f.name, kind: 'field' as const, detail: displayType(f.type), documentation: f.doc, replace: word }));
    }
    if (t === 'str') return STRING_METHODS.map((name) => ({ label: name, kind: 'function' as const, detail: 'string method', insertText: `${name}($1)`, snippet: true, replace: word }));
    if (t === 'dict') return DICT_METHODS.map((name) => ({ label: name, kind: 'function' as const, detail: 'dictionary method', insertText: `${name}($1)`, snippet: true, replace: word }));
    return [];
  }

  const unit = indentUnit(model);
  const entries: CompletionEntry[] = [];
  const atLineStart = /^\s*\w*$/.test(prefix);
  if (!indented && atLineStart) {
    entries.push(
      { label: 'raise', kind: 'snippet', detail: 'rule', documentation: 'A rule: a message and the conditions under which it is raised.', insertText: `raise "\${1:message}" if:\n${unit}(\${2:call}: \${3:ToolCall})\n${unit}$0`, snippet: true, replace: word, sortText: '00' },
      { label: 'raise PolicyViolation', kind: 'snippet', detail: 'rule with details', insertText: `raise PolicyViolation("\${1:message}", \${2:call}=\${2:call}) if:\n${unit}(\${2:call}: \${3:ToolCall})\n${unit}$0`, snippet: true, replace: word, sortText: '01' },
      { label: 'from invariant.detectors import', kind: 'snippet', detail: 'import detectors', insertText: 'from invariant.detectors import ${1:pii}', snippet: true, replace: word, sortText: '02' },
      { label: 'predicate', kind: 'snippet', detail: 'name(param: Type) := …', insertText: `\${1:name}(\${2:m}: \${3:Message}) :=\n${unit}$0`, snippet: true, replace: word, sortText: '03' },
      { label: 'from', kind: 'keyword', replace: word },
      { label: 'import', kind: 'keyword', replace: word },
      { label: 'def', kind: 'keyword', replace: word },
    );
    return entries;
  }
  if (atLineStart) {
    const typed = [['call', 'ToolCall'], ['msg', 'Message'], ['output', 'ToolOutput'], ['tool', 'Tool']];
    for (const [name, type] of typed) {
      entries.push({ label: `(${name}: ${type})`, kind: 'snippet', detail: `every ${type} of the trace`, insertText: `(\${1:${name}}: ${type})`, snippet: true, replace: word, sortText: `1${name}`, filterText: name });
    }
    entries.push(
      { label: '(call: ToolCall) -> (output: ToolOutput)', kind: 'snippet', detail: 'a call followed by an output', insertText: '(${1:call}: ToolCall) -> (${2:output}: ToolOutput)', snippet: true, replace: word, sortText: '1flow', filterText: 'call' },
      { label: 'count(min=…):', kind: 'snippet', detail: 'quantifier (from invariant import count)', insertText: `count(min=\${1:2}):\n${unit}$0`, snippet: true, replace: word, sortText: '2count', filterText: 'count' },
      { label: 'forall:', kind: 'snippet', detail: 'quantifier (from invariant import forall)', insertText: `forall:\n${unit}$0`, snippet: true, replace: word, sortText: '2forall', filterText: 'forall' },
    );
  }
  for (const symbol of scope.visible()) if (symbol.name) entries.push(symbolEntry(symbol, word));
  for (const f of Object.values(BUILTIN_FUNCTIONS)) {
    entries.push({ label: f.name, kind: 'function', detail: functionSignature(f), documentation: f.doc, insertText: `${f.name}($1)`, snippet: true, replace: word, sortText: `3${f.name}` });
  }
  for (const name of BUILTIN_TYPE_NAMES) entries.push({ label: name, kind: 'type', detail: typeInfo(name)?.doc, replace: word, sortText: `4${name}` });
  for (const name of Object.keys(RESULT_TYPES)) entries.push({ label: name, kind: 'type', detail: RESULT_TYPES[name], replace: word, sortText: `4${name}` });
  entries.push({ label: 'input', kind: 'variable', detail: 'analysis parameters', replace: word, sortText: '3input' });
  entries.push({ label: 'tool:', kind: 'keyword', detail: 'tool pattern', replace: word, sortText: '5tool' });
  for (const k of BODY_KEYWORDS) entries.push({ label: k, kind: 'keyword', replace: word, sortText: `6${k}` });
  return entries;
}
