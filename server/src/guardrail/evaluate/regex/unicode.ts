import { CodePointSet, decodeMap, decodeRanges } from './codePointSet';
import { CASED, CJK_UNIFIED, DIGIT, EXTRA_CASES, LOWER, SPACE, UPPER, WORD } from './unicodeTables';
import { unicodeNamesText } from './unicodeNamesText';

/**
 * The character data of Python 3.11's `re` on str patterns (Unicode 14.0), from tables generated with that Python:
 * what `\s`, `\d` and `\w` match (with and without ASCII), and the case mappings IGNORECASE uses. Decoded on
 * first use. JavaScript's own `\s`, `\p{…}` and case folding follow the Unicode version of the running engine and
 * differ in places (`\s` takes U+FEFF but not U+001C–U+001F or U+0085; folding is not lower-casing), so none of them
 * is used.
 */

let cached: Tables | undefined;

interface Tables {
  space: CodePointSet;
  digit: CodePointSet;
  word: CodePointSet;
  cased: CodePointSet;
  lower: Map<number, number>;
  /** The characters `lower` changes. */
  lowered: CodePointSet;
  upper: Map<number, number>;
  extraCases: Map<number, number[]>;
}

function tables(): Tables {
  if (cached) return cached;
  const lower = decodeMap(LOWER);
  const extraCases = new Map<number, number[]>();
  for (const entry of EXTRA_CASES.split(',')) {
    const [key, values] = entry.split(':');
    extraCases.set(parseInt(key, 36), values.split('.').map((v) => parseInt(v, 36)));
  }
  cached = {
    space: decodeRanges(SPACE), digit: decodeRanges(DIGIT), word: decodeRanges(WORD), cased: decodeRanges(CASED),
    lower, lowered: CodePointSet.fromRanges([...lower.keys()].flatMap((c) => [c, c])), upper: decodeMap(UPPER), extraCases,
  };
  return cached;
}

const ASCII_SPACE = CodePointSet.fromRanges([0x09, 0x0d, 0x20, 0x20]);
const ASCII_DIGIT = CodePointSet.range(0x30, 0x39);
const ASCII_WORD = CodePointSet.fromRanges([0x30, 0x39, 0x41, 0x5a, 0x5f, 0x5f, 0x61, 0x7a]);
const ASCII_UPPER = CodePointSet.range(0x41, 0x5a);

export type Category = 'digit' | 'space' | 'word';

/** What `\d`, `\s` or `\w` matches; `ascii` under the ASCII flag. */
export function category(name: Category, ascii: boolean): CodePointSet {
  if (ascii) return name === 'digit' ? ASCII_DIGIT : name === 'space' ? ASCII_SPACE : ASCII_WORD;
  return tables()[name];
}

/** Case handling under IGNORECASE: Unicode's (sre's unicode_tolower, with the extra cases) or, with ASCII, A–Z only. */
export interface CaseRules {
  ascii: boolean;
  lower(cp: number): number;
  isCased(cp: number): boolean;
  /** The cased characters (those lower- or upper-casing changes). */
  cased: CodePointSet;
  /** The lower-case characters that have extra cases. */
  extraKeys: readonly number[];
  /** Other lower-case characters that match the same (re._casefix), for a lower-case character. */
  extra(cp: number): readonly number[];
  /** Every character whose lower-case is in `set`. */
  lowerPreimage(set: CodePointSet): CodePointSet;
  /** The lower-case of every character of `set`. */
  lowerImage(set: CodePointSet): CodePointSet;
  /** The characters a class range reaching past the BMP also takes under IGNORECASE (see UPPER). */
  upperPreimage(from: number, to: number): CodePointSet;
}

const NONE: readonly number[] = [];

export function caseRules(ascii: boolean): CaseRules {
  return ascii ? ASCII_CASES : unicodeCases();
}

const ASCII_CASES: CaseRules = {
  ascii: true,
  lower: (cp) => (cp >= 0x41 && cp <= 0x5a ? cp + 32 : cp),
  isCased: (cp) => (cp >= 0x41 && cp <= 0x5a) || (cp >= 0x61 && cp <= 0x7a),
  cased: CodePointSet.fromRanges([0x41, 0x5a, 0x61, 0x7a]),
  extraKeys: NONE,
  extra: () => NONE,
  lowerPreimage: (set) => set.subtract(ASCII_UPPER).union(CodePointSet.fromRanges(set.intersect(CodePointSet.range(0x61, 0x7a)).ranges.map((c) => c - 32))),
  lowerImage: (set) => set.subtract(ASCII_UPPER).union(CodePointSet.fromRanges(set.intersect(ASCII_UPPER).ranges.map((c) => c + 32))),
  upperPreimage: (from, to) => unicodeCases().upperPreimage(from, to),
};

