import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { filesUnder } from '../testing';

/** A source file of server/src (path relative to it, with `/`) and the modules it names in imports, exports and requires. */
export interface SourceFile {
  path: string;
  specifiers: string[];
}

/** A part is a folder directly in server/src (`lsp/`) or a file directly in it (`server.ts`). */
export function partOf(file: string): string {
  const slash = file.indexOf('/');
  return slash === -1 ? file : file.slice(0, slash + 1);
}

// Import and export statements start a line; dynamic imports and requires may stand anywhere.
const staticImport = /^(?:import|export)\b[^;]*?\bfrom\s*'([^']+)'/gm;
const sideEffectImport = /^import\s*'([^']+)'/gm;
const callImport = /\b(?:import|require)\(\s*'([^']+)'\s*\)/g;

export function specifiersOf(text: string): string[] {
  return [...text.matchAll(staticImport), ...text.matchAll(sideEffectImport), ...text.matchAll(callImport)].map((m) => m[1]);
}

export function readSources(sourceRoot: string): SourceFile[] {
  return filesUnder(sourceRoot, '.ts').map((file) => ({
    path: path.relative(sourceRoot, file).split(path.sep).join('/'),
    specifiers: specifiersOf(readFileSync(file, 'utf8')),
  }));
}

/** Where a relative specifier of `from` leads, as a path relative to server/src (`../../shared/x` stays outside). */
export function resolveSpecifier(from: string, specifier: string, files: Set<string>): string {
  const joined = path.posix.normalize(path.posix.join(path.posix.dirname(from), specifier));
  for (const candidate of [joined, `${joined}.ts`, `${joined}/index.ts`]) if (files.has(candidate)) return candidate;
  return joined;
}

export interface Layers {
  /** Layer number (1 at the top) of each part named in the table. */
  layerOf: Map<string, number>;
}

