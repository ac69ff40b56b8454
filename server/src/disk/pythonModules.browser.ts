/**
 * disk/pythonModules.ts for the browser build: the modules of `agentTraces.guardrails.pythonPaths` are looked up on
 * each check, synchronously, which a language server in a web worker cannot do through the client. Imports of them
 * are reported with the reason (pythonImports.ts), not as missing modules.
 */
import type { PythonModuleFile, PythonModules } from '../common/types';

export class FolderPythonModules implements PythonModules {
  readonly unavailable = 'VS Code for the Web does not read Python modules for rule files';

  constructor(readonly folders: readonly string[], _bases: readonly string[], _limit: number) {}

  find(_module: string): PythonModuleFile | undefined {
    return undefined;
  }
}
