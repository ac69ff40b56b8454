/**
 * The only way the preview creates elements. Trace content is untrusted (tool outputs carry web pages and prompt
 * injections), so text goes in through textContent / text nodes only; there is no HTML-string path at all.
 */

export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  className?: string,
  text?: string,
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  if (className) element.className = className;
  if (text !== undefined) element.textContent = text;
  return element;
}

const SVG_NS = 'http://www.w3.org/2000/svg';

export function svg<K extends keyof SVGElementTagNameMap>(tag: K, className?: string): SVGElementTagNameMap[K] {
  const element = document.createElementNS(SVG_NS, tag);
  if (className) element.setAttribute('class', className);
  return element;
}

/** Appends `text` with each case-insensitive occurrence of `query` wrapped in <mark>, as text nodes. */
export function appendHighlighted(parent: HTMLElement, text: string, query: string): void {
  if (!query) {
    parent.appendChild(document.createTextNode(text));
    return;
  }
  const lower = text.toLowerCase();
  let from = 0;
  let marks = 0;
  while (marks < 50) {
    const at = lower.indexOf(query, from);
    if (at < 0) break;
    if (at > from) parent.appendChild(document.createTextNode(text.slice(from, at)));
    parent.appendChild(el('mark', 'match', text.slice(at, at + query.length)));
    from = at + query.length;
    marks++;
  }
  if (from < text.length) parent.appendChild(document.createTextNode(text.slice(from)));
}

/** Bidi overrides and zero-width characters: shown literally, but flagged, since they can disguise content. */
const HIDDEN_CHARACTERS = /[\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF]/g;

export function hiddenCharacters(text: string): string[] {
  const found = new Set<string>();
  for (const match of text.matchAll(HIDDEN_CHARACTERS)) {
    found.add('U+' + match[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0'));
    if (found.size >= 8) break;
  }
  return [...found];
}

const numberFormat = new Intl.NumberFormat('en-US');

export function formatCount(value: number): string {
  return numberFormat.format(value);
}

