// Cropping in the viewer: a rectangle dragged over the photo, applied as a crop of the photo as it is shown.

export class Cropper {
  constructor(stage, onApply) {
    this.stage = stage;
    this.onApply = onApply;
    this.box = null;
  }

  start(image) {
    if (!image) return;
    this.cancel();
    const frame = image.getBoundingClientRect();
    const stageBox = this.stage.getBoundingClientRect();
    const overlay = document.createElement('div');
    overlay.className = 'crop-overlay';
    overlay.style.left = `${frame.left - stageBox.left}px`;
    overlay.style.top = `${frame.top - stageBox.top}px`;
    overlay.style.width = `${frame.width}px`;
    overlay.style.height = `${frame.height}px`;
    const rect = document.createElement('div');
    rect.className = 'crop-rect';
    const apply = document.createElement('button');
    apply.type = 'button';
    apply.textContent = 'Apply crop';
    apply.className = 'crop-apply';
    apply.disabled = true;
    overlay.append(rect, apply);
    this.stage.append(overlay);
    this.box = { overlay, rect, x: 0, y: 0, width: 0, height: 0 };
    overlay.addEventListener('pointerdown', (down) => {
      if (down.target === apply) return;
      overlay.setPointerCapture(down.pointerId);
      const origin = overlay.getBoundingClientRect();
      const startX = down.clientX - origin.left;
      const startY = down.clientY - origin.top;
      const move = (event) => {
        const x = Math.min(Math.max(event.clientX - origin.left, 0), origin.width);
        const y = Math.min(Math.max(event.clientY - origin.top, 0), origin.height);
        Object.assign(this.box, { x: Math.min(x, startX), y: Math.min(y, startY), width: Math.abs(x - startX), height: Math.abs(y - startY) });
        Object.assign(rect.style, { left: `${this.box.x}px`, top: `${this.box.y}px`, width: `${this.box.width}px`, height: `${this.box.height}px` });
        apply.disabled = this.box.width < 8 || this.box.height < 8;
      };
      overlay.addEventListener('pointermove', move);
      overlay.addEventListener('pointerup', () => overlay.removeEventListener('pointermove', move), { once: true });
    });
    apply.addEventListener('click', () => {
      const { width, height } = overlay.getBoundingClientRect();
      const crop = { x: this.box.x / width, y: this.box.y / height, width: this.box.width / width, height: this.box.height / height };
      this.cancel();
      this.onApply(crop);
    });
  }

  cancel() {
    this.box?.overlay.remove();
    this.box = null;
  }
}
