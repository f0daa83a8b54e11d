// The timeline: sections (days, or an album's runs) laid out in justified rows, with only the rows near the
// viewport in the document. Sections start at an estimated height, load their tiles as they near the viewport, and
// keep the photo at the top of the screen where it is when their real height is known.
import { justify, estimateHeight, lastAtOrBefore } from './layout.js';
import { viewIndex, viewSections, decodeTile, dayLabel } from './api.js';
import { makeTile, attachTileControls } from './tiles.js';

const GAP = 4;
const HEADER = 44;
/** Sections and rows this many screens above and below the viewport are kept ready. */
const AHEAD = 1;
/** Sections farther than this many screens away let go of their tiles (keeping their height), so that the page's
 *  memory stays flat however far it is scrolled. */
const KEPT = 10;

export class Timeline {
  constructor(scroller, canvas, { onOpen, onToggleSelect, isSelected, onIndexChange }) {
    this.scroller = scroller;
    this.canvas = canvas;
    this.onOpen = onOpen;
    this.onToggleSelect = onToggleSelect;
    this.isSelected = isSelected;
    this.onIndexChange = onIndexChange;
    this.sections = [];
    this.tops = [];
    this.total = 0;
    this.loading = new Set();
    this.view = null;
    this.token = null;
    this.generation = 0;
    this.scheduled = false;
    this.width = 0;
    scroller.addEventListener('scroll', () => this.schedule(), { passive: true });
    new ResizeObserver(() => this.resize()).observe(scroller);
    attachTileControls(canvas, { onOpen: (id) => this.onOpen?.(id), onToggleSelect: (id) => this.onToggleSelect?.(id) });
  }

  /** Shows a view from its index; resolves once its first screen is laid out. */
  async show(view) {
    this.generation++;
    const index = await viewIndex(view);
    this.view = view;
    this.grouping = index.grouping;
    this.canvas.replaceChildren();
    this.sections = index.sections.map(([key, count]) => this.makeSection(key, count));
    this.token = index.token;
    this.count = index.count;
    this.relayout();
    this.scroller.scrollTop = 0;
    this.update();
    this.onIndexChange?.(this);
    return index;
  }

  /** Fetches the view's index again and keeps what is still valid (after a reset). */
  async reload() {
    const anchor = this.anchor();
    const index = await viewIndex(this.view);
    this.applyIndex(index.sections);
    for (const section of this.sections) this.unload(section);
    this.token = index.token;
    this.count = index.count;
    this.relayout(anchor);
    this.update();
    this.onIndexChange?.(this);
  }

  /** Applies a `sections` event of the live stream. */
  applyEvent(event) {
    if (event.view !== this.view) return;
    const anchor = this.anchor();
    if (event.index) this.applyIndex(event.index);
    for (const changed of event.sections) {
      const section = this.sections.find((candidate) => candidate.key === changed.key);
      if (!section) continue;
      section.count = changed.count;
      if (changed.tiles) this.setTiles(section, changed.tiles.map(decodeTile)); else this.unload(section);
    }
    this.token = event.token;
    this.count = event.count;
    this.relayout(anchor);
    this.update();
    this.onIndexChange?.(this);
  }

  applyIndex(index) {
    const previous = new Map(this.sections.map((section) => [section.key, section]));
    this.sections = index.map(([key, count]) => {
      const kept = previous.get(key);
      previous.delete(key);
      if (kept && kept.count === count) return kept;
      if (kept) { kept.count = count; this.unload(kept); return kept; }
      return this.makeSection(key, count);
    });
    for (const gone of previous.values()) gone.element?.remove();
  }

  makeSection(key, count) {
    return { key, count, tiles: null, layout: null, height: 0, knownHeight: null, top: 0, element: null, rows: new Map() };
  }

  /** Drops the section's tiles, which changed: they are loaded again when it nears the viewport. */
  unload(section) {
    section.tiles = null;
    section.layout = null;
    section.knownHeight = null;
    this.clearRows(section);
  }

  /** Drops the tiles of a section far from the viewport, keeping the height they were laid out at. */
  forget(section) {
    section.knownHeight = section.layout.height;
    section.tiles = null;
    section.layout = null;
  }

  setTiles(section, tiles) {
    section.tiles = tiles;
    section.layout = justify(tiles, this.width, this.rowHeight, GAP);
    this.clearRows(section);
  }

  clearRows(section) {
    for (const row of section.rows.values()) for (const element of row) element.remove();
    section.rows.clear();
  }

  get rowHeight() { return this.width < 600 ? 110 : 180; }
  get headerHeight() { return this.grouping === 'day' ? HEADER : 0; }

  /** Positions every section from its laid-out or estimated height; keeps `anchor` at the top of the screen. */
  relayout(anchor) {
    this.width = this.canvas.clientWidth || this.scroller.clientWidth;
    let top = 0;
    this.tops = new Array(this.sections.length);
    for (let index = 0; index < this.sections.length; index++) {
      const section = this.sections[index];
      const body = section.layout?.height ?? section.knownHeight ?? estimateHeight(section.count, this.width, this.rowHeight, GAP);
      section.height = this.headerHeight + body + GAP * 4;
      section.top = top;
      this.tops[index] = top;
      top += section.height;
      if (section.element) this.placeSection(section);
    }
    this.total = top;
    this.canvas.style.height = `${top}px`;
    if (anchor?.atTop) {
      this.scroller.scrollTop = 0;
    } else if (anchor) {
      const section = this.sections.find((candidate) => candidate.key === anchor.key);
      if (section) this.scroller.scrollTop = section.top + Math.min(anchor.offset, section.height);
    }
  }