/** Reads the layer table of ARCHITECTURE.md: rows `| N. Name | `part`, `part/` | rule |`. */
export function readLayers(markdown: string): Layers {
  const layerOf = new Map<string, number>();
  for (const row of markdown.matchAll(/^\|\s*(\d+)\.[^|]*\|([^|]*)\|/gm)) {
    for (const part of row[2].matchAll(/`([^`]+)`/g)) layerOf.set(part[1], Number(row[1]));
  }
  return { layerOf };
}

export interface ImportArrow {
  from: string;
  to: string;
  specifier: string;
}

/** Every import between files of server/src (resolved), and every import of a package or of something outside. */
export function arrowsOf(sources: SourceFile[]): { internal: ImportArrow[]; external: ImportArrow[] } {
  const files = new Set(sources.map((source) => source.path));
  const internal: ImportArrow[] = [];
  const external: ImportArrow[] = [];
  for (const source of sources) {
    for (const specifier of source.specifiers) {
      if (!specifier.startsWith('.')) {
        external.push({ from: source.path, to: specifier, specifier });
        continue;
      }
      const to = resolveSpecifier(source.path, specifier, files);
      (to.startsWith('..') ? external : internal).push({ from: source.path, to, specifier });
    }
  }
  return { internal, external };
}

/** The strongly connected groups of more than one node (import circles), each sorted. */
export function circles(edges: Map<string, Set<string>>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, next);
    low.set(node, next);
    next++;
    stack.push(node);
    onStack.add(node);
    for (const target of edges.get(node) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(node, Math.min(low.get(node)!, low.get(target)!));
      } else if (onStack.has(target)) {
        low.set(node, Math.min(low.get(node)!, index.get(target)!));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const group: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      group.push(member);
    } while (member !== node);
    if (group.length > 1) found.push(group.sort());
  };
  for (const node of edges.keys()) if (!index.has(node)) visit(node);
  return found;
}

export function graphOf(arrows: { from: string; to: string }[], node: (file: string) => string): Map<string, Set<string>> {
  const edges = new Map<string, Set<string>>();
  for (const arrow of arrows) {
    const from = node(arrow.from);
    const to = node(arrow.to);
    if (from === to) continue;
    if (!edges.has(from)) edges.set(from, new Set());
    edges.get(from)!.add(to);
  }
  return edges;
}

const lspPackage = /^vscode-languageserver(-[a-z]+)?(\/|$)/;
const lspParts = new Set(['lsp/', 'transport/', 'server.ts']);
const diskModules = new Set(['fs', 'node:fs', 'fs/promises', 'node:fs/promises']);
/** The one import circle allowed inside a folder: the rule language's eval/apply recursion. */
const evaluatorRecursion = new Set(['guardrail/evaluate/interpreter.ts', 'guardrail/evaluate/enumerate.ts', 'guardrail/evaluate/quantifiers.ts']);
const languageServiceLayer = 4;
export const maxLooseFiles = 5;

/** Every way the sources break the layering that ARCHITECTURE.md draws, one line each; empty when they keep it. */
export function layeringProblems(sources: SourceFile[], layers: Layers): string[] {
  const problems: string[] = [];
  const { layerOf } = layers;
  const parts = new Set(sources.map((source) => partOf(source.path)));
  for (const part of [...parts].sort()) {
    if (!layerOf.has(part)) problems.push(`server/src/${part} is in no layer: add it to the table of ARCHITECTURE.md`);
  }
  for (const part of layerOf.keys()) {
    if (!parts.has(part)) problems.push(`ARCHITECTURE.md names server/src/${part}, which does not exist`);
  }
  const loose = [...parts].filter((part) => !part.endsWith('/'));
  if (loose.length > maxLooseFiles) problems.push(`${loose.length} files lie directly in server/src (${loose.join(', ')}): at most ${maxLooseFiles}`);

  const { internal, external } = arrowsOf(sources);
  for (const arrow of internal) {
    const from = partOf(arrow.from);
    const to = partOf(arrow.to);
    if (from === to) continue;
    const above = layerOf.get(from);
    const below = layerOf.get(to);
    if (above !== undefined && below !== undefined && below < above) {
      problems.push(`${arrow.from} (layer ${above}) imports ${arrow.to} (layer ${below}): an arrow running back up`);
    }
    if (lspParts.has(to) && !lspParts.has(from)) problems.push(`${arrow.from} imports ${arrow.to}: only lsp/, transport/ and server.ts may import the LSP layer`);
    if (to === 'disk/' && layerOf.get(from) === languageServiceLayer) problems.push(`${arrow.from} imports ${arrow.to}: a language service reads no disk`);
  }
  for (const arrow of external) {
    const from = partOf(arrow.from);
    if (lspPackage.test(arrow.to) && !lspParts.has(from)) problems.push(`${arrow.from} imports ${arrow.to}: only lsp/, transport/ and server.ts speak LSP`);
    if (diskModules.has(arrow.to) && layerOf.get(from) === languageServiceLayer) problems.push(`${arrow.from} imports ${arrow.to}: a language service reads no disk`);
  }

  for (const circle of circles(graphOf(internal, partOf))) problems.push(`the parts ${circle.join(', ')} import each other in a circle`);
  for (const circle of circles(graphOf(internal, (file) => file))) {
    if (!circle.every((file) => evaluatorRecursion.has(file))) problems.push(`the files ${circle.join(', ')} import each other in a circle`);
  }
  problems.push(...familyProblems(internal));
  return problems;
}

/**
 * The JSON Lines family (jsonl/): the dispatcher (jsonl/index.ts) picks a member (a folder of jsonl/); the family's
 * shared files know no member, and a member never imports the dispatcher.
 */
function familyProblems(arrows: ImportArrow[]): string[] {
  const problems: string[] = [];
  const dispatcher = 'jsonl/index.ts';
  const memberOf = (file: string): string | undefined => file.match(/^jsonl\/([^/]+)\//)?.[1];
  for (const arrow of arrows) {
    if (!arrow.from.startsWith('jsonl/')) continue;
    const fromMember = memberOf(arrow.from);
    const toMember = memberOf(arrow.to);
    if (fromMember !== undefined && arrow.to === dispatcher) problems.push(`${arrow.from} imports the dispatcher ${dispatcher}: a member never does`);
    if (fromMember === undefined && toMember !== undefined && arrow.from !== dispatcher) {
      problems.push(`${arrow.from} imports ${arrow.to}: only the dispatcher (${dispatcher}) imports a member of the family`);
    }
    if (fromMember !== undefined && toMember !== undefined && fromMember !== toMember) {
      problems.push(`${arrow.from} imports ${arrow.to}: one member of the family never imports another`);
    }
  }
  return problems;
}
