/** The last part of a URI's path, decoded (as written when it cannot be decoded). */
export function fileNameOfUri(uri: string): string {
  const path = uri.replace(/[?#].*$/, '');
  const name = path.slice(path.lastIndexOf('/') + 1);
  try {
    return decodeURIComponent(name);
  } catch {
    return name;
  }
}

/**
 * A file path relative to a URI (a manifest's `fixtures/a.trace.json`, `../rules/x.gr`, or an absolute path) as a
 * URI; undefined when it does not make one. `%`, `#` and `?` are characters of the name, not of URI syntax.
 */
export function resolveUri(base: string, path: string): string | undefined {
  const escaped = path.replace(/\\/g, '/').replace(/[%#?]/g, (c) => encodeURIComponent(c));
  try {
    return new URL(escaped, base).toString();
  } catch {
    return undefined;
  }
}
