/** gitCommand.ts for VS Code for the Web: no process can be started there, so only the git extension's API reads a committed version. */
import type * as NodeGitCommand from './gitCommand';

export const noGitCommand: typeof NodeGitCommand.noGitCommand = 'VS Code for the Web runs no git command';

export const committedWithGitCommand: typeof NodeGitCommand.committedWithGitCommand = async () => ({
  ok: false,
  reason: 'it has no committed version here (VS Code for the Web runs no git command, and the git extension does not know this file)',
});
