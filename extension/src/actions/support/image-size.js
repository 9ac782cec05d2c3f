/**
 * Pixel size of a base64 PNG or JPEG, read from its header (pure).
 */

/**
 * @param {string} base64
 * @param {number} count bytes to decode from the start
 * @returns {Uint8Array}
 */
function headBytes(base64, count) {
  const chars = Math.ceil(count / 3) * 4;
  const binary = atob(base64.slice(0, chars));
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out;
}

/**
 * @param {string} base64
 * @returns {{width: number, height: number} | null}
 */
export function imageSize(base64) {
  const png = headBytes(base64, 24);
  if (png[0] === 0x89 && png[1] === 0x50 && png[2] === 0x4e && png[3] === 0x47) {
    const view = new DataView(png.buffer);
    return { width: view.getUint32(16), height: view.getUint32(20) };
  }
  if (png[0] !== 0xff || png[1] !== 0xd8) return null;
  const bytes = headBytes(base64, Math.min(base64.length * 0.75, 1 << 20));
  let i = 2;
  while (i + 9 < bytes.length) {
    if (bytes[i] !== 0xff) return null;
    const marker = bytes[i + 1];
    const length = (bytes[i + 2] << 8) | bytes[i + 3];
    const isFrame = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (isFrame) return { height: (bytes[i + 5] << 8) | bytes[i + 6], width: (bytes[i + 7] << 8) | bytes[i + 8] };
    i += 2 + length;
  }
  return null;
}

/**
 * Decoded size in bytes of a base64 string.
 * @param {string} base64
 */
export function decodedBytes(base64) {
  const padding = base64.endsWith("==") ? 2 : base64.endsWith("=") ? 1 : 0;
  return Math.floor((base64.length * 3) / 4) - padding;
}
