import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { ServerProcess } from './lspClient';

/** A workspace with a Python helper module under `src/`, named in agentTraces.guardrails.pythonPaths. */
const root = mkdtempSync(join(tmpdir(), 'agent-traces-python-'));
const checkerPath = join(root, 'src', 'custom_checker_project', 'checker.py');
const checker = 'import re\n\n\ndef is_safe(text: str) -> bool:\n    """Whether the text is safe."""\n    return re.search("hello", text) is None\n';
const rulesUri = pathToFileURL(join(root, 'policy.gr')).toString();
const rules = 'from custom_checker_project.checker import is_safe, missing\n\nraise "unsafe" if:\n    (m: Message)\n    not is_safe(m.content)\n    missing(m.content)\n';

describe('imports of Python modules found through agentTraces.guardrails.pythonPaths', () => {
  const server = new ServerProcess({ guardrails: { pythonPaths: ['src'] } });

  before(async () => {
    mkdirSync(join(root, 'src', 'custom_checker_project'), { recursive: true });
    writeFileSync(checkerPath, checker);
    await server.initialize(pathToFileURL(root).toString());
    await server.configured;
    server.open(rulesUri, 'guardrail', rules);
  });

  after(async () => {
    assert.equal(await server.shutdown(), 0);
    rmSync(root, { recursive: true, force: true });
  });

  it('warns only about the name the module file lacks', async () => {
    const diagnostics = await server.diagnosticsFor(rulesUri, 1);
    assert.deepEqual(diagnostics.map((d) => `${d.code} ${d.range.start.line}:${d.range.start.character}-${d.range.end.line}:${d.range.end.character}`), [
      'gr/unknown-import 0:52-0:59',
    ]);
  });

  it('goes to the def in the Python file and shows its signature and docstring on hover', async () => {
    const position = { line: 4, character: 10 };
    const links = await server.connection.sendRequest('textDocument/definition', { textDocument: { uri: rulesUri }, position }) as any[];
    assert.deepEqual(links.map((l) => [l.targetUri, l.targetSelectionRange]), [
      [pathToFileURL(checkerPath).toString(), { start: { line: 3, character: 4 }, end: { line: 3, character: 11 } }],
    ]);
    const hover = await server.connection.sendRequest('textDocument/hover', { textDocument: { uri: rulesUri }, position }) as any;
    assert.match(hover.contents.value, /```python\ndef is_safe\(text: str\) -> bool\n```\n\n```text\nWhether the text is safe.\n```/);
  });

  it('checks the rule file again when a Python file changes on disk', async () => {
    writeFileSync(checkerPath, `${checker}\n\ndef missing(): pass\n`);
    const next = server.nextDiagnostics(rulesUri);
    await server.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: pathToFileURL(checkerPath).toString(), type: 2 }] });
    assert.deepEqual(await next, []);
  });
});
