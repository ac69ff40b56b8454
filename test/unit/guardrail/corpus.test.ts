import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, model, problems, repoRoot } from './helpers';

const corpus = path.resolve(repoRoot(), '../shared/corpus/guardrails');

interface Expected {
  line: number;
  column: number;
  message: string;
}

function sourcesTable(section: 'valid' | 'invalid'): Map<string, string[]> {
  const text = readFileSync(path.join(corpus, 'SOURCES.md'), 'utf8');
  const part = text.split(/^## /m).find((s) => s.startsWith(`${section}/`)) ?? '';
  const rows = new Map<string, string[]>();
  for (const line of part.split('\n')) {
    const cells = line.split('|').map((c) => c.trim());
    if (/^\d{3}$/.test(cells[1] ?? '')) rows.set(cells[1], cells.slice(1, -1));
  }
  return rows;
}

function expectedErrors(file: string): Expected[] {
  const text = readFileSync(file, 'utf8').split('# PolicyError')[0];
  const result: Expected[] = [];
  for (const line of text.split('\n')) {
    const m = /^(\d+):(\d+): (.*)$/.exec(line);
    if (m) result.push({ line: Number(m[1]), column: Number(m[2]), message: m[3] });
  }
  return result;
}

if (!existsSync(corpus)) {
  test('guardrail corpus', (t) => {
    if (process.env.CI) assert.fail(`corpus not found at ${corpus}`);
    t.skip(`corpus not found at ${corpus}`);
  });
} else {
  const valid = sourcesTable('valid');
  const invalid = sourcesTable('invalid');

  test('every valid corpus file has no error (except the import the official loader rejects)', () => {
    const files = readdirSync(path.join(corpus, 'valid')).filter((f) => f.endsWith('.gr')).sort();
    assert.ok(files.length > 100, 'the valid corpus is present');
    const failures: string[] = [];
    for (const file of files) {
      const text = readFileSync(path.join(corpus, 'valid', file), 'utf8');
      const errors = problems(text).filter((p) => p.severity === 'error');
      const link = valid.get(file.slice(0, 3))?.[7] ?? 'ok';
      let expected: string[] = [];
      const missingModule = /Module '(invariant(?:\.[\w.]+)?)' could not be resolved/.exec(link);
      const missingName = /module '(invariant[\w.]*)' has no attribute '(\w+)'/.exec(link);
      // Modules outside the standard library are plain Python imports, resolved only when the rules are loaded.
      if (missingModule) expected = [`gr/unknown-module Module '${missingModule[1]}' could not be resolved`];
      if (missingName) expected = [`gr/unknown-import module '${missingName[1]}' has no attribute '${missingName[2]}'`];
      const actual = errors.map((p) => `${p.code} ${p.message}`);
      if (JSON.stringify(actual) !== JSON.stringify(expected)) {
        failures.push(`${file}: expected ${JSON.stringify(expected)}, got ${describe(text, errors).join(' | ')}`);
      }
      // A module outside the standard library that the official loader could not import is a warning here.
      const unresolved = /Module '((?!invariant)[\w.]+)' could not be resolved/.exec(link);
      const warned = problems(text).filter((p) => p.code === 'gr/unresolved-module').map((p) => p.message.split(' is not')[0]);
      if (JSON.stringify(warned) !== JSON.stringify(unresolved ? [`Module '${unresolved[1]}'`] : [])) {
        failures.push(`${file}: expected the unresolved-module warning for ${unresolved?.[1] ?? 'nothing'}, got ${JSON.stringify(warned)}`);
      }
    }
    assert.deepEqual(failures, []);
  });

  test('every invalid corpus file gets an error on the line of the first official error', () => {
    const files = readdirSync(path.join(corpus, 'invalid')).filter((f) => f.endsWith('.gr')).sort();
    assert.ok(files.length >= 15, 'the invalid corpus is present');
    const failures: string[] = [];
    for (const file of files) {
      const text = readFileSync(path.join(corpus, 'invalid', file), 'utf8');
      const m = model(text);
      const list = problems(text);
      const expected = expectedErrors(path.join(corpus, 'invalid', file.replace('.gr', '.expected.txt')));
      const first = expected[0];
      const template = invalid.get(file.slice(0, 3))?.[5] === 'template';
      const lineOf = (offset: number) => m.lines.positionAt(offset).line + 1;
      if (template) {
        const placeholder = list.find((p) => p.code === 'gr/template-placeholder' && lineOf(p.span.start) === first.line);
        const errors = list.filter((p) => p.severity === 'error');
        if (!placeholder || errors.length > 0) failures.push(`${file}: expected only the placeholder on line ${first.line}, got ${describe(text, list).join(' | ')}`);
        continue;
      }
      if (!list.some((p) => p.severity === 'error' && lineOf(p.span.start) === first.line)) {
        failures.push(`${file}: no error on line ${first.line} (${first.message}); got ${describe(text, list).join(' | ')}`);
      }
    }
    assert.deepEqual(failures, []);
  });

  test('every official name-resolution and pattern error is reported at its line and column with its message', () => {
    const failures: string[] = [];
    let checked = 0;
    for (const file of readdirSync(path.join(corpus, 'invalid')).filter((f) => f.endsWith('.gr')).sort()) {
      const text = readFileSync(path.join(corpus, 'invalid', file), 'utf8');
      const m = model(text);
      const list = problems(text);
      for (const e of expectedErrors(path.join(corpus, 'invalid', file.replace('.gr', '.expected.txt')))) {
        if (e.message.startsWith('No terminal matches')) continue;
        checked++;
        const found = list.some((p) => {
          const pos = m.lines.positionAt(p.span.start);
          return pos.line + 1 === e.line && pos.character + 1 === e.column && p.message === e.message;
        });
        if (!found) failures.push(`${file}: ${e.line}:${e.column} ${e.message}; got ${describe(text, list).join(' | ')}`);
      }
    }
    assert.ok(checked >= 10);
    assert.deepEqual(failures, []);
  });

  test('official syntax errors are reported at their line and column', () => {
    const failures: string[] = [];
    for (const file of readdirSync(path.join(corpus, 'invalid')).filter((f) => f.endsWith('.gr')).sort()) {
      if (invalid.get(file.slice(0, 3))?.[5] === 'template') continue;
      const text = readFileSync(path.join(corpus, 'invalid', file), 'utf8');
      const m = model(text);
      const list = problems(text).filter((p) => p.code === 'gr/syntax');
      for (const e of expectedErrors(path.join(corpus, 'invalid', file.replace('.gr', '.expected.txt')))) {
        if (!e.message.startsWith('No terminal matches')) continue;
        const found = list.some((p) => {
          const pos = m.lines.positionAt(p.span.start);
          return pos.line + 1 === e.line && pos.character + 1 === e.column;
        });
        if (!found) failures.push(`${file}: ${e.line}:${e.column}; got ${describe(text, list).join(' | ')}`);
      }
    }
    assert.deepEqual(failures, []);
  });
}
