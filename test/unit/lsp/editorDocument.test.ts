import { describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import { TextDocument, type Position, type Range } from 'vscode-languageserver-textdocument';
import { EditorDocument } from '../../../server/src/lsp/editorDocument';
import { random } from '../testing';
import type { TextSource } from '../../../server/src/common/textSource';

const pieces = ['a', 'bc', ' ', '\n', '\r\n', '\r', '\r\r\n', 'é', '😀', '{"role": "user"}', '\n\n', ''];

/** Every question a request may ask of a document, asked of both. */
function sameAnswers(ours: EditorDocument, theirs: TextDocument, where: string, next: () => number): void {
  const text = theirs.getText();
  // The text as kept (in chunks once edited) is read before getText joins it.
  sameText(ours.source(), text, where, next);
  assert.equal(ours.length, text.length, where);
  assert.equal(ours.lineCount, theirs.lineCount, where);
  for (let offset = -1; offset <= text.length + 1; offset++) assert.deepEqual(ours.positionAt(offset), theirs.positionAt(offset), `${where}: positionAt(${offset})`);
  for (let line = -1; line <= theirs.lineCount; line++) {
    assert.deepEqual(ours.getLineRange(line), theirs.getLineRange(line), `${where}: getLineRange(${line})`);
    assert.equal(ours.getEOLCharacters(line), theirs.getEOLCharacters(line), `${where}: getEOLCharacters(${line})`);
    for (let character = -1; character <= 6; character++) {
      const position = { line, character };
      assert.equal(ours.offsetAt(position), theirs.offsetAt(position), `${where}: offsetAt(${JSON.stringify(position)})`);
    }
  }
  assert.equal(ours.getText(), text, where);
}

/** Every read the services make of a text gives what the string gives. */
function sameText(source: TextSource, text: string, where: string, next: () => number): void {
  assert.equal(source.length, text.length, where);
  for (let i = -1; i <= text.length; i++) {
    assert.equal(source.charCodeAt(i), text.charCodeAt(i), `${where}: charCodeAt(${i})`);
    assert.equal(source.charAt(i), text.charAt(i), `${where}: charAt(${i})`);
  }
  const somewhere = () => Math.floor(next() * (text.length + 4)) - 2;
  for (let i = 0; i < 20; i++) {
    const [a, b] = [somewhere(), somewhere()];
    assert.equal(source.slice(a, b), text.slice(a, b), `${where}: slice(${a}, ${b})`);
    assert.equal(source.slice(a), text.slice(a), `${where}: slice(${a})`);
    assert.equal(source.substring(a, b), text.substring(a, b), `${where}: substring(${a}, ${b})`);
    const needle = next() < 0.5 ? pieces[Math.floor(next() * pieces.length)] : text.slice(Math.max(0, a), Math.max(0, a) + 1 + Math.floor(next() * 4));
    assert.equal(source.indexOf(needle, a), text.indexOf(needle, a), `${where}: indexOf(${JSON.stringify(needle)}, ${a})`);
  }
  assert.equal(source.toString(), text, `${where}: toString()`);
}

function randomText(next: () => number, count: number): string {
  let text = '';
  for (let i = 0; i < count; i++) text += pieces[Math.floor(next() * pieces.length)];
  return text;
}

function randomPosition(next: () => number, document: TextDocument): Position {
  // Past the last line and past line ends too, as a client may send them.
  return { line: Math.floor(next() * (document.lineCount + 1)), character: Math.floor(next() * 8) };
}

describe('the editor document kept by the server', () => {
  it('answers every position, offset and line question as vscode-languageserver-textdocument does, through thousands of random edits', () => {
    for (let seed = 1; seed <= 40; seed++) {
      const next = random(seed);
      const initial = randomText(next, 30);
      // Chunks of a few characters put chunk edges everywhere an edit or a read can fall.
      const chunkLength = [1, 2, 5, 16, undefined][seed % 5];
      const ours = EditorDocument.create('file:///a.trace.json', 'agent-trace', 1, initial, chunkLength);
      let theirs = TextDocument.create('file:///a.trace.json', 'agent-trace', 1, initial);
      sameAnswers(ours, theirs, `seed ${seed}, created`, next);
      for (let step = 2; step <= 60; step++) {
        // Line starts are sometimes asked for before an edit (kept up to date in place) and sometimes not (counted anew).
        if (next() < 0.5) ours.positionAt(0);
        const range: Range = { start: randomPosition(next, theirs), end: randomPosition(next, theirs) };
        const change = next() < 0.05 ? { text: randomText(next, 10) } : { range, text: randomText(next, Math.floor(next() * 4)) };
        EditorDocument.update(ours, [change], step);
        theirs = TextDocument.update(theirs, [change], step);
        assert.equal(ours.version, step);
        sameAnswers(ours, theirs, `seed ${seed}, step ${step}, ${JSON.stringify(change)}`, next);
      }
    }
  });

  it('applies several changes of one notification in order', () => {
    const ours = EditorDocument.create('file:///b.gr', 'guardrail', 1, 'a\nb\r\nc');
    const changes = [
      { range: { start: { line: 1, character: 0 }, end: { line: 1, character: 1 } }, text: 'x\ny' },
      { range: { start: { line: 0, character: 1 }, end: { line: 1, character: 0 } }, text: '' },
    ];
    EditorDocument.update(ours, changes, 2);
    assert.equal(ours.getText(), TextDocument.update(TextDocument.create('file:///b.gr', 'guardrail', 1, 'a\nb\r\nc'), changes, 2).getText());
    assert.equal(ours.getText(), 'ax\ny\r\nc');
    assert.deepEqual(ours.positionAt(4), { line: 1, character: 1 });
  });
});
