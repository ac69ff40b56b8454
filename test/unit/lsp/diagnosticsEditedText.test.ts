import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Diagnostic } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { defaultSettings } from '../../../server/src/common/languageService';
import { DiagnosticsPipeline, type DiagnosticsHost } from '../../../server/src/lsp/diagnostics';
import { DocumentModels } from '../../../server/src/lsp/documentModels';
import { documentsRecordingEdits, EditLog } from '../../../server/src/lsp/editLog';
import { EditorDocument } from '../../../server/src/lsp/editorDocument';
import { defaultServerSettings } from '../../../server/src/settings';
import { sampleTrace } from '../../../server/src/lsp/warmUp';
import type { TraceLayout } from '../../../server/src/traceFormats';
import { prompt, reply, result, session, toolUse } from '../jsonl/claudeCodeSessions';
import { meta, output, shellCall, user } from '../codex/helpers';

interface EditedCheck {
  /** Whole-text asks (getText() without a range) from the edit, or from the edited version's model on, to the publish. */
  joins: number;
  diagnostics: Diagnostic[];
  layout: TraceLayout | undefined;
  document: EditorDocument;
}

/**
 * Opens `text`, checks it, replaces `[at, at + length)` by `insert` and checks the edited version through the server's
 * pipeline, counting the asks for the whole text. `afterModel`: count only from the edited version's model on (a
 * JSON Lines model holds its text as one string, so its re-read joins an edited text once).
 */
async function checkAfterEdit(uri: string, languageId: string, text: string, at: number, length: number, insert: string, afterModel = false): Promise<EditedCheck> {
  const log = new EditLog();
  const documents = documentsRecordingEdits(log);
  const document = EditorDocument.create(uri, languageId, 1, text, 256);
  let joins = 0;
  let counting = false;
  const getText = document.getText.bind(document);
  document.getText = (range) => {
    if (!range && counting) joins++;
    return getText(range);
  };
  const published: { version: number | undefined; diagnostics: Diagnostic[] }[] = [];
  let onPublish = () => undefined as void;
  let layout: TraceLayout | undefined;
  const models = new class extends DocumentModels {
    override async getInSlices(edited: TextDocument) {
      const parsed = await super.getInSlices(edited);
      if (afterModel && edited.version === 2) counting = true;
      return parsed;
    }
  }(() => ({ maxLines: 1000, maxFileSizeMB: 10, folders: [] }), () => undefined, log);
  const host = {
    documents: { get: () => document, all: () => [document] },
    models,
    preparation: { schedule: () => undefined, cancel: () => undefined },
    rules: {
      checkSafely: async (_document: TextDocument, chosen: TraceLayout) => {
        layout = chosen;
        return undefined;
      },
      results: { hasWorkspaceFile: () => false },
      scheduleWorkspaceCount: () => undefined,
    },
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
  layout = undefined;
  counting = !afterModel;
  done = next();
  documents.update(document, [{ range: { start: document.positionAt(at), end: document.positionAt(at + length) }, text: insert }], 2);
  pipeline.changed(document);
  await done;
  assert.equal(published.at(-1)!.version, 2);
  if (afterModel) assert.ok(counting, 'the edited version\'s model was not read');
  return { joins, diagnostics: published.at(-1)!.diagnostics, layout, document };
}

const layoutName = (layout: TraceLayout | undefined) => (typeof layout === 'object' ? layout.name : layout);

describe('the check of an edited trace', () => {
  // An edited document keeps its text in chunks: joining them costs a copy of the whole text per edit (50 MB in a
  // 50 MB trace), which the check of a trace no rule applies to never needs.
  it('publishes the edited version\'s diagnostics without joining the document\'s text', async () => {
    const text = sampleTrace(40);
    // A role edited into an unknown one, in the middle of the trace: the edited event's problem moves with the text.
    const at = text.indexOf('"role": "user"', text.length / 2) + 9;
    const { joins, diagnostics, layout, document } = await checkAfterEdit('file:///edited.trace.json', 'agent-trace', text, at, 4, 'usr');
    assert.equal(joins, 0, 'the whole text was asked for');
    assert.equal(layout, 'trace');
    const roles = diagnostics.filter((d) => d.code === 'trace/unknown-role');
    assert.equal(roles.length, 1, JSON.stringify(diagnostics.map((d) => d.code)));
    assert.deepEqual(roles[0].range.start, document.positionAt(at - 1));
  });

  // The layout (a session or a rollout converts to events, a dataset does not) comes from the lines the model read.
  it('a Claude Code session: the layout comes from its model, and nothing after the re-read asks for the text', async () => {
    const records = [prompt('u0', 'start')];
    for (let i = 1; i <= 60; i++) {
      records.push(reply(`a${i}`, `m${i}`, toolUse(`toolu_${i}`, 'Read', { file_path: `/p/f${i}.ts` }), { parent: `u${i - 1}` }));
      records.push(result(`u${i}`, `toolu_${i}`, `contents ${i}`, { parent: `a${i}` }));
    }
    const text = session(...records);
    const at = text.indexOf('contents 30');
    const { joins, layout } = await checkAfterEdit('file:///session.jsonl', 'agent-trace-jsonl', text, at, 8, 'edited', true);
    assert.equal(layoutName(layout), 'a Claude Code session');
    assert.equal(joins, 0, 'the whole text was asked for after the re-read');
  });

  it('a Codex rollout: the layout comes from its model, and nothing after the re-read asks for the text', async () => {
    const records = [meta(), user(1, 'start')];
    for (let i = 1; i <= 60; i++) records.push(shellCall(i, `call_${i}`, `cat f${i}.txt`), output(i, `call_${i}`, `contents ${i}`));
    const text = `${records.join('\n')}\n`;
    const at = text.indexOf('contents 30');
    const { joins, layout } = await checkAfterEdit('file:///rollout.jsonl', 'agent-trace-jsonl', text, at, 8, 'edited', true);
    assert.equal(layoutName(layout), 'a Codex rollout');
    assert.equal(joins, 0, 'the whole text was asked for after the re-read');
  });
});
