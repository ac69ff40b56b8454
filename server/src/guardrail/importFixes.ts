/**
 * Import quick fixes for rule files: a standard-library name used without its import gets the import
 * (`gr/unknown-identifier`, `gr/unknown-type`), an import nothing uses is removed (`gr/unused-import`).
 */
import { quickfix } from '../common/codeActions';
import type { CodeFix, Problem, Span } from '../common/types';
import type { ImportName, Statement } from './ast';
import { MODULES } from './library';
import type { RuleModel } from './model';

type FromImport = Extract<Statement, { kind: 'fromImport' }>;
type AnyImport = Extract<Statement, { kind: 'import' | 'fromImport' }>;

/** Modules whose names already need no import; importing from them would only repeat the language. */
const notOffered = new Set(['invariant.builtins', 'invariant.nodes', 'invariant.errors']);

/**
 * `from module import name` for a standard-library name: added to an existing import from a module that exports
 * it, else on a new line after the last import (or at the top). Safe: the name means exactly that library export.
 */
export function addImport(model: RuleModel, problem: Problem): CodeFix[] {
  const name = /[A-Za-z_]\w*$/.exec(model.text.slice(problem.span.start, problem.span.end))?.[0];
  if (!name) return [];
  const modules = Object.values(MODULES).filter((m) => !notOffered.has(m.name) && m.members.includes(name)).map((m) => m.name);
  if (modules.length === 0) return [];
  const imports = topLevelImports(model);
  const existing = imports.find((s): s is FromImport => s.kind === 'fromImport' && modules.includes(s.module.name) && s.names.length > 0);
  if (existing) {
    const last = existing.names[existing.names.length - 1];
    const at = (last.alias ?? last.name).end;
    return [fix(problem, `Add '${name}' to the import from ${existing.module.name}`, { start: at, end: at }, `, ${name}`, true)];
  }
  const line = `from ${modules[0]} import ${name}`;
  const after = imports[imports.length - 1];
  if (!after) {
    const blank = /^[ \t]*\r?\n/.test(model.text) || model.text.length === 0 ? '' : '\n';
    return [fix(problem, `Add '${line}'`, { start: 0, end: 0 }, `${line}\n${blank}`, true)];
  }
  const end = lineEnd(model.text, after.span.end);
  const text = end === model.text.length && !model.text.endsWith('\n') ? `\n${line}` : `${line}\n`;
  return [fix(problem, `Add '${line}'`, { start: end, end }, text, true)];
}

/**
 * Removes an unused imported name with its comma, or the whole line when nothing else on it is used. Not safe:
 * fix-on-save would delete an import the user is about to use.
 */
export function removeImport(model: RuleModel, problem: Problem): CodeFix[] {
  const statement = topLevelImports(model).find((s) => s.span.start <= problem.span.start && problem.span.end <= s.span.end);
  if (!statement) return [];
  const written = model.text.slice(problem.span.start, problem.span.end);
  const unusedHere = model.semanticProblems.filter((p) => p.code === 'gr/unused-import' && statement.span.start <= p.span.start && p.span.end <= statement.span.end).length;
  const names = statement.kind === 'fromImport' ? statement.names : [];
  if (statement.kind === 'import' || unusedHere >= names.length) {
    const title = statement.kind === 'import' || names.length === 1 ? `Remove the unused import '${written}'` : 'Remove the unused import line';
    // A comment inside the statement goes with it: then the user picks the fix, it is not the lightbulb's default.
    const span = linesUpToComment(model, statement.span);
    const holdsComment = model.comments.some((comment) => span.start <= comment.start && comment.end <= span.end);
    return [quickfix(problem, title, [{ span, newText: '' }], false, !holdsComment)];
  }
  const i = names.findIndex((n) => n.name.start === problem.span.start);
  if (i < 0) return [];
  const span = i < names.length - 1
    ? { start: names[i].name.start, end: names[i + 1].name.start }
    : { start: endOf(names[i - 1]), end: endOf(names[i]) };
  return [fix(problem, `Remove the unused import '${written}'`, span, '', false)];
}

function topLevelImports(model: RuleModel): AnyImport[] {
  return model.program.statements.filter((s): s is AnyImport => s.kind === 'import' || s.kind === 'fromImport');
}

const endOf = (name: ImportName) => (name.alias ?? name.name).end;

/** The offset just after the line break ending the line that holds `offset` (or the end of the text). */
function lineEnd(text: string, offset: number): number {
  const newline = text.indexOf('\n', offset);
  return newline < 0 ? text.length : newline + 1;
}

/**
 * The lines a statement spans, with their line break; a comment after it on its last line stays, on a line of its
 * own (`import re  # for X` becomes `# for X`).
 */
function linesUpToComment(model: RuleModel, span: Span): Span {
  const text = model.text;
  const start = text.lastIndexOf('\n', span.start - 1) + 1;
  const end = lineEnd(text, span.end);
  const after = model.comments.find((comment) => comment.start >= span.end && comment.start < end);
  return { start, end: after ? after.start : end };
}

function fix(problem: Problem, title: string, span: Span, newText: string, safe: boolean): CodeFix {
  return quickfix(problem, title, [{ span, newText }], safe, true);
}
