import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { closeAllEditors, diagnosticCode, openFile, waitFor } from './helpers';

// Runs only in the workbench that keeps Workspace Trust on, on a folder never trusted (run.mjs), whose
// .vscode/settings.json sets agentTraces.guardrails.policies and agentTraces.guardrails.pythonPaths (restricted) and
// agentTraces.guardrails.severity (not restricted).
describe('an untrusted workspace (Restricted Mode)', () => {
  after(closeAllEditors);

  it('runs the extension in Restricted Mode without the workspace\'s values of the restricted settings', () => {
    assert.equal(vscode.workspace.isTrusted, false, 'the workspace is untrusted');
    const guardrails = vscode.workspace.getConfiguration('agentTraces.guardrails');
    assert.equal(guardrails.get('severity'), 'information', 'the workspace\'s settings file is read (a setting that is not restricted)');
    assert.deepEqual(guardrails.get('policies'), [], 'the workspace\'s policies are not given to the extension');
    assert.deepEqual(guardrails.get('pythonPaths'), [], 'nor its Python module folders');
  });

  it('checks a trace and a rule beside it, but evaluates the rule only once the user asks (its code lens)', async () => {
    const { document: trace } = await openFile('inbox-assistant.trace.json');
    const rule = await vscode.workspace.openTextDocument(vscode.Uri.joinPath(trace.uri, '..', 'rules', 'private-mail.gr'));
    await vscode.window.showTextDocument(rule, { preview: false, viewColumn: vscode.ViewColumn.Beside });

    const notice = await waitFor(
      () => vscode.languages.getDiagnostics(trace.uri).find((d) => diagnosticCode(d) === 'guardrails/restricted-mode'),
      30_000, 'the Restricted Mode notice on inbox-assistant.trace.json',
    );
    assert.equal(notice.severity, vscode.DiagnosticSeverity.Information);
    assert.match(notice.message, /^The rule file private-mail\.gr applies to this trace but, in Restricted Mode, rules are evaluated only when you ask/);
    assert.deepEqual(vscode.languages.getDiagnostics(trace.uri).filter((d) => d.source === 'guardrails'), [], 'no violation before the user asks');

    const lens = await waitFor(async () => {
      const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', rule.uri);
      return lenses?.find((l) => l.command?.title.startsWith('Restricted Mode'));
    }, 30_000, 'the Restricted Mode code lens of private-mail.gr');
    assert.equal(lens.command?.title, 'Restricted Mode: rules run only when you ask · Evaluate on the open traces');
    assert.equal(lens.command?.command, 'agentTraces.evaluateRules');

    // What a click on the lens runs.
    await vscode.commands.executeCommand(lens.command!.command, ...(lens.command!.arguments ?? []));
    const violation = await waitFor(
      () => vscode.languages.getDiagnostics(trace.uri).find((d) => d.source === 'guardrails'),
      30_000, 'the violation once the rule was asked for',
    );
    assert.equal(diagnosticCode(violation), 'guardrails/private-mail.gr:2');
    await waitFor(
      () => !vscode.languages.getDiagnostics(trace.uri).some((d) => diagnosticCode(d) === 'guardrails/restricted-mode'),
      30_000, 'no Restricted Mode notice once the only rule file that applies was asked for',
    );
  });
});
