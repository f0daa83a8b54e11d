// The viewer: one photo fitted to the screen (zoom to its full size), previous/next with the arrow keys, Escape
// to close, videos playing in the page, the info panel, and the photo's actions.
import { assetInfo, change, imageURL } from './api.js';
import { renderInfo } from './info.js';
import { Cropper } from './crop.js';
import { VideoPlayer } from './video.js';

export class Viewer {
  constructor(dialog, { timeline, albums, onError, onClose }) {
    this.dialog = dialog;
    this.timeline = timeline;
    this.albums = albums;
    this.onError = onError;
    this.onClose = onClose;
    this.stage = dialog.querySelector('.stage');
    this.panel = dialog.querySelector('.info');
    this.message = dialog.querySelector('.viewer-message');
    this.tile = null;
    this.player = null;
    this.zoom = 1;
    this.cropper = new Cropper(this.stage, (rect) => this.act({ action: 'edit', crop: rect }));
    dialog.addEventListener('click', (event) => {
      const control = event.target.closest('[data-action]');
      if (control && !control.disabled) this.perform(control.dataset.action, control);
    });
    dialog.addEventListener('keydown', (event) => this.key(event));
    dialog.addEventListener('close', () => { this.stopVideo(); this.stage.replaceChildren(); this.tile = null; this.onClose?.(); });
    this.stage.addEventListener('dblclick', () => this.setZoom(this.zoom === 1 ? 2 : 1));
  }

  get isOpen() { return this.dialog.open; }

  async open(id) {
    const tile = this.timeline.tile(id);
    if (!tile) return;
    this.tile = tile;
    this.zoom = 1;
    this.cropper.cancel();
    if (!this.dialog.open) this.dialog.showModal();
    this.draw();
    this.refreshInfo();
  }

  /** Redraws after a live change of the shown asset (a new version, a favorite set elsewhere). */
  refresh() {
    if (!this.tile) return;
    const current = this.timeline.tile(this.tile.id);
    if (!current) return;
    const versionChanged = current.version !== this.tile.version;
    this.tile = current;
    if (versionChanged) this.draw(); else this.drawControls();
    this.refreshInfo();
  }

  draw() {
    const tile = this.tile;
    this.message.hidden = true;
    this.stopVideo();
    if (tile.type === 'video') {
      this.player = new VideoPlayer(tile, this.stage, (text) => this.say(text));
    } else {
      const image = document.createElement('img');
      image.alt = this.timeline.canvas.querySelector(`[data-asset-id="${CSS.escape(tile.id)}"] img`)?.alt ?? 'Photo';
      image.src = imageURL(tile, this.zoom > 1 ? 'full' : 2048);
      image.style.setProperty('--zoom', this.zoom);
      this.stage.replaceChildren(image);
      this.stage.classList.toggle('zoomed', this.zoom > 1);
    }
    this.drawControls();
  }

  drawControls() {
    const tile = this.tile;
    const favorite = this.dialog.querySelector('[data-action="favorite"]');
    favorite.setAttribute('aria-pressed', String(tile.favorite));
    favorite.textContent = tile.favorite ? '♥' : '♡';
    favorite.setAttribute('aria-label', tile.favorite ? 'Remove from favorites' : 'Add to favorites');
    const hide = this.dialog.querySelector('[data-action="hide"]');
    hide.textContent = tile.hidden ? 'Unhide' : 'Hide';
    this.dialog.querySelector('[data-action="trash"]').hidden = tile.trashed;
    this.dialog.querySelector('[data-action="restore"]').hidden = !tile.trashed;
    for (const edit of this.dialog.querySelectorAll('.edit-control')) edit.disabled = tile.type !== 'image';
    this.dialog.querySelector('[data-action="revert"]').disabled = !tile.version.startsWith('e');
    this.dialog.querySelector('[data-action="download"]').href = `/original/${tile.id}?download=1`;
    const select = this.dialog.querySelector('select[name="album"]');
    select.replaceChildren(new Option('Add to album…', ''), ...this.albums().map((album) => new Option(album.title, album.id)));
  }

  async refreshInfo() {
    if (this.panel.hidden || !this.tile) return;
    const id = this.tile.id;
    try {
      const info = await assetInfo(id);
      if (this.tile?.id === id) renderInfo(this.panel, info, { onError: this.onError });
    } catch (error) {
      this.panel.textContent = error.message;
    }
  }

  stopVideo() {
    this.player?.close();
    this.player = null;
  }

  say(text) {
    this.message.textContent = text;
    this.message.hidden = false;
  }

  setZoom(zoom) {
    if (this.tile?.type !== 'image') return;
    this.zoom = Math.min(Math.max(zoom, 1), 8);
    const image = this.stage.querySelector('img');
    if (!image) return;
    if (this.zoom > 1 && !image.src.endsWith('/full')) image.src = imageURL(this.tile, 'full');
    image.style.setProperty('--zoom', this.zoom);
    this.stage.classList.toggle('zoomed', this.zoom > 1);
  }

  async step(by) {
    if (!this.tile) return;
    const next = await this.timeline.neighbor(this.tile.id, by);
    if (next) this.open(next.id);
  }

  key(event) {
    if (event.target.closest('input, select, textarea')) return;
    const keys = {
      ArrowLeft: () => this.step(-1), ArrowRight: () => this.step(1),
      '+': () => this.setZoom(this.zoom * 2), '=': () => this.setZoom(this.zoom * 2), '-': () => this.setZoom(this.zoom / 2),
      i: () => this.perform('info'),
    };
    if (keys[event.key]) { event.preventDefault(); keys[event.key](); }
  }

  async perform(action, control) {
    const tile = this.tile;
    if (!tile) return;
    switch (action) {
      case 'close': this.dialog.close(); break;
      case 'previous': this.step(-1); break;
      case 'next': this.step(1); break;
      case 'zoom': this.setZoom(this.zoom === 1 ? 2 : 1); break;
      case 'info':
        this.panel.hidden = !this.panel.hidden;
        this.dialog.querySelector('[data-action="info"]').setAttribute('aria-pressed', String(!this.panel.hidden));
        this.refreshInfo();
        break;
      case 'favorite': await this.act({ action: 'favorite', value: !tile.favorite }, () => { tile.favorite = !tile.favorite; }); break;
      case 'hide': await this.act({ action: 'hide', value: !tile.hidden }, () => { tile.hidden = !tile.hidden; }); break;
      case 'trash': await this.act({ action: 'trash' }, () => { tile.trashed = true; }); break;
      case 'restore': await this.act({ action: 'restore' }, () => { tile.trashed = false; }); break;
      case 'rotate-left': await this.act({ action: 'edit', rotate: 270 }); break;
      case 'rotate-right': await this.act({ action: 'edit', rotate: 90 }); break;
      case 'crop': this.cropper.start(this.stage.querySelector('img')); break;
      case 'revert': await this.act({ action: 'revert' }); break;
      case 'add-to-album': {
        const album = this.dialog.querySelector('select[name="album"]').value;
        if (album) await this.act({ action: 'addToAlbum', album });
        break;
      }
      default: if (control?.tagName === 'A') return;
    }
  }

  /** Sends an action for the shown asset; `done` updates the viewer at once (the live stream confirms). */
  async act(body, done) {
    try {
      await change({ ids: [this.tile.id], ...body });
      done?.();
      this.drawControls();
    } catch (error) {
      this.onError(error.message);
    }
  }
}
