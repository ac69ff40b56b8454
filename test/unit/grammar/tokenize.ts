// Loads our TextMate grammars (from package.json contributes.grammars) and test fixtures into a
// vscode-textmate registry, the same engine VS Code uses, and tokenizes text for assertions.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vsctm from 'vscode-textmate';
import * as oniguruma from 'vscode-oniguruma';

export const repoRoot = findRepoRoot(__dirname);
export const fixturesDir = path.join(repoRoot, 'test/unit/grammar/fixtures');
export const corpusDir = path.resolve(repoRoot, '../shared/corpus');

function findRepoRoot(start: string): string {
  let dir = start;
  for (;;) {
    const manifest = path.join(dir, 'package.json');
    if (fs.existsSync(manifest) && JSON.parse(fs.readFileSync(manifest, 'utf8')).name === 'agent-traces') return dir;
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`package.json of agent-traces not found above ${start}`);
    dir = parent;
  }
}

interface GrammarContribution {
  scopeName: string;
  path: string;
  language?: string;
  injectTo?: string[];
  embeddedLanguages?: Record<string, string>;
}

export function grammarContributions(): GrammarContribution[] {
  const manifest = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8'));
  return manifest.contributes.grammars as GrammarContribution[];
}

/** Scope name → grammar file: ours from package.json, stand-ins for VS Code's JSON and markdown grammars from fixtures/. */
function grammarFiles(): Map<string, string> {
  const files = new Map<string, string>([
    ['source.json', path.join(fixturesDir, 'json.tmLanguage.json')],
    ['text.html.markdown', path.join(fixturesDir, 'markdown.tmLanguage.json')],
  ]);
  for (const grammar of grammarContributions()) files.set(grammar.scopeName, path.join(repoRoot, grammar.path));
  return files;
}

function injectionsByTarget(): Map<string, string[]> {
  const result = new Map<string, string[]>();
  for (const grammar of grammarContributions()) {
    for (const target of grammar.injectTo ?? []) result.set(target, [...(result.get(target) ?? []), grammar.scopeName]);
  }
  return result;
}

let registryPromise: Promise<vsctm.Registry> | undefined;

function registry(): Promise<vsctm.Registry> {
  registryPromise ??= (async () => {
    const wasm = fs.readFileSync(path.join(repoRoot, 'node_modules/vscode-oniguruma/release/onig.wasm'));
    await oniguruma.loadWASM(wasm);
    const files = grammarFiles();
    const injections = injectionsByTarget();
    return new vsctm.Registry({
      onigLib: Promise.resolve({
        createOnigScanner: (patterns: string[]) => new oniguruma.OnigScanner(patterns),
        createOnigString: (text: string) => new oniguruma.OnigString(text),
      }),
      loadGrammar: async (scopeName: string) => {
        const file = files.get(scopeName);
        if (file === undefined) return null;
        return vsctm.parseRawGrammar(fs.readFileSync(file, 'utf8'), file);
      },
      getInjections: (scopeName: string) => injections.get(scopeName),
    });
  })();
  return registryPromise;
}

export async function loadGrammar(scopeName: string): Promise<vsctm.IGrammar> {
  const grammar = await (await registry()).loadGrammar(scopeName);
  if (!grammar) throw new Error(`grammar ${scopeName} not found`);
  return grammar;
}

export interface Token {
  text: string;
  scopes: string[];
}

export interface TokenizedLine {
  line: string;
  tokens: Token[];
  /** The rule stack after the line, as vscode-textmate prints it. */
  endState: vsctm.StateStack;
}

export function tokenizeLines(grammar: vsctm.IGrammar, text: string): TokenizedLine[] {
  let state: vsctm.StateStack = vsctm.INITIAL;
  const result: TokenizedLine[] = [];
  for (const line of text.split(/\r?\n/)) {
    const { tokens, ruleStack } = grammar.tokenizeLine(line, state);
    result.push({
      line,
      tokens: tokens.map((token) => ({ text: line.slice(token.startIndex, token.endIndex), scopes: token.scopes })),
      endState: ruleStack,
    });
    state = ruleStack;
  }
  return result;
}

export async function tokenize(scopeName: string, text: string): Promise<TokenizedLine[]> {
  return tokenizeLines(await loadGrammar(scopeName), text);
}

/** The scopes of the `occurrence`-th token (0-based) whose text is exactly `text`, without the root scope. */
export function scopesOf(lines: TokenizedLine[], text: string, occurrence = 0): string[] {
  let seen = 0;
  for (const { tokens } of lines) {
    for (const token of tokens) {
      if (token.text !== text) continue;
      if (seen++ === occurrence) return token.scopes.slice(1);
    }
  }
  const all = lines.flatMap(({ tokens }) => tokens.map((token) => JSON.stringify(token.text)));
  throw new Error(`no token ${JSON.stringify(text)} (#${occurrence}); tokens: ${all.join(' ')}`);
}

/** Depth of the rule stack after a line: 1 means back at the grammar's root. */
export function stackDepth(state: vsctm.StateStack): number {
  return state.depth;
}

/** Every token of one line that is not just whitespace, as [text, scopes without the root scope]. */
export function significantTokens(line: TokenizedLine): Array<[string, string]> {
  return line.tokens
    .filter((token) => token.text.trim() !== '')
    .map((token): [string, string] => [token.text, token.scopes.slice(1).join(' ')]);
}
