import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { evaluateExpression } from '../../../../server/src/guardrail/evaluate';
import { MatchObject, PatternObject } from '../../../../server/src/guardrail/evaluate/stdlib/re';
import { PyDict, PyError, PyTuple, isStr, pyFloatRepr, pyRepr, str, type Value } from '../../../../server/src/guardrail/evaluate/values';
import { model, repoRoot } from '../helpers';

/**
 * Rules that call Python's json, re, math and string modules, against Python 3.11: every expression of
 * python/stdlib-cases.json (values computed once with Python by python/stdlib_cases.py), evaluated by the rule
 * evaluator and compared as typed values, or as the exception Python raises (type and message).
 */

interface Case {
  expression: string;
  value?: Typed;
  error?: { type: string; message: string };
}
type Typed = unknown[];

const data = JSON.parse(readFileSync(path.join(repoRoot(), 'test/unit/guardrail/evaluate/python/stdlib-cases.json'), 'utf8')) as { python: string; cases: Case[] };

function typed(v: Value): Typed {
  if (v === null) return ['None'];
  if (typeof v === 'boolean') return ['bool', v];
  if (typeof v === 'number') return Number.isSafeInteger(v) ? ['int', String(v)] : ['float', pyFloatRepr(v)];
  if (isStr(v)) return ['str', str(v)];
  if (Array.isArray(v)) return ['list', v.map(typed)];
  if (v instanceof PyTuple) return ['tuple', v.items.map(typed)];
  if (v instanceof PyDict) return ['dict', [...v.map].map(([k, x]) => [k, typed(x)])];
  if (v instanceof MatchObject) return ['object', 'Match', v.repr()];
  if (v instanceof PatternObject) return ['object', 'Pattern', v.repr()];
  return ['object', typeof v, pyRepr(v)];
}

/**
 * Differences allowed: an integral float is an int here (the evaluator has one number type: 4.0 is 4); a float may
 * differ from CPython's C library in the last places (4 units), or for erf, erfc, gamma and lgamma, computed here,
 * by 1e-14 relative.
 */
const integralFloats: string[] = [];

function same(expected: Typed, actual: Typed, expression: string): boolean {
  if (expected[0] === 'float' && (actual[0] === 'float' || actual[0] === 'int')) {
    const x = Number(expected[1] === 'nan' ? NaN : expected[1] === 'inf' ? Infinity : expected[1] === '-inf' ? -Infinity : expected[1]);
    const y = Number(actual[0] === 'float' ? (actual[1] === 'nan' ? NaN : actual[1] === 'inf' ? Infinity : actual[1] === '-inf' ? -Infinity : actual[1]) : actual[1]);
    if (Number.isNaN(x)) return Number.isNaN(y);
    const tolerance = /math\.(erfc?|gamma|lgamma)\(/.test(expression) ? 1e-14 : 4 * Number.EPSILON;
    const close = x === y || Math.abs(x - y) <= Math.abs(x) * tolerance;
    if (close && actual[0] === 'int') integralFloats.push(expression);
    return close;
  }
  if (expected[0] === 'object' && expected[1] === 'mappingproxy' && actual[0] === 'dict') {
    return expected[2] === `mappingproxy(${pyRepr(dictOf(actual))})`;
  }
  if (expected[0] !== actual[0]) return false;
  if (expected[0] === 'list' || expected[0] === 'tuple') {
    const a = expected[1] as Typed[];
    const b = actual[1] as Typed[];
    return a.length === b.length && a.every((x, i) => same(x, b[i], expression));
  }
  if (expected[0] === 'dict') {
    const a = expected[1] as [string, Typed][];
    const b = actual[1] as [string, Typed][];
    return a.length === b.length && a.every(([k, x], i) => b[i][0] === k && same(x, b[i][1], expression));
  }
  return JSON.stringify(expected) === JSON.stringify(actual);
}

function dictOf(t: Typed): PyDict {
  const d = new PyDict();
  for (const [k, x] of t[1] as [string, Typed][]) d.map.set(k, x[0] === 'int' ? Number(x[1]) : (x[1] as Value));
  return d;
}

function evaluate(expression: string): { value?: Value; error?: { type: string; message: string } } {
  const rules = model(`import json\nimport re\nimport math\nimport string\n\nraise PolicyViolation(${expression}) if:\n    True\n`);
  assert.deepEqual(rules.syntaxProblems, [], expression);
  try {
    return { value: evaluateExpression(rules) };
  } catch (e) {
    if (!(e instanceof PyError)) throw e;
    return { error: { type: e.pyType, message: e.detail } };
  }
}

describe(`Python ${data.python} json, re, math and string: ${data.cases.length} expressions`, () => {
  for (const c of data.cases) {
    it(c.expression, () => {
      const got = evaluate(c.expression);
      if (c.error) {
        assert.deepEqual(got, { error: c.error });
        return;
      }
      assert.equal(got.error, undefined, JSON.stringify(got.error));
      const actual = typed(got.value!);
      assert.ok(same(c.value!, actual, c.expression), `expected ${JSON.stringify(c.value)}, got ${JSON.stringify(actual)}`);
    });
  }

  it('an integral float shows as an int (the evaluator has one number type): only where Python gives one', () => {
    for (const e of integralFloats) assert.match(e, /^(json|math)\./);
  });
});
