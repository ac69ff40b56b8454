import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { repoRoot } from '../guardrail/helpers';
import { layeringProblems, readLayers, readSources, specifiersOf, type SourceFile } from './imports';

/*
 * ARCHITECTURE.md draws the layers of server/src in a table; this test holds the imports to it. A failure names
 * the import that breaks a rule: move the file, turn the dependency around (a host interface, a member handed to
 * a dispatcher), or, for a new folder, add its row to the table.
 */
const layers = readLayers(readFileSync(path.join(repoRoot(), 'ARCHITECTURE.md'), 'utf8'));

describe('the layers of server/src', () => {
  it('ARCHITECTURE.md draws five layers', () => {
    assert.deepEqual([...new Set(layers.layerOf.values())].sort(), [1, 2, 3, 4, 5]);
    assert.equal(layers.layerOf.get('server.ts'), 1);
    assert.equal(layers.layerOf.get('lsp/'), 2);
  });

  it('every import of server/src keeps them', () => {
    const sources = readSources(path.join(repoRoot(), 'server', 'src'));
    assert.ok(sources.length > 100, `read ${sources.length} source files`);
    assert.deepEqual(layeringProblems(sources, layers), []);
  });
});

describe('the layering check', () => {
  // A small drawing and a tree that keeps its rules; each case below breaks one.
  const drawing = readLayers([
    '| Layer | Parts | Its one rule |',
    '| --- | --- | --- |',
    '| 1. Entry points | `server.ts`, `cli.ts` | … |',
    '| 2. Hosts | `lsp/`, `transport/`, `cli/` | … |',
    '| 3. Workspace | `rulesOnTraces/`, `diff/`, `languages.ts`, `settings.ts` | … |',
    '| 4. Language services | `guardrail/`, `jsonl/`, `trace/`, `preview/` | … |',
    '| 5. Foundations | `common/`, `json/`, `disk/` | … |',
  ].join('\n'));
  const tree = (extra: Record<string, string[]> = {}): SourceFile[] => Object.entries({
    'server.ts': ['./lsp/handlers', 'vscode-languageserver/node', './settings'],
    'cli.ts': ['./cli/check'],
    'settings.ts': ['./common/types'],
    'languages.ts': ['./trace'],
    'lsp/handlers.ts': ['vscode-languageserver/node', '../transport/connection', '../languages', './toProtocol'],
    'lsp/toProtocol.ts': ['vscode-languageserver-textdocument', '../common/types'],
    'transport/connection.ts': ['vscode-languageserver/node'],
    'cli/check.ts': ['../languages', '../disk/files', 'node:fs'],
    'rulesOnTraces/evaluate.ts': ['../guardrail', '../trace/model'],
    'diff/diff.ts': ['../languages'],
    'guardrail/index.ts': ['../jsonl', '../common/types'],
    'guardrail/evaluate/interpreter.ts': ['./enumerate'],
    'guardrail/evaluate/enumerate.ts': ['./interpreter'],
    'jsonl/index.ts': ['./dataset/hover', './lines'],
    'jsonl/lines.ts': ['../json/nodes'],
    'jsonl/dataset/hover.ts': ['../lines', '../../trace/model'],
    'trace/index.ts': ['./model'],
    'trace/model.ts': ['../json/nodes', '../preview/layout', '../../../shared/protocol'],
    'preview/layout.ts': ['../common/types'],
    'common/types.ts': [],
    'json/nodes.ts': ['../common/types'],
    'disk/files.ts': ['node:fs', '../common/types'],
    ...extra,
  }).map(([file, specifiers]) => ({ path: file, specifiers }));
  const problems = (extra: Record<string, string[]>) => layeringProblems(tree(extra), drawing);

  it('finds nothing in a tree that keeps the rules', () => {
    assert.deepEqual(layeringProblems(tree(), drawing), []);
  });

  it('fails when a service folder imports the LSP layer or vscode-languageserver', () => {
    assert.deepEqual(problems({ 'trace/hover.ts': ['../lsp/toProtocol'] }), [
      'trace/hover.ts (layer 4) imports lsp/toProtocol.ts (layer 2): an arrow running back up',
      'trace/hover.ts imports lsp/toProtocol.ts: only lsp/, transport/ and server.ts may import the LSP layer',
      'the parts languages.ts, lsp/, trace/ import each other in a circle',
    ]);
    assert.deepEqual(problems({ 'jsonl/model.ts': ['vscode-languageserver-textdocument'] }), [
      'jsonl/model.ts imports vscode-languageserver-textdocument: only lsp/, transport/ and server.ts speak LSP',
    ]);
    assert.deepEqual(problems({ 'cli/eval.ts': ['../lsp/toProtocol'] }), [
      'cli/eval.ts imports lsp/toProtocol.ts: only lsp/, transport/ and server.ts may import the LSP layer',
    ]);
  });

  it('fails when the parts import each other in a circle, even within a layer', () => {
    assert.deepEqual(problems({ 'trace/model.ts': ['../jsonl/lines'] }), ['the parts jsonl/, trace/ import each other in a circle']);
  });

  it('fails on a circle of files inside a folder other than the evaluator recursion', () => {
    assert.deepEqual(problems({ 'cli/fix.ts': ['./check'], 'cli/check.ts': ['./fix'] }), [
      'the files cli/check.ts, cli/fix.ts import each other in a circle',
    ]);
  });

  it('fails when a language service reads the disk', () => {
    assert.deepEqual(problems({ 'guardrail/python.ts': ['node:fs'] }), ['guardrail/python.ts imports node:fs: a language service reads no disk']);
  });

  it('fails when a shared file of the JSON Lines family imports a member, or a member the dispatcher', () => {
    assert.deepEqual(problems({ 'jsonl/locate.ts': ['./dataset/hover'] }), [
      'jsonl/locate.ts imports jsonl/dataset/hover.ts: only the dispatcher (jsonl/index.ts) imports a member of the family',
    ]);
    assert.deepEqual(problems({ 'jsonl/dataset/graph.ts': ['..'] }), ['jsonl/dataset/graph.ts imports the dispatcher jsonl/index.ts: a member never does']);
    assert.deepEqual(problems({ 'jsonl/agentguard/hover.ts': ['../dataset/hover'] }), [
      'jsonl/agentguard/hover.ts imports jsonl/dataset/hover.ts: one member of the family never imports another',
    ]);
  });

  it('fails on a part missing from the table or a part of the table missing, and on too many loose files', () => {
    assert.deepEqual(problems({ 'formats/claude.ts': [] }), ['server/src/formats/ is in no layer: add it to the table of ARCHITECTURE.md']);
    assert.deepEqual(layeringProblems(tree().filter((file) => !file.path.startsWith('diff/')), drawing), [
      'ARCHITECTURE.md names server/src/diff/, which does not exist',
    ]);
    const loose = Object.fromEntries(['a.ts', 'b.ts', 'c.ts', 'd.ts'].map((file) => [file, []]));
    assert.match(problems(loose).join('\n'), /8 files lie directly in server\/src .*: at most 5/);
  });

  it('reads the imports, exports, dynamic imports and requires of a file', () => {
    const text = [
      "import type { A } from './a';",
      'import {',
      '  B,',
      "} from '../b';",
      "export { C } from './c';",
      "import './d';",
      "type E = typeof import('./e');",
      "const f = require('./f') as F;",
      "const text = 'not an import';",
    ].join('\n');
    assert.deepEqual(specifiersOf(text), ['./a', '../b', './c', './d', './e', './f']);
  });
});
