import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { IncomingBytes } from '../../../server/src/transport/connection';

describe('telling a big message part way in over stdio', () => {
  it('is arriving once more than 64 KB are read and not decoded, and no longer once its body is decoded', () => {
    const incoming = new IncomingBytes();
    assert.equal(incoming.arriving(), false);
    incoming.read(64 * 1024);
    assert.equal(incoming.arriving(), false, '64 KB: one pipe read');
    incoming.read(1);
    assert.equal(incoming.arriving(), true);
    incoming.read(13 * 2 ** 20);
    assert.equal(incoming.arriving(), true);
    incoming.decoded(64 * 1024 + 1 + 13 * 2 ** 20 - 40);
    assert.equal(incoming.arriving(), false);
  });

  it('does not count up the headers of many small messages into a big one', () => {
    const incoming = new IncomingBytes();
    for (let i = 0; i < 10_000; i++) {
      incoming.read(`Content-Length: ${200 + i}\r\n\r\n`.length + 200 + i);
      incoming.decoded(200 + i);
    }
    assert.equal(incoming.arriving(), false);
  });

  it('keeps a big message that follows a small one in the same read', () => {
    const incoming = new IncomingBytes();
    incoming.read(30 + 100 + 30 + 200 * 1024);
    incoming.decoded(100);
    assert.equal(incoming.arriving(), true);
  });
});
