import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { LineIndex } from '../../../server/src/common/lineIndex';
import { documentView } from '../../../server/src/documentView';
import type { ParsedDocument } from '../../../server/src/documentModels';

const text = '[\n  {"role": "user"},\n\n  {"role": "tool", "content": "ünï"}\n]';

function parsedWith(positions: ParsedDocument['positions']): ParsedDocument {
  return { uri: 'file:///a.trace.json', version: 1, languageId: 'agent-trace', service: undefined!, model: undefined, positions, limits: { maxLines: 0 } };
}

describe('positions of a big document read in slices', () => {
  it('the line index converts every offset and position as the editor document does, past line ends too', () => {
    const document = TextDocument.create('file:///a.trace.json', 'agent-trace', 1, text);
    const index = new LineIndex(text);
    for (let offset = -1; offset <= text.length + 1; offset++) assert.deepEqual(index.positionAt(offset), document.positionAt(offset), `offset ${offset}`);
    for (let line = -1; line <= document.lineCount; line++) {
      for (let character = -1; character <= 40; character++) {
        const position = { line, character };
        assert.equal(index.offsetAt(position), document.offsetAt(position), `${line}:${character}`);
      }
    }
    assert.equal(index.lineCount, document.lineCount);
  });

  it('requests see the editor document with the line index: same text, ranges and positions', () => {
    const document = TextDocument.create('file:///a.trace.json', 'agent-trace', 1, text);
    const view = documentView(document, parsedWith(new LineIndex(text)));
    assert.notEqual(view, document);
    assert.equal(view.uri, document.uri);
    assert.equal(view.version, 1);
    assert.equal(view.getText(), text);
    const range = { start: { line: 1, character: 3 }, end: { line: 3, character: 99 } };
    assert.equal(view.getText(range), document.getText(range));
    assert.deepEqual(view.positionAt(30), document.positionAt(30));
    for (let line = 0; line < document.lineCount; line++) assert.deepEqual(view.getLineRange(line), document.getLineRange(line), `line ${line}`);
  });

  it('a document read at once, or edited since, is used as it is', () => {
    const document = TextDocument.create('file:///a.trace.json', 'agent-trace', 1, text);
    assert.equal(documentView(document, parsedWith(document)), document);
    assert.equal(documentView(document, parsedWith(new LineIndex(`${text} `))), document);
  });
});
