import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { defaultSettings } from '../../../server/src/common/languageService';
import { DiagnosticsPipeline, type DiagnosticsHost } from '../../../server/src/lsp/diagnostics';
import { DocumentModels } from '../../../server/src/lsp/documentModels';
import { EditorDocument } from '../../../server/src/lsp/editorDocument';
import { defaultServerSettings } from '../../../server/src/settings';
import { sampleTrace } from '../../../server/src/lsp/warmUp';

/**
 * Opens a trace in the server's pipeline and says, in order, when its diagnostics were written (the JSON-RPC library
 * writes them from a turn after the publish, as modelled here) and when its tools were counted for the workspace's
 * tool index. `closedAtPublish`: the document is closed as its diagnostics are published.
 */
async function openAndWatch(closedAtPublish = false): Promise<string[]> {
  const document = EditorDocument.create('file:///tools.trace.json', 'agent-trace', 1, sampleTrace(10), 256);
  let open = true;
  const events: string[] = [];
  let written = () => undefined as void;
  const done = new Promise<void>((resolve) => (written = resolve));
  const host = {
    documents: { get: () => (open ? document : undefined), all: () => (open ? [document] : []) },
    models: new DocumentModels(() => ({ maxLines: 1000, maxFileSizeMB: 10, folders: [] }), () => undefined),
    preparation: { schedule: () => undefined, cancel: () => undefined },
    rules: { checkSafely: async () => undefined, results: { hasWorkspaceFile: () => false }, scheduleWorkspaceCount: () => undefined },
    toolIndex: { update: (uri: string) => events.push(`tools of ${uri}`) },
    settings: () => ({ ...defaultServerSettings, validationDelay: 0 }),
    context: () => ({ settings: defaultSettings }),
    publish: () => {
      setImmediate(() => {
        events.push('diagnostics written');
        // Two turns later the tools, when counted at all, have been counted.
        setImmediate(() => setImmediate(written));
      });
      if (closedAtPublish) open = false;
    },
    modelChanged: () => undefined,
    logFailure: (feature: string, _uri: string, _version: number | undefined, error: unknown) => assert.fail(`${feature}: ${String(error)}`),
  } as unknown as DiagnosticsHost;
  new DiagnosticsPipeline(host).opened(document);
  await done;
  return events;
}

describe('the tool index after a check', () => {
  it('counts a checked trace\'s tools once its diagnostics are written', async () => {
    assert.deepEqual(await openAndWatch(), ['diagnostics written', 'tools of file:///tools.trace.json']);
  });

  it('leaves out a trace closed before its tools were counted (the close took them out of the index)', async () => {
    assert.deepEqual(await openAndWatch(true), ['diagnostics written']);
  });
});
