import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { LineIndex } from '../../../server/src/common/lineIndex';

const text = '[\n  {"role": "user"},\n\n  {"role": "tool", "content": "ünï"}\n]';

describe('positions of a file read from disk (a line index)', () => {
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
});
