/**
 * The Node options the language server process starts with, in VS Code and in the end-to-end benchmark alike, so
 * that what the benchmark measures is what users run. A larger young generation: reading a large trace or rule file
 * allocates many short-lived objects, and the default semi-space makes the collector run several times per read.
 */
export const serverExecArgv: readonly string[] = ['--max-semi-space-size=32'];
