// A video in the viewer: its own file first; when the browser cannot decode it (HEVC, ProRes), the daemon's export
// to H.264, with its progress shown while it is made, or the daemon's reason when it cannot be made.
import { imageURL } from './api.js';

export class VideoPlayer {
  /** Plays `tile`'s video in `stage`; `say` shows a message that needs the viewer's attention. */
  constructor(tile, stage, say) {
    this.tile = tile;
    this.say = say;
    this.aborter = new AbortController();
    this.video = document.createElement('video');
    this.video.controls = true;
    this.video.preload = 'metadata';
    this.video.poster = imageURL(tile, 1024);
    this.status = document.createElement('div');
    this.status.className = 'video-status';
    this.status.setAttribute('role', 'status');
    this.status.hidden = true;
    this.converted = false;
    const undecodable = () => {
      if (!this.converted) this.convert();
      else this.say('The browser cannot play this video, even as the library converted it. Download the original to watch it.');
    };
    this.video.addEventListener('error', undecodable);
    // Chromium plays a video whose picture it cannot decode (HEVC) as its sound alone, without an error.
    this.video.addEventListener('loadedmetadata', () => { if (this.video.videoWidth === 0) undecodable(); });
    this.video.src = `/video/${tile.id}`;
    stage.replaceChildren(this.video, this.status);
  }

  /** Stops a conversion in progress (the daemon stops its export). */
  close() { this.aborter.abort(); }

  /** Asks the gallery for the video in H.264, shows how far the daemon is, and plays it once made. */
  async convert() {
    this.converted = true;
    const progress = document.createElement('progress');
    progress.max = 1;
    progress.value = 0;
    const label = document.createElement('span');
    label.textContent = 'Preparing this video for the browser…';
    this.status.replaceChildren(label, progress);
    this.status.hidden = false;
    try {
      const response = await fetch(`/api/videos/${this.tile.id}/conversion`, { signal: this.aborter.signal });
      if (!response.ok) throw new Error((await response.json().catch(() => ({}))).error ?? `the gallery answered ${response.status}`);
      for await (const line of lines(response.body)) {
        if (line.progress != null) {
          progress.value = line.progress;
          label.textContent = `Preparing this video for the browser… ${Math.round(line.progress * 100)} %`;
        } else if (line.ready) {
          this.status.hidden = true;
          this.video.src = line.ready;
          this.video.load();
          return;
        } else if (line.error) {
          throw new Error(line.error);
        }
      }
      throw new Error('the gallery stopped answering');
    } catch (error) {
      if (this.aborter.signal.aborted) return;
      this.status.hidden = true;
      this.say(`This video cannot be played: ${error.message}. Download the original to watch it elsewhere.`);
    }
  }
}

/** The JSON objects of a body of lines of JSON, as they arrive. */
async function* lines(body) {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  let pending = '';
  while (true) {
    const { value, done } = await reader.read();
    if (done) break;
    pending += value;
    let end;
    while ((end = pending.indexOf('\n')) >= 0) {
      const line = pending.slice(0, end).trim();
      pending = pending.slice(end + 1);
      if (line) yield JSON.parse(line);
    }
  }
}
