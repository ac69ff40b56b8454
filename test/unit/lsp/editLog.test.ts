import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { DocumentModels } from '../../../server/src/lsp/documentModels';
import { documentsRecordingEdits, EditLog } from '../../../server/src/lsp/editLog';
import { traceService, type TraceModel } from '../../../server/src/trace';
import { random } from '../testing';

const limits = () => ({ maxLines: 1000, maxFileSizeMB: 1, folders: [] });
const uri = 'file:///a.trace.json';

describe('edit log', () => {
  it('merges any run of edits (several per version too) into the one change that turns the old text into the new', () => {
    const next = random(7);
    for (let run = 0; run < 300; run++) {
      const log = new EditLog();
      const config = documentsRecordingEdits(log);
      let document = config.create(uri, 'agent-trace', 1, 'abcdefghijklmnopqrstuvwxyz\n0123456789\nABCDEFGHIJ');
      const before = document.getText();
      log.take(uri, undefined, 1);
      const versions = 1 + Math.floor(next() * 4);
      for (let v = 2; v <= versions + 1; v++) {
        // Each change of a version is in the text the ones before it made, as clients send them.
        const shadow = TextDocument.create(uri, 'agent-trace', v, document.getText());
        const changes = [];
        for (let c = 0; c < 1 + Math.floor(next() * 3); c++) {
          const length = shadow.getText().length + 5;
          const [x, y] = [Math.floor(next() * length), Math.floor(next() * length)];
          const a = shadow.positionAt(Math.min(x, y));
          const b = shadow.positionAt(Math.max(x, y));
          const change = { range: { start: a, end: b }, text: ['', 'x', 'yy\n', 'zzz'][Math.floor(next() * 4)] };
          TextDocument.update(shadow, [change], v);
          changes.push(change);
        }
        document = config.update(document, changes, v);
      }
      const after = document.getText();
      const change = log.take(uri, 1, versions + 1);
      assert.ok(change, `run ${run}`);
      assert.equal(after.length - before.length, change.newEnd - change.oldEnd, `run ${run}`);
      assert.equal(before.slice(0, change.start) + after.slice(change.start, change.newEnd) + before.slice(change.oldEnd), after, `run ${run}`);
    }
  });

  it('knows no change across a whole-text replacement, or from a version it did not start at', () => {
    const log = new EditLog();
    const config = documentsRecordingEdits(log);
    let document = config.create(uri, 'agent-trace', 1, '[]');
    document = config.update(document, [{ text: '[ ]' }], 2);
    assert.equal(log.take(uri, 1, 2), undefined);
    document = config.update(document, [{ range: { start: { line: 0, character: 1 }, end: { line: 0, character: 1 } }, text: ' ' }], 3);
    assert.equal(log.take(uri, 1, 3), undefined);
  });

  it('lets the document store build an edited trace from the previous model, equal to a full read', () => {
    const log = new EditLog();
    const config = documentsRecordingEdits(log);
    const models = new DocumentModels(limits, () => undefined, log);
    const text = '[\n  {"role": "user", "content": "hi"},\n  {"role": "tool", "tool_call_id": "c1", "content": "x"}\n]';
    let document = config.create(uri, 'agent-trace', 1, text);
    const first = models.get(document)!.model as TraceModel;
    const moved = first.events[1].value;
    const at = document.positionAt(text.indexOf('hi'));
    document = config.update(document, [{ range: { start: at, end: at }, text: 'oh ' }], 2);
    const second = models.get(document)!.model as TraceModel;
    assert.equal(second.events[1].value, moved, 'the event after the edit is the previous one, moved');
    assert.equal(moved.start, document.getText().indexOf('{"role": "tool"'));
    assert.deepStrictEqual(second.root, traceService.parse({ uri, version: 2, text: document.getText() }).root);
  });
});
