/** A small glob matcher for the checker's arguments: `*`, `?`, `**` and `{a,b}` over `/`-separated paths. */
export function globToRegExp(glob: string): RegExp {
  let source = '';
  for (let i = 0; i < glob.length; i++) {
    const char = glob[i];
    if (char === '*') {
      if (glob[i + 1] === '*') {
        const atSegmentEnd = glob[i + 2] === '/';
        source += atSegmentEnd ? '(?:.*/)?' : '.*';
        i += atSegmentEnd ? 2 : 1;
      } else {
        source += '[^/]*';
      }
    } else if (char === '?') {
      source += '[^/]';
    } else if (char === '{') {
      const close = glob.indexOf('}', i);
      if (close === -1) {
        source += '\\{';
      } else {
        source += '(?:' + glob.slice(i + 1, close).split(',').map(escapeRegExp).join('|') + ')';
        i = close;
      }
    } else {
      source += escapeRegExp(char);
    }
  }
  return new RegExp('^' + source + '$');
}

function escapeRegExp(text: string): string {
  return text.replace(/[.+^$()|[\]\\{}*?]/g, '\\$&');
}

export function hasGlobMagic(pattern: string): boolean {
  return /[*?{]/.test(pattern);
}

/** The folder part of a glob before its first wildcard, where the walk starts. */
export function globBase(pattern: string): string {
  const segments = pattern.split('/');
  const base: string[] = [];
  for (const segment of segments) {
    if (hasGlobMagic(segment)) break;
    base.push(segment);
  }
  return base.join('/') || '.';
}
