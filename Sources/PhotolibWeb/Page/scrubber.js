// The date scrubber: the view's years and months along the right edge, where they fall in the scroll height.
// Dragging or clicking scrolls there; the years are buttons, so the keyboard reaches them too.

export class Scrubber {
  constructor(element, timeline) {
    this.element = element;
    this.timeline = timeline;
    this.hint = document.createElement('div');
    this.hint.className = 'scrub-hint';
    this.hint.setAttribute('aria-hidden', 'true');
    element.addEventListener('pointerdown', (event) => {
      if (event.target.closest('button')) return;
      element.setPointerCapture(event.pointerId);
      this.scrubTo(event);
      const move = (moved) => this.scrubTo(moved);
      element.addEventListener('pointermove', move);
      element.addEventListener('pointerup', () => {
        element.removeEventListener('pointermove', move);
        this.hint.hidden = true;
      }, { once: true });
    });
    element.addEventListener('click', (event) => {
      const button = event.target.closest('button[data-month]');
      if (button) jumpTo(timeline, button.dataset.month);
    });
  }

  scrubTo(event) {
    const box = this.element.getBoundingClientRect();
    const fraction = Math.min(Math.max((event.clientY - box.top) / box.height, 0), 1);
    const scroller = this.timeline.scroller;
    scroller.scrollTop = fraction * (this.timeline.total - scroller.clientHeight);
    const anchor = this.timeline.anchor();
    this.hint.hidden = false;
    this.hint.style.top = `${event.clientY - box.top}px`;
    this.hint.textContent = anchor ? monthLabel(anchor.key) : '';
  }

  /** Draws the years (and months when there is room) of the timeline's sections. */
  render() {
    const { sections, total } = this.timeline;
    const marks = [];
    if (this.timeline.grouping === 'day' && total > 0) {
      const height = this.element.clientHeight || 1;
      let lastMonth = null;
      let lastYear = null;
      let lastPlaced = -Infinity;
      for (const section of sections) {
        const month = section.key.slice(0, 7);
        if (!/^\d{4}-\d{2}$/.test(month) || month === lastMonth) continue;
        lastMonth = month;
        const year = month.slice(0, 4);
        const y = (section.top / total) * height;
        const isYear = year !== lastYear;
        lastYear = year;
        if (y - lastPlaced < (isYear ? 14 : 22)) continue;
        lastPlaced = y;
        const mark = document.createElement(isYear ? 'button' : 'span');
        mark.className = isYear ? 'year' : 'month';
        mark.style.top = `${y}px`;
        mark.dataset.month = month;
        if (isYear) {
          mark.type = 'button';
          mark.textContent = year;
          mark.setAttribute('aria-label', `Go to ${year}`);
        } else {
          mark.setAttribute('aria-hidden', 'true');
        }
        marks.push(mark);
      }
    }
    this.element.replaceChildren(...marks, this.hint);
    this.hint.hidden = true;
  }
}

const monthFormat = new Intl.DateTimeFormat(undefined, { month: 'long', year: 'numeric', timeZone: 'UTC' });

function monthLabel(key) {
  const match = /^(\d{4})-(\d{2})/.exec(key);
  return match ? monthFormat.format(new Date(Date.UTC(+match[1], +match[2] - 1, 1))) : '';
}

/** Scrolls the timeline to the first section whose key starts with `prefix` (a month, `YYYY-MM`), or to the
 *  nearest older one. */
export function jumpTo(timeline, prefix) {
  const section = timeline.sections.find((candidate) => candidate.key.startsWith(prefix))
    ?? timeline.sections.find((candidate) => candidate.key < prefix);
  if (!section) return false;
  timeline.scroller.scrollTop = section.top;
  timeline.update();
  return true;
}

/** Resolves once every tile on screen has its picture decoded (what "filled" means to the benchmark); the tiles
 *  drawn ahead of the scrolling, above and below the screen, may still be on their way. */
export function whenFilled(timeline) {
  return new Promise((resolve) => {
    const check = () => {
      const top = timeline.scroller.scrollTop;
      const bottom = top + timeline.scroller.clientHeight;
      const pending = timeline.sections.some((section) => section.top < bottom && section.top + section.height > top && !section.tiles);
      const screen = timeline.scroller.getBoundingClientRect();
      const images = [...timeline.canvas.querySelectorAll('.tile img')].filter((image) => {
        const box = image.getBoundingClientRect();
        return box.bottom > screen.top && box.top < screen.bottom;
      });
      const unfinished = images.some((image) => !image.complete || image.naturalWidth === 0);
      if (!pending && images.length && !unfinished) resolve(); else requestAnimationFrame(check);
    };
    check();
  });
}
