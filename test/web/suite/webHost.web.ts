import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { activeApi, closeAllEditors, EXTENSION_ID, openFile, waitFor, workspaceFile } from '../../e2e/suite/helpers';

describe('the web-worker extension host', () => {
  after(closeAllEditors);

  it('has no Node: no process, no require, a worker global scope', () => {
    const scope = globalThis as { process?: unknown; require?: unknown; WorkerGlobalScope?: new () => unknown };
    assert.equal(typeof scope.process, 'undefined', 'the tests run where `process` does not exist, not in the Node host');
    assert.equal(typeof scope.WorkerGlobalScope, 'function', 'a web worker');
    assert.ok(globalThis instanceof scope.WorkerGlobalScope!, 'the global scope is a worker\'s');
    assert.equal(vscode.env.uiKind, vscode.UIKind.Web);
  });

  it('reads the workspace\'s trace files through VS Code: a rule\'s code lens lists a violation in a trace that is not open', async () => {
    // First in the suite: no test has opened the trace yet.
    const { document: rule } = await openFile('rules', 'private-mail.gr');
    const trace = workspaceFile('inbox-assistant.trace.json').toString();
    assert.ok(!vscode.workspace.textDocuments.some((document) => document.uri.toString() === trace), 'the trace is not open');
    let seen: string[] = [];
    const lens = await waitFor(async () => {
      const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', rule.uri);
      seen = (lenses ?? []).map((l) => `${l.command?.title} → ${listedUris(l).join(', ')}`);
      return lenses?.find((l) => listedUris(l).includes(trace));
    }, 30_000, 'the rule\'s code lens listing its violation in inbox-assistant.trace.json, read from the workspace').catch((error: Error) => {
      throw new Error(`${error.message}; the lenses: ${seen.join(' | ')}`);
    });
    assert.match(lens.command?.title ?? '', /^[1-9]\d* violations? in [1-9]\d* traces? \(of [1-9]\d* trace files? in the workspace\)/);
  });

  it('runs the extension from its browser entry, where the UI runs', async () => {
    const extension = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(extension, `${EXTENSION_ID} is loaded from the extension development path`);
    assert.equal(typeof extension.packageJSON.browser, 'string', 'package.json has a "browser" entry');
    assert.equal(extension.extensionKind, vscode.ExtensionKind.UI, 'the extension runs where the UI runs (the web worker), not in the workspace\'s Node host');
    const { document } = await openFile('inbox-assistant.trace.json');
    assert.equal(document.languageId, 'agent-trace');
    await activeApi();
    assert.ok(extension.isActive);
  });
});

/** The files a rule's lens reveals locations in (its command's third argument). */
function listedUris(lens: vscode.CodeLens): string[] {
  const locations: unknown = lens.command?.arguments?.[2];
  return Array.isArray(locations) ? locations.map((location: { uri: string }) => location.uri) : [];
}
