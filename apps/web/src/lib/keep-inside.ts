/** A box on screen, in the pixels of getBoundingClientRect. */
export interface ScreenBox {
  left: number;
  right: number;
  top: number;
  bottom: number;
}

/**
 * How far to move a floating element along one axis so that it lies between `min` and `max`
 * (screen pixels, e.g. the window's edges) with `margin` to spare: 0 when it already does. When it
 * is larger than the room, its start wins, so the beginning of its text stays readable.
 */
export function shiftInto(start: number, end: number, min: number, max: number, margin = 8): number {
  if (start < min + margin) return min + margin - start;
  if (end > max - margin) return Math.max(max - margin - end, min + margin - start);
  return 0;
}

/**
 * The part of the window in which an element's descendants can be seen: the window cut down by
 * every ancestor that clips its overflow (a scrolling map box, a pan-and-zoom frame).
 */
export function visibleBox(element: Element): ScreenBox {
  const box = { left: 0, top: 0, right: document.documentElement.clientWidth, bottom: document.documentElement.clientHeight };
  for (let parent = element.parentElement; parent && parent !== document.body; parent = parent.parentElement) {
    const style = getComputedStyle(parent);
    if (style.overflowX === "visible" && style.overflowY === "visible") continue;
    const rect = parent.getBoundingClientRect();
    box.left = Math.max(box.left, rect.left);
    box.top = Math.max(box.top, rect.top);
    box.right = Math.min(box.right, rect.right);
    box.bottom = Math.min(box.bottom, rect.bottom);
  }
  return box;
}
