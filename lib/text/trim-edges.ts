// Trimming a run of characters from a string's ends with a loop: the regular expressions for it
// (`/^x+|x+$/`, `/x+$/`) are quadratic on a long run of x that is not at the end, since the engine
// retries the run from each of its characters.

/** The code point ending at `end` (a surrogate pair whole, a lone surrogate alone). */
function codePointBefore(text: string, end: number): string {
  const low = text.charCodeAt(end - 1);
  if (low >= 0xdc00 && low <= 0xdfff && end >= 2) {
    const high = text.charCodeAt(end - 2);
    if (high >= 0xd800 && high <= 0xdbff) return text.slice(end - 2, end);
  }
  return text.slice(end - 1, end);
}

/**
 * `text` without the characters at its start (unless `ends` is "end") and at its end that
 * `strip` matches; `strip` is tested on one code point at a time.
 */
export function trimEdges(text: string, strip: RegExp, ends: "both" | "end" = "both"): string {
  let start = 0;
  if (ends === "both") {
    while (start < text.length) {
      const c = String.fromCodePoint(text.codePointAt(start)!);
      if (!strip.test(c)) break;
      start += c.length;
    }
  }
  let end = text.length;
  while (end > start) {
    const c = codePointBefore(text, end);
    if (!strip.test(c)) break;
    end -= c.length;
  }
  return text.slice(start, end);
}
