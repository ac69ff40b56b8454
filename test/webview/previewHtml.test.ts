/** The preview page's HTML and its Content Security Policy. */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, test } from 'node:test';
import { createNonce, previewContentSecurityPolicy, previewHtml } from '../../client/src/previewHtml';

const options = {
  cspSource: 'https://file+.vscode-resource.vscode-cdn.net',
  nonce: 'n0nce-abcdefghijklmnop',
  scriptUri: 'https://file+.vscode-resource.vscode-cdn.net/ext/dist/media/preview.js',
  styleUri: 'https://file+.vscode-resource.vscode-cdn.net/ext/dist/media/preview.css',
};

describe('previewHtml', () => {
  test('the policy allows nothing remote, no inline code or style, and scripts only by nonce', () => {
    assert.equal(
      previewContentSecurityPolicy(options.cspSource, options.nonce),
      "default-src 'none'; script-src 'nonce-n0nce-abcdefghijklmnop'; " +
        'style-src https://file+.vscode-resource.vscode-cdn.net; ' +
        'img-src https://file+.vscode-resource.vscode-cdn.net data:; ' +
        'font-src https://file+.vscode-resource.vscode-cdn.net',
    );
  });

  test('the page carries the policy, one nonce script and one style sheet, and nothing inline', () => {
    const html = previewHtml(options);
    const csp = html.match(/<meta http-equiv="Content-Security-Policy" content="([^"]*)">/);
    assert.equal(csp?.[1], previewContentSecurityPolicy(options.cspSource, options.nonce).replace(/'/g, '&#39;'));
    assert.deepEqual(html.match(/<script[^>]*>/g), [`<script nonce="${options.nonce}" src="${options.scriptUri}">`]);
    assert.deepEqual(html.match(/<link[^>]*>/g), [`<link rel="stylesheet" href="${options.styleUri}">`]);
    assert.doesNotMatch(html, /unsafe-inline|unsafe-eval|<style|style=| on[a-z]+=/);
    assert.ok(html.indexOf('Content-Security-Policy') < html.indexOf('<link'), 'the policy comes before anything it governs');
  });

  test("VS Code's own source lists are accepted as they are", () => {
    for (const cspSource of ["'self' https://*.vscode-cdn.net", 'https://file+.vscode-resource.vscode-cdn.net', 'vscode-webview:', 'file:']) {
      assert.equal(
        previewContentSecurityPolicy(cspSource, options.nonce),
        `default-src 'none'; script-src 'nonce-${options.nonce}'; style-src ${cspSource}; img-src ${cspSource} data:; font-src ${cspSource}`,
      );
    }
  });

  test('attribute values are escaped, and a nonce or source that would break the policy is refused', () => {
    const html = previewHtml({ ...options, scriptUri: 'https://x/"><script>alert(1)</script>' });
    assert.ok(html.includes('src="https://x/&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"'));
    assert.throws(() => previewHtml({ ...options, nonce: "abc' 'unsafe-inline" }), /nonce/);
    assert.throws(() => previewHtml({ ...options, nonce: 'short' }), /nonce/);
    assert.throws(() => previewHtml({ ...options, cspSource: "https://x; script-src 'unsafe-inline'" }), /cspSource/);
    assert.throws(() => previewHtml({ ...options, cspSource: "'unsafe-inline'" }), /cspSource/);
    assert.throws(() => previewHtml({ ...options, cspSource: 'https://x" onload="alert(1)' }), /cspSource/);
    assert.throws(() => previewHtml({ ...options, cspSource: '' }), /cspSource/);
  });

  test('nonces are 32 base64url characters and differ each time', () => {
    const first = createNonce((size) => randomBytes(size));
    const second = createNonce((size) => randomBytes(size));
    assert.match(first, /^[A-Za-z0-9_-]{32}$/);
    assert.notEqual(first, second);
    assert.doesNotThrow(() => previewHtml({ ...options, nonce: first }));
  });
});