  /** The section at the top of the screen and how far into it the screen starts. A screen at the very top stays
   *  there (`atTop`), so that photos added above come into sight; anywhere else what is on screen stays put. */
  anchor() {
    if (!this.sections.length) return null;
    const section = this.sections[lastAtOrBefore(this.tops, this.scroller.scrollTop)];
    return { key: section.key, offset: this.scroller.scrollTop - section.top, atTop: this.scroller.scrollTop <= 0 };
  }

  resize() {
    const width = this.canvas.clientWidth || this.scroller.clientWidth;
    if (!width || width === this.width) return;
    const anchor = this.anchor();
    this.width = width;
    for (const section of this.sections) {
      section.knownHeight = null;
      if (section.tiles) this.setTiles(section, section.tiles);
    }
    this.relayout(anchor);
    this.update();
  }

  schedule() {
    if (this.scheduled) return;
    this.scheduled = true;
    requestAnimationFrame(() => { this.scheduled = false; this.update(); });
  }

  /** Loads the sections near the viewport, draws their rows in sight, and drops the rest from the document. */
  update() {
    if (!this.sections.length) return;
    const screen = this.scroller.clientHeight;
    const from = this.scroller.scrollTop - screen * AHEAD;
    const to = this.scroller.scrollTop + screen * (1 + AHEAD);
    const onScreen = { from: this.scroller.scrollTop, to: this.scroller.scrollTop + screen };
    const wanted = new Set();
    const missing = [];
    for (let index = lastAtOrBefore(this.tops, Math.max(0, from)); index < this.sections.length; index++) {
      const section = this.sections[index];
      if (section.top > to) break;
      wanted.add(section);
      if (!section.tiles && !this.loading.has(section.key)) missing.push(section.key);
      this.drawSection(section, { from, to }, onScreen);
    }
    for (const section of this.sections) {
      if (section.element && !wanted.has(section)) {
        this.clearRows(section);
        section.element.remove();
        section.element = null;
      }
      const far = section.top + section.height < from - screen * KEPT || section.top > to + screen * KEPT;
      if (far && section.layout && !this.loading.has(section.key)) this.forget(section);
    }
    if (missing.length) this.load(missing);
  }

  async load(keys) {
    const generation = this.generation;
    for (const key of keys) this.loading.add(key);
    try {
      const answer = await viewSections(this.view, keys.slice(0, 200));
      if (generation !== this.generation) return;
      const anchor = this.anchor();
      for (const loaded of answer.sections) {
        const section = this.sections.find((candidate) => candidate.key === loaded.key);
        if (section && loaded.tiles) {
          section.count = loaded.count;
          this.setTiles(section, loaded.tiles.map(decodeTile));
        }
      }
      this.relayout(anchor);
    } finally {
      for (const key of keys) this.loading.delete(key);
    }
    this.update();
  }

  placeSection(section) {
    section.element.style.transform = `translateY(${section.top}px)`;
    section.element.style.height = `${section.height}px`;
  }

  /** Draws the rows of `section` within `sight` ({from, to}); the pictures of those within `screen` come first. */
  drawSection(section, sight, screen) {
    if (!section.element) {
      const element = document.createElement('section');
      element.className = 'day';
      element.dataset.section = section.key;
      const label = dayLabel(section.key);
      if (this.grouping === 'day') {
        const heading = document.createElement('h2');
        heading.textContent = label;
        element.append(heading);
        element.setAttribute('aria-label', label);
      }
      section.element = element;
      this.placeSection(section);
      this.canvas.append(element);
    }
    section.element.classList.toggle('loading', !section.layout);
    if (!section.layout) return;
    const origin = section.top + this.headerHeight;
    const within = (row, range) => origin + row.top + row.height >= range.from && origin + row.top <= range.to;
    section.layout.rows.forEach((row, rowIndex) => {
      const inSight = within(row, sight);
      const drawn = section.rows.get(rowIndex);
      if (inSight && !drawn) {
        const onScreen = within(row, screen);
        section.rows.set(rowIndex, row.items.map((item) => {
          const tile = section.tiles[item.index];
          const element = makeTile(tile, { left: item.left, top: this.headerHeight + row.top, width: item.width, height: row.height },
            section.key, this.isSelected?.(tile.id), onScreen);
          section.element.append(element);
          return element;
        }));
      } else if (!inSight && drawn) {
        for (const element of drawn) element.remove();
        section.rows.delete(rowIndex);
      }
    });
  }

  tile(id) {
    for (const section of this.sections) {
      const found = section.tiles?.find((tile) => tile.id === id);
      if (found) return found;
    }
    return null;
  }

  /** The tile `step` places after (or before) `id` in the view, loading the next section when needed. */
  async neighbor(id, step) {
    let sectionIndex = this.sections.findIndex((section) => section.tiles?.some((tile) => tile.id === id));
    if (sectionIndex < 0) return null;
    let position = this.sections[sectionIndex].tiles.findIndex((tile) => tile.id === id) + step;
    while (true) {
      const section = this.sections[sectionIndex];
      if (position >= 0 && position < section.tiles.length) return section.tiles[position];
      sectionIndex += step;
      const next = this.sections[sectionIndex];
      if (!next) return null;
      if (!next.tiles) await this.load([next.key]);
      if (!next.tiles) return null;
      position = step > 0 ? 0 : next.tiles.length - 1;
    }
  }
}
