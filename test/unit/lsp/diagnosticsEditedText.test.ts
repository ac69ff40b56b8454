import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Diagnostic } from 'vscode-languageserver';
import { defaultSettings } from '../../../server/src/common/languageService';
import { DiagnosticsPipeline, type DiagnosticsHost } from '../../../server/src/lsp/diagnostics';
import { DocumentModels } from '../../../server/src/lsp/documentModels';
import { documentsRecordingEdits, EditLog } from '../../../server/src/lsp/editLog';
import { EditorDocument } from '../../../server/src/lsp/editorDocument';
import { defaultServerSettings } from '../../../server/src/settings';
import { sampleTrace } from '../../../server/src/lsp/warmUp';

describe('the check of an edited trace', () => {
  // An edited document keeps its text in chunks: joining them costs a copy of the whole text per edit (50 MB in a
  // 50 MB trace), which the check of a trace no rule applies to never needs.
  it('publishes the edited version\'s diagnostics without joining the document\'s text', async () => {
    const log = new EditLog();
    const documents = documentsRecordingEdits(log);
    const text = sampleTrace(40);
    const document = EditorDocument.create('file:///edited.trace.json', 'agent-trace', 1, text, 256);
    let joins = 0;
    const getText = document.getText.bind(document);
    document.getText = (range) => {
      if (!range) joins++;
      return getText(range);
    };
    const published: { version: number | undefined; diagnostics: Diagnostic[] }[] = [];
    let onPublish = () => undefined as void;
    const models = new DocumentModels(() => ({ maxLines: 1000, maxFileSizeMB: 10, folders: [] }), () => undefined, log);
    const host = {
      documents: { get: () => document, all: () => [document] },
      models,
      preparation: { schedule: () => undefined, cancel: () => undefined },
      rules: { checkSafely: async () => undefined, results: { hasWorkspaceFile: () => false }, scheduleWorkspaceCount: () => undefined },
      toolIndex: { update: () => undefined },
      settings: () => ({ ...defaultServerSettings, validationDelay: 0 }),
      context: () => ({ settings: defaultSettings }),
      publish: (_uri: string, version: number | undefined, diagnostics: Diagnostic[]) => {
        published.push({ version, diagnostics });
        onPublish();
      },
      modelChanged: () => undefined,
      logFailure: (feature: string, _uri: string, _version: number | undefined, error: unknown) => assert.fail(`${feature}: ${String(error)}`),
    } as unknown as DiagnosticsHost;
    const pipeline = new DiagnosticsPipeline(host);
    const next = () => new Promise<void>((resolve) => (onPublish = resolve));

    let done = next();
    pipeline.opened(document);
    await done;
    assert.equal(document.lineCount > 100, true);
    // A role edited into an unknown one, in the middle of the trace: the edited event's problem moves with the text.
    const at = text.indexOf('"role": "user"', text.length / 2) + 9;
    joins = 0;
    done = next();
    documents.update(document, [{ range: { start: document.positionAt(at), end: document.positionAt(at + 4) }, text: 'usr' }], 2);
    pipeline.changed(document);
    await done;
    assert.equal(joins, 0, 'the whole text was asked for');
    assert.equal(published.at(-1)!.version, 2);
    const roles = published.at(-1)!.diagnostics.filter((d) => d.code === 'trace/unknown-role');
    assert.equal(roles.length, 1, JSON.stringify(published.at(-1)!.diagnostics.map((d) => d.code)));
    assert.deepEqual(roles[0].range.start, document.positionAt(at - 1));
  });
});
