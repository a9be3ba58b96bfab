/**
 * A longest common subsequence of two sequences, given only their lengths and a test
 * of whether two items match. The table has (a + 1) x (b + 1) cells, so callers bound
 * both lengths.
 */

/** Index pairs (in a, in b) of one longest common subsequence, in order. */
export function commonSubsequence(aLength: number, bLength: number, same: (a: number, b: number) => boolean): [number, number][] {
  const width = bLength + 1;
  const table = new Uint32Array((aLength + 1) * width);
  for (let i = aLength - 1; i >= 0; i--) {
    for (let j = bLength - 1; j >= 0; j--) {
      table[i * width + j] = same(i, j) ? table[(i + 1) * width + j + 1] + 1 : Math.max(table[(i + 1) * width + j], table[i * width + j + 1]);
    }
  }
  const pairs: [number, number][] = [];
  for (let i = 0, j = 0; i < aLength && j < bLength;) {
    if (same(i, j) && table[i * width + j] === table[(i + 1) * width + j + 1] + 1) {
      pairs.push([i, j]);
      i++;
      j++;
    } else if (table[(i + 1) * width + j] >= table[i * width + j + 1]) {
      i++;
    } else {
      j++;
    }
  }
  return pairs;
}
