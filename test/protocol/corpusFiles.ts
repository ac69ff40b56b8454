import * as path from 'node:path';

/** The corpus's files of the agents' own formats, read in place beside the repository (from out/test/protocol/). */
export const formatsCorpus = path.resolve(__dirname, '../../../../shared/corpus/formats');

export { corpusOrSkip } from '../cli/cliRun';

/** The LSP position of a character offset in a text. */
export function positionOf(text: string, offset: number): { line: number; character: number } {
  const before = text.slice(0, offset);
  return { line: before.split('\n').length - 1, character: offset - before.lastIndexOf('\n') - 1 };
}
