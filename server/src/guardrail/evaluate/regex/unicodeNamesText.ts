import { inflateRawSync } from 'node:zlib';
import { NAMES } from './unicodeNames';

/** The table of Unicode character names (`\N{...}`), unpacked. */
export function unicodeNamesText(): string | undefined {
  return inflateRawSync(Buffer.from(NAMES, 'base64')).toString('latin1');
}