let unicodeCaseRules: CaseRules | undefined;

function unicodeCases(): CaseRules {
  if (unicodeCaseRules) return unicodeCaseRules;
  const t = tables();
  const mapped = (set: CodePointSet, map: Map<number, number>, keep: (from: number, to: number) => boolean): number[] => {
    const out: number[] = [];
    for (const [from, to] of map) if (keep(from, to) && set.has(from)) out.push(to, to);
    return out;
  };
  unicodeCaseRules = {
    ascii: false,
    lower: (cp) => t.lower.get(cp) ?? cp,
    isCased: (cp) => t.cased.has(cp),
    cased: t.cased,
    extraKeys: [...t.extraCases.keys()],
    extra: (cp) => t.extraCases.get(cp) ?? NONE,
    lowerPreimage(set) {
      const out: number[] = [];
      for (const [from, to] of t.lower) if (set.has(to)) out.push(from, from);
      return set.subtract(t.lowered).union(CodePointSet.fromRanges(out));
    },
    lowerImage: (set) => set.subtract(t.lowered).union(CodePointSet.fromRanges(mapped(set, t.lower, () => true))),
    upperPreimage(from, to) {
      const out: number[] = [];
      for (const [cp, upper] of t.upper) if (upper >= from && upper <= to) out.push(cp, cp);
      return CodePointSet.fromRanges(out);
    },
  };
  return unicodeCaseRules;
}

let names: Map<string, number> | undefined;

const HANGUL_L = ['G', 'GG', 'N', 'D', 'DD', 'R', 'M', 'B', 'BB', 'S', 'SS', '', 'J', 'JJ', 'C', 'K', 'T', 'P', 'H'];
const HANGUL_V = ['A', 'AE', 'YA', 'YAE', 'EO', 'E', 'YEO', 'YE', 'O', 'WA', 'WAE', 'OE', 'YO', 'U', 'WEO', 'WE', 'WI', 'YU', 'EU', 'YI', 'I'];
const HANGUL_T = ['', 'G', 'GG', 'GS', 'N', 'NJ', 'NH', 'D', 'L', 'LG', 'LM', 'LB', 'LS', 'LT', 'LP', 'LH', 'M', 'B', 'BS', 'S', 'SS', 'NG', 'J', 'C', 'K', 'T', 'P', 'H'];
let hangul: Map<string, number> | undefined;
let cjkUnified: CodePointSet | undefined;

/**
 * The character `\N{name}` stands for, as unicodedata.lookup finds it (names and aliases in any case; Hangul
 * syllables and CJK unified ideographs, named by rule, only in capitals), or undefined.
 */
export function lookupName(name: string): number | undefined {
  if (name.startsWith('HANGUL SYLLABLE ')) {
    if (!hangul) {
      hangul = new Map();
      for (let l = 0; l < HANGUL_L.length; l++) {
        for (let v = 0; v < HANGUL_V.length; v++) {
          for (let t = 0; t < HANGUL_T.length; t++) hangul.set(HANGUL_L[l] + HANGUL_V[v] + HANGUL_T[t], 0xac00 + (l * 21 + v) * 28 + t);
        }
      }
    }
    return hangul.get(name.slice(16));
  }
  const cjk = /^CJK UNIFIED IDEOGRAPH-([0-9A-F]{4,5})$/.exec(name);
  if (cjk) {
    const cp = parseInt(cjk[1], 16);
    return (cjkUnified ??= decodeRanges(CJK_UNIFIED)).has(cp) ? cp : undefined;
  }
  return namesTable().get(name.replace(/[a-z]+/g, (s) => s.toUpperCase()));
}

function namesTable(): Map<string, number> {
  if (names) return names;
  const text = unicodeNamesText();
  if (text === undefined) return new Map(); // not unpacked yet (a browser unpacks it in the background)
  names = new Map();
  let cp = -1;
  for (const line of text.split('\n')) {
    const colon = line.indexOf(':');
    cp += colon < 0 ? 1 : parseInt(line.slice(0, colon), 36);
    const name = colon < 0 ? line : line.slice(colon + 1);
    names.set(name.endsWith('-#') ? name.slice(0, -1) + cp.toString(16).toUpperCase().padStart(4, '0') : name, cp);
  }
  return names;
}
