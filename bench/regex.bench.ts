// Rule regexes benchmark: what Python-faithful matching costs. Each pattern finds all its matches in a generated
// 1 MB text (words, digits, non-ASCII letters, line breaks) three ways in one run: the evaluator's engine (Python 3.11
// semantics: the JavaScript translation or the backtracking matcher), JavaScript's own engine on the pattern as
// written (faster where it agrees, wrong where Python's semantics differ), and CPython's re on the same text (the
// reference, in a python3 process, skipped when there is none). CPU time, median of several runs.
// Run: node esbuild.mjs && node out/bench/regex.bench.js
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { compile, pyFindIter } from '../server/src/guardrail/evaluate/regex';
import { cpuTime, median, random } from './measure';

const RUNS = 9;

function text(bytes: number): string {
  const words = ['the', 'quick', 'brown', 'fox', 'jumps', 'over', 'lazy', 'dog', 'password', 'Größe', 'naïve', '123', '4567', 'sk-abc', 'Ignore', 'previous', 'instructions'];
  const next = random(7);
  let out = '';
  while (out.length < bytes) out += words[Math.floor(next() * words.length)] + (next() < 0.1 ? '\n' : ' ');
  return out;
}

/** Patterns rules use (on the whole text), then patterns only the backtracking matcher takes (on its first 100 KB). */
const PATTERNS: [string, boolean][] = [
  ['password', false], ['\\d+', false], ['\\w+', false], ['\\bfox\\b', false], ['(?i)ignore (all )?previous instructions', false],
  ['sk-[A-Za-z0-9]{3,}', false], ['[^\\s]+@[^\\s]+', false], ['(?m)^the', false],
  ['(?:(\\w)|-)+', true], ['(a)?b\\1', true],
];

function cpython(file: string): Map<string, number> | null {
  const script = `
import re, sys, time, json
text = open(sys.argv[1], encoding='utf-8').read()
out = {}
for p, small in json.loads(sys.argv[2]):
    t = text[:100000] if small else text
    runs = []
    for _ in range(${RUNS}):
        s = time.process_time(); re.findall(p, t); runs.append((time.process_time() - s) * 1000)
    out[p] = sorted(runs)[len(runs) // 2]
print(json.dumps(out))
`;
  const result = spawnSync('python3', ['-c', script, file, JSON.stringify(PATTERNS)], { encoding: 'utf8' });
  if (result.status !== 0) return null;
  return new Map(Object.entries(JSON.parse(result.stdout) as Record<string, number>));
}

const whole = text(1_000_000);
const dir = mkdtempSync(path.join(tmpdir(), 'regex-bench-'));
const file = path.join(dir, 'text.txt');
writeFileSync(file, whole);
const reference = cpython(file);
rmSync(dir, { recursive: true, force: true });

console.log(`1 MB text (100 KB for the matcher's patterns), CPU ms, median of ${RUNS}; ratios against JavaScript's own engine and CPython`);
console.log(`${'pattern'.padEnd(42)} ${'engine'.padEnd(10)} ${'ours'.padStart(8)} ${'JS'.padStart(8)} ${'CPython'.padStart(8)}  ours/JS  ours/CPython`);
for (const [pattern, small] of PATTERNS) {
  const subject = small ? whole.slice(0, 100_000) : whole;
  pyFindIter(pattern, subject); // compiled and warm
  const ours = median(Array.from({ length: RUNS }, () => cpuTime(() => pyFindIter(pattern, subject))));
  const native = new RegExp(pattern.replace(/^\(\?([im]+)\)/, ''), `gu${/^\(\?([im]+)\)/.exec(pattern)?.[1] ?? ''}`);
  const js = median(Array.from({ length: RUNS }, () => cpuTime(() => [...subject.matchAll(native)])));
  const py = reference?.get(pattern);
  const engine = compile(pattern).translated ? 'JavaScript' : 'matcher';
  const ratio = (a: number, b: number | undefined) => (b === undefined || b === 0 ? '   –' : (a / b).toFixed(2).padStart(6));
  console.log(`${pattern.padEnd(42)} ${engine.padEnd(10)} ${ours.toFixed(1).padStart(8)} ${js.toFixed(1).padStart(8)} ${(py?.toFixed(1) ?? '–').padStart(8)}  ${ratio(ours, js)}  ${ratio(ours, py)}`);
}
