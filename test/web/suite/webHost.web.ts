import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { activeApi, closeAllEditors, EXTENSION_ID, openFile } from '../../e2e/suite/helpers';

describe('the web-worker extension host', () => {
  after(closeAllEditors);

  it('has no Node: no process, no require, a worker global scope', () => {
    const scope = globalThis as { process?: unknown; require?: unknown; WorkerGlobalScope?: new () => unknown };
    assert.equal(typeof scope.process, 'undefined', 'the tests run where `process` does not exist, not in the Node host');
    assert.equal(typeof scope.WorkerGlobalScope, 'function', 'a web worker');
    assert.ok(globalThis instanceof scope.WorkerGlobalScope!, 'the global scope is a worker\'s');
    assert.equal(vscode.env.uiKind, vscode.UIKind.Web);
  });

  it('activates the extension from its browser entry on a trace', async () => {
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
