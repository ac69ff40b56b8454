/**
 * The preview webview's HTML. Pure (no vscode import) so that the Chromium tests load exactly what VS Code loads,
 * under the same Content Security Policy.
 */

export interface PreviewHtmlOptions {
  /** `webview.cspSource`: the origin the webview may load its own script, style, images and fonts from. */
  cspSource: string;
  /** A fresh random value per page load; the only way a script may run. */
  nonce: string;
  scriptUri: string;
  styleUri: string;
  /** What the page shows: one trace's graph (the default), or two traces compared step by step. */
  view?: 'graph' | 'compare';
}

const NONCE_PATTERN = /^[A-Za-z0-9+/=_-]{16,}$/;

function escapeAttribute(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;');
}

/** One source expression: a quoted keyword such as 'self', a scheme (`https:`) or a host source (`https://*.vscode-cdn.net`). */
const SOURCE_EXPRESSION = /^(?:'self'|[a-z][a-z0-9+.-]*:|(?:[a-z][a-z0-9+.-]*:\/\/)?[a-z0-9*_.+-]+(?::(?:\d+|\*))?(?:\/[^\s;,'"<>]*)?)$/i;

/**
 * `webview.cspSource` is a source list (VS Code gives e.g. `'self' https://*.vscode-cdn.net`). Anything that would
 * end the directive, widen it to inline code, or leave the attribute is refused.
 */
function checkCspSource(cspSource: string): string {
  const sources = cspSource.trim().split(/\s+/);
  if (!cspSource.trim() || !sources.every((source) => SOURCE_EXPRESSION.test(source))) {
    throw new Error(`invalid cspSource: ${JSON.stringify(cspSource)}`);
  }
  return sources.join(' ');
}

export function previewContentSecurityPolicy(cspSource: string, nonce: string): string {
  const source = checkCspSource(cspSource);
  return [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src ${source}`,
    `img-src ${source} data:`,
    `font-src ${source}`,
  ].join('; ');
}

export function previewHtml({ cspSource, nonce, scriptUri, styleUri, view = 'graph' }: PreviewHtmlOptions): string {
  if (!NONCE_PATTERN.test(nonce)) throw new Error('the nonce must be at least 16 characters of base64');
  const csp = previewContentSecurityPolicy(cspSource, nonce);
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${escapeAttribute(csp)}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${escapeAttribute(styleUri)}">
<title>${view === 'compare' ? 'Compare Traces' : 'Trace Preview'}</title>
</head>
<body>
<div id="app" class="app" role="application" data-view="${view === 'compare' ? 'compare' : 'graph'}" aria-label="${view === 'compare' ? 'Traces compared' : 'Trace preview'}"></div>
<script nonce="${escapeAttribute(nonce)}" src="${escapeAttribute(scriptUri)}"></script>
</body>
</html>
`;
}

/** 32 random base64url characters for `previewHtml`'s nonce. */
export function createNonce(randomBytes: (size: number) => Uint8Array): string {
  const bytes = randomBytes(24);
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_');
}
