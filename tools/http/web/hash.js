// FNV-1a, 32 bits, over the code points of a text: the daily puzzle's seed (puzzle.js) and the
// check of a puzzle library (puzzle-library.js, whose text is ASCII, where the C++ writer's bytes
// and these code points are the same numbers).
export function fnv1a32(text) {
  let h = 0x811c9dc5;
  for (const c of text) {
    h ^= c.codePointAt(0);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}
