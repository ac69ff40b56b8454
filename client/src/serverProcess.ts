/**
 * How the language server process starts, in VS Code and in the benchmarks and protocol tests alike, so that what
 * they measure is what users run.
 */

/**
 * The Node options. A larger young generation: reading a large trace or rule file allocates many short-lived
 * objects, and the default semi-space makes the collector run several times per read.
 */
export const serverExecArgv: readonly string[] = ['--max-semi-space-size=32'];

/** glibc's tunable that backs malloc's large blocks with transparent huge pages (glibc 2.35 and later). */
const hugePagesTunable = 'glibc.malloc.hugetlb';

/**
 * The variables the server's environment adds to the editor's. On Linux, glibc's malloc is asked to back its large
 * blocks with transparent huge pages, which most systems grant on request (`madvise`, the kernel's default): an
 * opened document's message (its text decoded into it in place) and the text's string are each a block of the
 * document's size, and the kernel filling one 4 KB page at a time at first touch cost more than the copy into it
 * (3,300 pages for a 13.5 MB text, 40 ms on the development machine against 26-30 with huge pages). Older glibc
 * versions and other C libraries ignore the variable. A tunable the user set for it already is kept as it is.
 */
export function serverEnvironment(inherited: Readonly<Record<string, string | undefined>>, platform: string): Record<string, string> {
  if (platform !== 'linux') return {};
  const tunables = inherited.GLIBC_TUNABLES ?? '';
  if (tunables.split(':').some((tunable) => tunable.startsWith(`${hugePagesTunable}=`))) return {};
  const hugePages = `${hugePagesTunable}=1`;
  return { GLIBC_TUNABLES: tunables === '' ? hugePages : `${tunables}:${hugePages}` };
}
