import { CodePointSet } from './codePointSet';
import { RegexError, width } from './parser';
import { FLAG, MAXCODE, MAXREPEAT, TYPE_FLAGS, type ClassItem, type Item, type Parsed } from './syntax';
import { caseRules, category, type CaseRules } from './unicode';

/**
 * A parsed pattern with its flags applied, as Python's compiler applies them (`re._compiler`): every literal, class
 * and dot becomes the exact set of code points it matches (IGNORECASE by sre's rules: the subject character is
 * lower-cased, with re._casefix's extra cases), anchors become what MULTILINE and ASCII make of them, and
 * look-behinds are checked for a fixed width. Both the JavaScript translation and the backtracking matcher run this.
 */

export type Anchor =
  | 'beginning' | 'beginningLine' | 'beginningString'
  | 'end' | 'endLine' | 'endString'
  | 'boundary' | 'nonBoundary' | 'asciiBoundary' | 'asciiNonBoundary';

export type Node =
  | { type: 'chars'; set: CodePointSet }
  | { type: 'seq'; items: Node[] }
  | { type: 'alt'; branches: Node[] }
  | { type: 'group'; index: number; body: Node }
  | { type: 'repeat'; kind: 'greedy' | 'lazy' | 'possessive'; min: number; max: number; body: Node }
  | { type: 'atomic'; body: Node }
  | { type: 'look'; behind: boolean; negate: boolean; width: number; body: Node }
  | { type: 'anchor'; anchor: Anchor }
  | { type: 'backref'; group: number; cases: CaseRules | null }
  | { type: 'cond'; group: number; yes: Node; no: Node };

export interface Program {
  root: Node;
  flags: number;
  groups: number;
  groupIndex: Map<string, number>;
}

const NEWLINE = 0x0a;
const ALL_BUT_NEWLINE = CodePointSet.of(NEWLINE).complement();
const BMP_END = 0xffff;

export function compileParsed(parsed: Parsed): Program {
  const widths = { groupWidths: parsed.groupWidths };
  const REPEAT_NAMES = { greedy: 'MAX_REPEAT', lazy: 'MIN_REPEAT', possessive: 'POSSESSIVE_REPEAT' } as const;

  function sequence(items: Item[], flags: number): Node {
    const nodes = items.map((item) => node(item, flags));
    return nodes.length === 1 ? nodes[0] : { type: 'seq', items: nodes };
  }

  function node(item: Item, flags: number): Node {
    switch (item.op) {
      case 'literal': return { type: 'chars', set: literalSet(item.cp, flags) };
      case 'notLiteral': return { type: 'chars', set: literalSet(item.cp, flags).complement() };
      case 'in': return { type: 'chars', set: classSet(item.items, item.negate, flags) };
      case 'any': return { type: 'chars', set: flags & FLAG.DOTALL ? CodePointSet.ALL : ALL_BUT_NEWLINE };
      case 'at': return { type: 'anchor', anchor: anchor(item.at, flags) };
      case 'repeat':
        if (flags & FLAG.TEMPLATE) throw new RegexError(`internal: unsupported template operator ${REPEAT_NAMES[item.kind]}`);
        return { type: 'repeat', kind: item.kind, min: item.min, max: item.max === MAXREPEAT ? Infinity : item.max, body: sequence(item.body, flags) };
      case 'subpattern': {
        const inner = item.add & TYPE_FLAGS ? flags & ~TYPE_FLAGS : flags;
        const body = sequence(item.body, (inner | item.add) & ~item.del);
        return item.group === null ? body : { type: 'group', index: item.group, body };
      }
      case 'atomic': return { type: 'atomic', body: sequence(item.body, flags) };
      case 'assert': {
        let w = 0;
        if (item.behind) {
          const [lo, hi] = width(item.body, widths);
          if (lo > MAXCODE) throw new RegexError('looks too much behind');
          if (lo !== hi) throw new RegexError('look-behind requires fixed-width pattern');
          w = lo;
        }
        return { type: 'look', behind: item.behind, negate: item.negate, width: w, body: sequence(item.body, flags) };
      }
      case 'branch': return { type: 'alt', branches: item.branches.map((b) => sequence(b, flags)) };
      case 'groupref':
        return { type: 'backref', group: item.group, cases: flags & FLAG.IGNORECASE ? caseRules((flags & FLAG.ASCII) !== 0) : null };
      case 'groupExists':
        return { type: 'cond', group: item.group, yes: sequence(item.yes, flags), no: sequence(item.no ?? [], flags) };
    }
  }

  return { root: sequence(parsed.body, parsed.flags), flags: parsed.flags, groups: parsed.groups, groupIndex: parsed.groupIndex };
}

