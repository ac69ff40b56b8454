import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { corpusDir, loadGrammar, stackDepth, tokenizeLines } from './tokenize';

/** Lines that start a top-level statement (nothing before them may still be open) and the scopes of their first token. */
const TOP_LEVEL_STATEMENTS: Array<[RegExp, string[]]> = [
  [/^raise\b/, ['keyword.control.flow.guardrail']],
  [/^(?:from|import)\b/, ['keyword.control.import.guardrail']],
  [/^def\b/, ['storage.type.function.guardrail']],
  [/^[A-Za-z_]\w*\s*:=/, ['variable.other.declaration.guardrail']],
  [/^[A-Za-z_]\w*\([^()]*\)\s*:=/, ['meta.function.predicate.guardrail', 'entity.name.function.guardrail']],
];

function checkCorpusDirectory(kind: 'valid' | 'invalid') {
  const dir = path.join(corpusDir, 'guardrails', kind);
  test(`guardrail grammar on every ${kind} corpus rule file: no state leaks between statements`, async (t) => {
    if (!fs.existsSync(dir)) {
      if (process.env.CI) assert.fail(`corpus not found at ${dir}`);
      t.skip(`corpus not found at ${dir}`);
      return;
    }
    const grammar = await loadGrammar('source.guardrail');
    const files = fs.readdirSync(dir).filter((name) => name.endsWith('.gr')).sort();
    assert.ok(files.length > 0, `no .gr files in ${dir}`);
    let statements = 0;
    for (const name of files) {
      const lines = tokenizeLines(grammar, fs.readFileSync(path.join(dir, name), 'utf8'));
      lines.forEach((line, index) => {
        const where = `${kind}/${name}:${index + 1}`;
        if (kind === 'valid') {
          for (const token of line.tokens) {
            assert.ok(!token.scopes.some((scope) => scope.startsWith('invalid.')), `${where}: ${JSON.stringify(token.text)} is ${token.scopes.join(' ')}`);
          }
        }
        const statement = TOP_LEVEL_STATEMENTS.find(([pattern]) => pattern.test(line.line));
        if (!statement) return;
        statements++;
        const before = index === 0 ? 1 : stackDepth(lines[index - 1].endState);
        assert.equal(before, 1, `${where}: the previous line left the rule stack open`);
        assert.deepEqual(line.tokens[0].scopes, ['source.guardrail', ...statement[1]], `${where}: first token ${JSON.stringify(line.tokens[0].text)}`);
      });
      assert.equal(stackDepth(lines[lines.length - 1].endState), 1, `${kind}/${name}: the file ends inside an open rule`);
    }
    assert.ok(statements >= files.length, `only ${statements} top-level statements found in ${files.length} files`);
  });
}

// Valid files: no token may be marked invalid. Rejected files (half-written rules, templates) must not leak state either.
checkCorpusDirectory('valid');
checkCorpusDirectory('invalid');
