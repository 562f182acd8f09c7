// Keyboard movement in the thread lists (the virtualized list and search results): pure, so it is tested in Node.

/** The row a key moves focus to from row `index` of `count`, or undefined for a key that does not move it. */
export function keyTarget(key: string, index: number, count: number, pageRows: number): number | undefined {
  if (count === 0) return undefined;
  const last = count - 1;
  switch (key) {
    case "ArrowDown":
      return Math.min(last, index + 1);
    case "ArrowUp":
      return Math.max(0, index - 1);
    case "Home":
      return 0;
    case "End":
      return last;
    case "PageDown":
      return Math.min(last, index + pageRows);
    case "PageUp":
      return Math.max(0, index - pageRows);
    default:
      return undefined;
  }
}
