/**
 * The zip codec on Node (the command line and the server): zlib inflates and checksums. The one place
 * that imports zlib; the browser build takes codec.browser.ts (DecompressionStream) instead.
 */
import { crc32, inflateRawSync } from 'node:zlib';
import { ZipLimitError, type ZipCodec } from './zip';

export const zipCodec: ZipCodec = {
  inflateRaw(data, maxBytes) {
    try {
      return inflateRawSync(data, { maxOutputLength: Math.max(1, maxBytes) });
    } catch (error) {
      if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw new ZipLimitError(`inflates past ${maxBytes} bytes`);
      throw error;
    }
  },
  crc32: (data) => crc32(data),
};
