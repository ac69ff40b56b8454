/**
 * `node:path` for the browser build (esbuild.mjs aliases it here): in a web worker a file's "path" is its URI
 * (disk/files.browser.ts), so these are POSIX path operations that keep a URI's `scheme://authority` (or, for a URI
 * without an authority such as `vscode-userdata:/User/…`, its `scheme:`) as the root.
 * Only the operations the server uses; pure string work, no file system.
 */
export const sep = '/';
export const delimiter = ':';

const rooted = /^([a-zA-Z][\w+.-]*:(?:\/\/[^/]*)?)(\/.*)?$/s;

function split(path: string): { root: string; rest: string } {
  const match = rooted.exec(path);
  return match ? { root: match[1], rest: match[2] || '/' } : { root: '', rest: path };
}

function normalizeRest(rest: string): string {
  const absolute = rest.startsWith('/');
  const parts: string[] = [];
  for (const part of rest.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (parts.length > 0 && parts[parts.length - 1] !== '..') parts.pop();
      else if (!absolute) parts.push('..');
    } else parts.push(part);
  }
  const joined = parts.join('/') + (rest.endsWith('/') && parts.length > 0 ? '/' : '');
  return absolute ? `/${joined}` : joined || '.';
}

export function normalize(path: string): string {
  const { root, rest } = split(path);
  return root + normalizeRest(rest);
}

export function isAbsolute(path: string): boolean {
  return rooted.test(path) || path.startsWith('/');
}

export function join(...parts: string[]): string {
  const [first = '', ...others] = parts.filter((part) => part !== '');
  if (first === '' && others.length === 0) return '.';
  const { root, rest } = split(first);
  return root + normalizeRest([rest, ...others].join('/'));
}

export function resolve(...parts: string[]): string {
  let resolved = '';
  for (let i = parts.length - 1; i >= 0; i--) {
    if (parts[i] === '') continue;
    resolved = resolved ? `${parts[i]}/${resolved}` : parts[i];
    if (isAbsolute(parts[i])) break;
  }
  if (!isAbsolute(resolved)) resolved = `/${resolved}`;
  return normalize(resolved);
}

export function dirname(path: string): string {
  const { root, rest } = split(path);
  const trimmed = rest.length > 1 ? rest.replace(/\/+$/, '') : rest;
  const slash = trimmed.lastIndexOf('/');
  if (slash < 0) return root ? `${root}/` : '.';
  return root + (slash === 0 ? '/' : trimmed.slice(0, slash));
}

export function basename(path: string, extension?: string): string {
  const { rest } = split(path);
  const trimmed = rest.replace(/\/+$/, '');
  const name = trimmed.slice(trimmed.lastIndexOf('/') + 1);
  return extension && name.endsWith(extension) && name !== extension ? name.slice(0, -extension.length) : name;
}

export function extname(path: string): string {
  const name = basename(path);
  const dot = name.lastIndexOf('.');
  return dot <= 0 ? '' : name.slice(dot);
}

/** The path from `from` to `to`; `to` itself when they have different roots (two URI authorities). */
export function relative(from: string, to: string): string {
  const a = split(resolve(from));
  const b = split(resolve(to));
  if (a.root !== b.root) return to;
  const fromParts = a.rest.split('/').filter(Boolean);
  const toParts = b.rest.split('/').filter(Boolean);
  let common = 0;
  while (common < fromParts.length && common < toParts.length && fromParts[common] === toParts[common]) common++;
  return [...fromParts.slice(common).map(() => '..'), ...toParts.slice(common)].join('/');
}

export const posix = { sep, delimiter, normalize, isAbsolute, join, resolve, dirname, basename, extname, relative };
export default posix;
