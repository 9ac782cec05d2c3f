/**
 * Stand-in for the shared text fold (helper `injection` owns the real one: NFKC, format characters removed,
 * Unicode confusables skeleton, casefold). Until it lands this does NFKC, removes format (Cf) characters and
 * lower-cases; the interface is the same, so callers need no change when it is replaced.
 */

/**
 * @param {string} text
 * @returns {string}
 */
export function fold(text) {
  return String(text ?? "").normalize("NFKC").replace(/\p{Cf}/gu, "").toLowerCase();
}
