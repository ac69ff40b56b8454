import { PyError, isStr, str, typeName, type Value } from '../values';
import { pyFunction } from './arguments';
import { pythonWhitespace } from '../regex';

/** Python's `string` module for rules: its constants and `capwords`. */

const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const UPPER = LOWER.toUpperCase();
const DIGITS = '0123456789';
const PUNCTUATION = '!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~';
const WHITESPACE = ' \t\n\r\x0b\x0c';

/** str.split() without a separator: the words between runs of whitespace (str.isspace). */
function splitWhitespace(s: string): string[] {
  return s.split(pythonWhitespace()).filter((w) => w !== '');
}

function capitalize(word: string): string {
  const [first, ...rest] = Array.from(word);
  return (first ?? '').toUpperCase() + rest.join('').toLowerCase();
}

export function stringMembers(): Record<string, Value> {
  return {
    ascii_letters: LOWER + UPPER,
    ascii_lowercase: LOWER,
    ascii_uppercase: UPPER,
    digits: DIGITS,
    hexdigits: DIGITS + 'abcdefABCDEF',
    octdigits: '01234567',
    punctuation: PUNCTUATION,
    whitespace: WHITESPACE,
    printable: DIGITS + LOWER + UPPER + PUNCTUATION + WHITESPACE,
    capwords: pyFunction({ name: 'capwords', params: ['s', 'sep'], required: 1 }, (a) => {
      const s = a.get('s')!;
      if (!isStr(s)) throw new PyError('AttributeError', `'${typeName(s)}' object has no attribute 'split'`);
      const sep = a.get('sep') ?? null;
      if (sep === null) return splitWhitespace(str(s)!).map(capitalize).join(' ');
      if (!isStr(sep)) throw new PyError('TypeError', `must be str or None, not ${typeName(sep)}`);
      if (str(sep) === '') throw new PyError('ValueError', 'empty separator');
      return str(s)!.split(str(sep)!).map(capitalize).join(str(sep)!);
    }),
  };
}
