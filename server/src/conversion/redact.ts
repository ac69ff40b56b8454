/**
 * Redaction of a converted trace before it is committed as a fixture: what looks like a secret (API keys and
 * tokens, passwords in URLs, private keys, credentials assigned in text) and the user's home folder are replaced by
 * placeholders in every string of the events, and each replacement is listed (where, what kind, and only the first
 * characters of what was there) so the user can check it. Keys of objects are left as they are.
 */

export interface Replacement {
  /** Which trace of the file (0 for the first). */
  trace: number;
  /** The official address of the string it was in: `messages.3.content`. */
  address: string;
  kind: string;
  /** The first characters of what was replaced, the rest elided, so that a listing never repeats a secret. */
  was: string;
  placeholder: string;
}

interface Pattern {
  kind: string;
  regex: RegExp;
  /** The group holding the secret (0: the whole match). */
  group?: number;
}

/** The most specific first: a key inside a URL or an assignment is replaced by its own kind. */
const patterns: Pattern[] = [
  { kind: 'private-key', regex: /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY-----[\s\S]*?-----END (?:[A-Z0-9]+ )*PRIVATE KEY-----/g },
  { kind: 'anthropic-key', regex: /\bsk-ant-[A-Za-z0-9_-]{20,}/g },
  { kind: 'openai-key', regex: /\bsk-(?:proj-|svcacct-)?[A-Za-z0-9_-]{32,}/g },
  { kind: 'github-token', regex: /\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{30,})/g },
  { kind: 'aws-access-key', regex: /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g },
  { kind: 'slack-token', regex: /\bxox[abposr]-[A-Za-z0-9-]{10,}/g },
  { kind: 'google-api-key', regex: /\bAIza[0-9A-Za-z_-]{35}/g },
  { kind: 'stripe-key', regex: /\b[rs]k_(?:live|test)_[0-9A-Za-z]{16,}/g },
  { kind: 'jwt', regex: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g },
  { kind: 'bearer-token', regex: /\b[Bb]earer\s+([A-Za-z0-9._~+/-]{16,}=*)/g, group: 1 },
  { kind: 'url-password', regex: /\b[a-z][a-z0-9+.-]*:\/\/[^\s/:@"'<>]+:([^\s/@"'<>]+)@/g, group: 1 },
  {
    kind: 'assigned-secret',
    regex: /\b(?:[A-Za-z0-9_]*(?:api[_-]?key|apikey|secret|token|passw(?:or)?d|pwd)[A-Za-z0-9_]*)["']?\s*[:=]\s*["']?(?!\d+\b)([^\s"'<>,;]{8,})/gi,
    group: 1,
  },
];

const placeholderPattern = /^<redacted:[a-z-]+>$|^<home>/;

/** The home folders to replace: the user's own, and any `/home/<name>`, `/Users/<name>`, `C:\Users\<name>` seen. */
function homePatterns(home: string | undefined): RegExp[] {
  const found: RegExp[] = [/(?<![\w.-])\/home\/[A-Za-z0-9._-]+(?=\/|\b|$)/g, /(?<![\w.-])\/Users\/[A-Za-z0-9._ -]+?(?=\/|$|["'\s])/g, /\b[A-Za-z]:\\(?:\\)?Users\\(?:\\)?[A-Za-z0-9._ -]+?(?=\\|$|["'\s])/g];
  if (home && home.length > 1 && home !== '/') found.unshift(new RegExp(home.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'g'));
  return found;
}

function elide(secret: string): string {
  return secret.length <= 8 ? '…' : `${secret.slice(0, 4)}…`;
}

export class Redactor {
  readonly replaced: Replacement[] = [];
  private readonly homes: RegExp[];

  constructor(home: string | undefined) {
    this.homes = homePatterns(home);
  }

  /** A copy of the trace's events with every string redacted. */
  redactTrace(events: readonly unknown[], trace: number): unknown[] {
    return events.map((event, i) => this.redactValue(event, `messages.${i}`, trace));
  }

  private redactValue(value: unknown, address: string, trace: number): unknown {
    if (typeof value === 'string') return this.redactString(value, address, trace);
    if (Array.isArray(value)) return value.map((item, i) => this.redactValue(item, `${address}.${i}`, trace));
    if (value !== null && typeof value === 'object') {
      const copy: Record<string, unknown> = {};
      for (const [key, item] of Object.entries(value)) copy[key] = this.redactValue(item, `${address}.${key}`, trace);
      return copy;
    }
    return value;
  }

  private redactString(text: string, address: string, trace: number): string {
    let result = text;
    for (const { kind, regex, group = 0 } of patterns) {
      result = result.replace(regex, (match: string, ...groups: unknown[]) => {
        const secret = group === 0 ? match : (groups[group - 1] as string | undefined);
        if (!secret || placeholderPattern.test(secret)) return match;
        const placeholder = `<redacted:${kind}>`;
        this.replaced.push({ trace, address, kind, was: elide(secret), placeholder });
        const at = match.lastIndexOf(secret);
        return match.slice(0, at) + placeholder + match.slice(at + secret.length);
      });
    }
    for (const home of this.homes) {
      result = result.replace(home, (match) => {
        this.replaced.push({ trace, address, kind: 'home-folder', was: match, placeholder: '<home>' });
        return '<home>';
      });
    }
    return result;
  }
}

/** One replacement as a line: `anthropic-key at messages.0.content: sk-a… → <redacted:anthropic-key>`. */
export function describeReplacement(r: Replacement, withTrace: boolean): string {
  return `${r.kind} at ${withTrace ? `trace ${r.trace + 1} ` : ''}${r.address}: ${r.was} → ${r.placeholder}`;
}
