// Importing files dropped on the page (or chosen with the Import button): one request per file, with its progress,
// and the daemon's verdict shown beside it (a file that is not a photo or video says so; nothing is half-imported).

const VERDICTS = {
  imported: 'Imported',
  duplicate: 'Already in the library',
  unsupported: 'Not a photo, video or sound file the library takes',
  failed: 'Could not be imported',
};

export class Uploads {
  constructor(list, dropZone) {
    this.list = list;
    this.dropZone = dropZone;
    this.queue = Promise.resolve();
    let depth = 0;
    const hasFiles = (event) => [...(event.dataTransfer?.types ?? [])].includes('Files');
    document.addEventListener('dragenter', (event) => { if (hasFiles(event)) { depth++; dropZone.hidden = false; } });
    document.addEventListener('dragleave', (event) => { if (hasFiles(event) && --depth <= 0) { depth = 0; dropZone.hidden = true; } });
    document.addEventListener('dragover', (event) => { if (hasFiles(event)) event.preventDefault(); });
    document.addEventListener('drop', (event) => {
      if (!hasFiles(event)) return;
      event.preventDefault();
      depth = 0;
      dropZone.hidden = true;
      this.add([...event.dataTransfer.files]);
    });
    document.addEventListener('gallery-files', (event) => this.add(event.detail));
  }

  /** Sends the files one after another. */
  add(files) {
    for (const file of files) {
      const entry = this.entry(file);
      this.queue = this.queue.then(() => this.send(file, entry));
    }
  }

  entry(file) {
    const item = document.createElement('li');
    item.className = 'upload';
    const name = document.createElement('span');
    name.className = 'name';
    name.textContent = file.name;
    const progress = document.createElement('progress');
    progress.max = file.size || 1;
    progress.value = 0;
    progress.setAttribute('aria-label', `Uploading ${file.name}`);
    const state = document.createElement('span');
    state.className = 'state';
    state.textContent = 'Waiting';
    item.append(name, progress, state);
    this.list.append(item);
    this.list.hidden = false;
    return { item, progress, state };
  }

  send(file, { item, progress, state }) {
    return new Promise((resolve) => {
      const request = new XMLHttpRequest();
      request.open('POST', `/api/uploads?name=${encodeURIComponent(file.name)}`);
      request.upload.addEventListener('progress', (event) => {
        progress.value = event.loaded;
        state.textContent = `${Math.round((event.loaded / (event.total || 1)) * 100)} %`;
      });
      request.upload.addEventListener('load', () => { state.textContent = 'Importing…'; });
      const finish = (ok, text) => {
        item.classList.add(ok ? 'done' : 'error');
        progress.value = progress.max;
        state.textContent = text;
        if (ok) setTimeout(() => { item.remove(); this.list.hidden = !this.list.children.length; }, 4000);
        resolve();
      };
      request.addEventListener('load', () => {
        let answer = {};
        try { answer = JSON.parse(request.responseText); } catch { /* not JSON */ }
        const verdict = VERDICTS[answer.status] ?? answer.error ?? `The gallery answered ${request.status}`;
        const ok = answer.status === 'imported' || answer.status === 'duplicate';
        finish(ok, ok ? verdict : `${verdict}${answer.error ? `: ${answer.error}` : ''}`);
      });
      request.addEventListener('error', () => finish(false, 'The upload broke off'));
      request.send(file);
    });
  }
}
