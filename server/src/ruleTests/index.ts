import type { LanguageService } from '../common/languageService';
import { codeFixes } from './codeActions';
import { completion } from './completion';
import { definition } from './definition';
import { hover } from './hover';
import { parseManifest, type ManifestModel } from './manifest';
import { validate } from './validate';

export type { ManifestModel } from './manifest';

/**
 * Language service for the tests of rule files (`X.tests.json`): the manifest's shape and the files and messages
 * it names, hover and go to definition to the raising rules, completion of their messages. VS Code's JSON support
 * gives the rest (folding, outline, the fields' completion from the contributed schema), so those answer nothing here.
 */
export const ruleTestsService: LanguageService<ManifestModel> = {
  parse: (doc) => parseManifest(doc.uri, doc.version, doc.text),
  validate,
  hover,
  definition,
  references: () => [],
  highlights: () => [],
  symbols: () => [],
  folding: () => [],
  completion,
  codeFixes,
};
