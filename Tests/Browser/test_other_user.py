"""A gallery that may not open the library's files (contract §11: the system service's files are its user's alone),
in a real browser: photolib-web runs as `nobody` against a daemon run by root whose policy lets `nobody` in, and every
byte (thumbnails, originals, videos, uploads) goes through the daemon's socket. Running as another user takes root."""
import hashlib
import json
import os
import subprocess

import pytest
from selenium.webdriver.common.by import By

from harness import Gallery, make_photo, make_video
from page import assets, close_viewer, new_browser, open_viewer, tile_ids, wait_for

NOBODY = 65534
DRAWN = """const images = [...document.querySelectorAll('[data-asset-id] img')];
    return images.length && images.every(i => i.complete && i.naturalWidth > 0)
        ? images.map(i => i.closest('[data-asset-id]').dataset.assetId) : null"""

pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="running photolib-web as another user takes root")


@pytest.fixture(scope="module")
def library():
    gallery = Gallery(extra_config=f"[access]\nusers = [{NOBODY}]\n")
    os.chmod(gallery.directory, 0o755)  # the socket's folder: the library's own folders stay the daemon's
    photos = os.path.join(gallery.directory, "photos")
    os.makedirs(photos)
    paths = [make_photo(f"{photos}/IMG_{index:03}.jpg", index, f"2024:07:{1 + index:02}:10:00:00") for index in range(6)]
    paths.append(make_video(f"{photos}/clip.mp4", taken="2024-07-10T10:00:00Z"))
    gallery.start_daemon()
    gallery.import_files(paths)
    gallery.start_web(uid=NOBODY)
    browser = new_browser(gallery.url)
    yield gallery, browser
    browser.quit()
    gallery.close()


def test_the_gallery_user_cannot_open_the_librarys_files(library):
    gallery, _ = library
    stored = json.loads(gallery.photolib("info", assets(gallery)[0]["id"], "--json").stdout)["asset"]["resources"][0]["path"]
    opened = subprocess.run(["setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups", "cat", stored],
                            capture_output=True)
    assert opened.returncode != 0, "the daemon's files are its user's alone"


def test_thumbnails_and_an_original_come_through_the_socket(library):
    gallery, browser = library
    # Only the rows near the viewport are in the document (seven days do not fit): scroll through to draw every tile.
    expected, drawn = {a["id"] for a in assets(gallery)}, set()

    def drawn_in_sight(driver):
        ids = driver.execute_script(DRAWN)
        drawn.update(ids or ())
        return ids
    wait_for(browser, drawn_in_sight, message="the first thumbnails drawn")
    browser.execute_script("const s = document.querySelector('#scroller'); s.scrollTop = s.scrollHeight")
    wait_for(browser, lambda d: drawn_in_sight(d) and drawn == expected, message="every thumbnail drawn")
    browser.execute_script("document.querySelector('#scroller').scrollTop = 0")
    photo = next(a for a in assets(gallery) if a["mediaType"] == "image")
    digest = browser.execute_async_script("""const done = arguments[arguments.length - 1];
        fetch('/original/' + arguments[0]).then(r => r.arrayBuffer()).then(b => crypto.subtle.digest('SHA-256', b))
            .then(h => done([...new Uint8Array(h)].map(x => x.toString(16).padStart(2, '0')).join('')));""", photo["id"])
    original = os.path.join(gallery.directory, "photos", photo["originalFilename"])
    assert digest == hashlib.sha256(open(original, "rb").read()).hexdigest()


def test_a_video_plays_and_seeks_through_the_socket(library):
    gallery, browser = library
    video = next(a for a in assets(gallery) if a["mediaType"] == "video")
    open_viewer(browser, video["id"])
    wait_for(browser, lambda d: d.execute_script("const v = document.querySelector('#viewer video'); return v && v.readyState >= 1"))
    browser.execute_script("""const video = document.querySelector('#viewer video');
        window.seeked = false;
        video.addEventListener('seeked', () => { window.seeked = true; }, { once: true });
        video.currentTime = 4;""")
    wait_for(browser, lambda d: d.execute_script("return window.seeked"), message="the player seeked")
    assert 3.5 <= browser.execute_script("return document.querySelector('#viewer video').currentTime") <= 4.5
    close_viewer(browser)


def test_a_dropped_file_is_uploaded_through_the_socket_and_a_bad_one_refused(library):
    gallery, browser = library
    count = len(assets(gallery))
    good = make_photo(os.path.join(gallery.directory, "sent.jpg"), 90, "2024:07:20:10:00:00")
    before = set(tile_ids(browser))
    browser.find_element(By.CSS_SELECTOR, "#upload-input").send_keys(good)
    wait_for(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#uploads .upload.done"), message="the upload is imported")
    wait_for(browser, lambda d: len(set(tile_ids(d)) - before) == 1, message="its tile")
    assert len(assets(gallery)) == count + 1
    garbage = os.path.join(gallery.directory, "garbage.mov")
    with open(garbage, "wb") as file:
        file.write(os.urandom(30000))
    browser.find_element(By.CSS_SELECTOR, "#upload-input").send_keys(garbage)
    wait_for(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#uploads .upload.error"), message="the refusal is shown")
    assert "garbage.mov" in browser.find_element(By.CSS_SELECTOR, "#uploads .upload.error").text
    assert len(assets(gallery)) == count + 1
