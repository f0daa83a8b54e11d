"""Videos the browser cannot decode, in a real browser: an HEVC video is converted by the daemon (ExportVideo) while
the viewer says so, then plays and seeks; a broken one shows the daemon's reason."""
import json
import os

from harness import make_video
from page import assets, close_viewer, open_timeline, open_viewer, tile_ids, wait_for

WATCH_STATUS = """window.preparingShown = false;
    new MutationObserver(() => { if (document.querySelector('#viewer .video-status:not([hidden])')?.textContent.includes('Preparing'))
        window.preparingShown = true; }).observe(document.querySelector('#viewer'), {childList: true, subtree: true, characterData: true});"""


def imported_video(gallery, browser, name, **options):
    path = make_video(os.path.join(gallery.directory, name), seconds=6, taken="2024-06-02T09:00:00Z", **options)
    gallery.import_files([path])
    open_timeline(browser, gallery)
    asset_id = next(a["id"] for a in assets(gallery) if a["originalFilename"] == name)
    wait_for(browser, lambda d: asset_id in tile_ids(d), message="the video's tile")
    return asset_id


def test_an_hevc_video_is_converted_while_the_viewer_says_so_then_plays_and_seeks(gallery, browser):
    assert browser.execute_script("return document.createElement('video').canPlayType('video/mp4; codecs=\"hvc1.1.6.L93.B0\"')") == "", \
        "this Chromium decodes HEVC itself: the test would not reach the conversion"
    asset_id = imported_video(gallery, browser, "hevc.mp4", codec="libx265")
    browser.execute_script(WATCH_STATUS)
    open_viewer(browser, asset_id)
    wait_for(browser, lambda d: d.execute_script("""const v = document.querySelector('#viewer video');
        return v && v.currentSrc.endsWith('/converted') && v.readyState >= 1"""), timeout=60, message="the converted video")
    assert browser.execute_script("return window.preparingShown"), "the viewer said it was preparing the video"
    browser.execute_script("""const video = document.querySelector('#viewer video');
        window.seeked = false;
        video.addEventListener('seeked', () => { window.seeked = true; }, { once: true });
        video.currentTime = 4;""")
    wait_for(browser, lambda d: d.execute_script("return window.seeked"), message="the player seeked")
    assert 3.5 <= browser.execute_script("return document.querySelector('#viewer video').currentTime") <= 4.5
    browser.execute_script("document.querySelector('#viewer video').play()")
    wait_for(browser, lambda d: d.execute_script("return document.querySelector('#viewer video').currentTime") > 4.6, message="it plays")
    assert browser.execute_script("return document.querySelector('#viewer .viewer-message').hidden")
    close_viewer(browser)


def test_a_broken_video_shows_the_daemons_reason(gallery, browser):
    asset_id = imported_video(gallery, browser, "broken.mp4", faststart=False)
    stored = json.loads(gallery.photolib("info", asset_id, "--json").stdout)["asset"]["resources"][0]["path"]
    os.truncate(stored, os.path.getsize(stored) // 2)  # its index was at the end: nothing can read it now
    open_viewer(browser, asset_id)
    message = wait_for(browser, lambda d: (lambda m: m.text if m.is_displayed() else None)(
        d.find_element("css selector", "#viewer .viewer-message")), timeout=60, message="the reason shown")
    assert "cannot be played" in message and "export failed" in message
    close_viewer(browser)
