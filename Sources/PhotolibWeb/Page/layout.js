// Justified rows: each row is filled edge to edge at about the target height, every photo keeping its shape.

/** The rows of `tiles` (each with w and h) across `width` pixels: [{top, height, items: [{index, left, width}]}],
 *  and the total height. The last row keeps the target height instead of being stretched, and no row is taller
 *  than its tallest picture's pixels: a row of small pictures is not blown up to fill the width. */
export function justify(tiles, width, targetHeight, gap) {
  const rows = [];
  let row = [];
  let aspectSum = 0;
  let top = 0;
  const close = (stretch) => {
    const gaps = gap * (row.length - 1);
    let height = stretch ? (width - gaps) / aspectSum : targetHeight;
    height = Math.min(height, targetHeight * 2.5, Math.max(...row.map((index) => pixelHeight(tiles[index]))));
    let left = 0;
    const items = row.map((index) => {
      const tile = tiles[index];
      const itemWidth = height * aspect(tile);
      const item = { index, left, width: itemWidth };
      left += itemWidth + gap;
      return item;
    });
    rows.push({ top, height, items });
    top += height + gap;
    row = [];
    aspectSum = 0;
  };
  for (let index = 0; index < tiles.length; index++) {
    row.push(index);
    aspectSum += aspect(tiles[index]);
    if (aspectSum * targetHeight + gap * (row.length - 1) >= width) close(true);
  }
  if (row.length) close(false);
  return { rows, height: Math.max(0, top - gap) };
}

/** The tile's picture's height in pixels, or Infinity for audio, whose picture is drawn to any size. */
export function pixelHeight(tile) {
  return tile.type === 'audio' ? Infinity : tile.h;
}

/** Whether the tile's `box` is larger than its picture's pixels, which are then shown at their size, not enlarged. */
export function exceedsPixels(tile, box) {
  return tile.type !== 'audio' && (box.width > tile.w || box.height > tile.h);
}

/** Width over height, kept within panorama-friendly bounds so that no tile is a sliver. */
export function aspect(tile) {
  return Math.min(Math.max(tile.w / tile.h, 0.4), 4);
}

/** The height a section of `count` photos will probably take before its tiles are known. */
export function estimateHeight(count, width, targetHeight, gap) {
  const perRow = Math.max(1, Math.floor((width + gap) / (targetHeight * 1.4 + gap)));
  const rows = Math.ceil(count / perRow);
  return rows * (targetHeight + gap) - gap;
}

/** The index of the last item whose start is at or before `position` in a sorted array of starts. */
export function lastAtOrBefore(starts, position) {
  let low = 0;
  let high = starts.length - 1;
  let found = 0;
  while (low <= high) {
    const middle = (low + high) >> 1;
    if (starts[middle] <= position) { found = middle; low = middle + 1; } else { high = middle - 1; }
  }
  return found;
}
