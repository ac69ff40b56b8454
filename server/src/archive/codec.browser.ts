/**
 * The zip codec in the browser (VS Code for the Web): the platform's DecompressionStream inflates, read chunk by
 * chunk and stopped as soon as the output passes the limit; the CRC-32 is computed here (no zlib in a browser).
 */
import { ZipLimitError, type ZipCodec } from './zip';

const crcTable = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

export const zipCodec: ZipCodec = {
  async inflateRaw(data, maxBytes) {
    const reader = new Blob([new Uint8Array(data)]).stream().pipeThrough(new DecompressionStream('deflate-raw')).getReader();
    const chunks: Uint8Array[] = [];
    let length = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      length += value.length;
      if (length > maxBytes) {
        await reader.cancel();
        throw new ZipLimitError(`inflates past ${maxBytes} bytes`);
      }
      chunks.push(value);
    }
    const out = new Uint8Array(length);
    let at = 0;
    for (const chunk of chunks) {
      out.set(chunk, at);
      at += chunk.length;
    }
    return out;
  },
  crc32(data) {
    let crc = 0xffffffff;
    for (let i = 0; i < data.length; i++) crc = crcTable[(crc ^ data[i]) & 0xff] ^ (crc >>> 8);
    return (crc ^ 0xffffffff) >>> 0;
  },
};
