const TABLE = (() => {
  const table = new Int32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c;
  }
  return table;
})();

/** CRC-32 (IEEE 802.3, as zip and zlib compute it) of `bytes`, as 8 lowercase hex digits. */
export function crc32Hex(bytes: Uint8Array): string {
  let crc = -1;
  for (let i = 0; i < bytes.length; i++) crc = (TABLE[(crc ^ (bytes[i] as number)) & 0xff] as number) ^ (crc >>> 8);
  return ((crc ^ -1) >>> 0).toString(16).padStart(8, '0');
}