function anchor(at: Extract<Item, { op: 'at' }>['at'], flags: number): Anchor {
  const multiline = (flags & FLAG.MULTILINE) !== 0;
  const ascii = (flags & FLAG.ASCII) !== 0;
  switch (at) {
    case 'beginning': return multiline ? 'beginningLine' : 'beginning';
    case 'end': return multiline ? 'endLine' : 'end';
    case 'boundary': return ascii ? 'asciiBoundary' : 'boundary';
    case 'nonBoundary': return ascii ? 'asciiNonBoundary' : 'nonBoundary';
    default: return at;
  }
}

function ignoringCase(flags: number): CaseRules | null {
  return flags & FLAG.IGNORECASE ? caseRules((flags & FLAG.ASCII) !== 0) : null;
}

/** What a literal matches: itself, or under IGNORECASE every character whose lower-case is its lower-case (or an extra case). */
function literalSet(cp: number, flags: number): CodePointSet {
  const rules = ignoringCase(flags);
  if (!rules || !rules.isCased(cp)) return CodePointSet.of(cp);
  const lower = rules.lower(cp);
  return rules.lowerPreimage(CodePointSet.of(lower, ...rules.extra(lower)));
}

function itemSet(item: ClassItem, ascii: boolean): CodePointSet {
  switch (item.op) {
    case 'literal': return CodePointSet.of(item.cp);
    case 'range': return CodePointSet.range(item.lo, item.hi);
    case 'category': {
      const set = category(item.name, ascii);
      return item.negate ? set.complement() : set;
    }
  }
}

/**
 * What a class matches. Under IGNORECASE a class with a cased character matches a subject character whose
 * lower-case is among the lower-cased BMP members (with their extra cases), or in one of its categories, or equal to
 * a member beyond the BMP, or, for a range reaching beyond the BMP, in that range or with its upper-case there.
 */
function classSet(items: ClassItem[], negate: boolean, flags: number): CodePointSet {
  const ascii = (flags & FLAG.ASCII) !== 0;
  const plain = () => items.reduce((set, item) => set.union(itemSet(item, ascii)), CodePointSet.EMPTY);
  const rules = ignoringCase(flags);
  let matched: CodePointSet;
  if (!rules) {
    matched = plain();
  } else {
    let hasCased = false;
    const lowered: number[] = [];
    let tail = CodePointSet.EMPTY;
    for (const item of items) {
      if (item.op === 'literal') {
        if (item.cp > BMP_END) {
          hasCased = true;
          tail = tail.union(CodePointSet.of(item.cp));
          continue;
        }
        const lower = rules.lower(item.cp);
        lowered.push(lower, lower, ...rules.extra(lower).flatMap((c) => [c, c]));
        if (rules.isCased(item.cp)) hasCased = true;
      } else if (item.op === 'range') {
        const bmp = CodePointSet.range(item.lo, Math.min(item.hi, BMP_END));
        if (item.lo <= BMP_END) {
          const image = rules.lowerImage(bmp);
          lowered.push(...image.ranges);
          for (const [from, extras] of extraCasesIn(image, rules)) lowered.push(from, from, ...extras.flatMap((c) => [c, c]));
          if (!hasCased && !bmp.intersect(rules.cased).isEmpty) hasCased = true;
        }
        if (item.hi > BMP_END) {
          hasCased = true;
          tail = tail.union(CodePointSet.range(item.lo, item.hi)).union(rules.upperPreimage(item.lo, item.hi));
        }
      } else {
        tail = tail.union(itemSet(item, ascii));
      }
    }
    matched = hasCased ? rules.lowerPreimage(CodePointSet.fromRanges(lowered).union(tail)) : plain();
  }
  return negate ? matched.complement() : matched;
}

function* extraCasesIn(image: CodePointSet, rules: CaseRules): Iterable<[number, readonly number[]]> {
  for (const cp of rules.extraKeys) if (image.has(cp)) yield [cp, rules.extra(cp)];
}
