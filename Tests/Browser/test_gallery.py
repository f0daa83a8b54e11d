"""The gallery in a real browser (Debian's chromium through chromedriver), on the real daemon and photolib-web.

Run by scripts/test after `swift build`; PHOTOLIBD_PRODUCTS names the folder of the built programs.
"""
import json
import os
import stat
import time
import urllib.error
import urllib.request

from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from harness import ROOT, make_photo
from page import assets, close_viewer, open_timeline, open_viewer, press_sidebar, sidebar_count, tile_ids, wait_for

def test_the_grid_shows_every_photo_newest_first_with_the_test_hooks(gallery, browser):
    library = assets(gallery)
    # Only the rows near the viewport are in the document: scroll through to have every section loaded.
    browser.execute_script("const s = document.querySelector('#scroller'); s.scrollTop = s.scrollHeight")
    loaded = "return window.gallery.timeline.sections.flatMap(s => s.tiles ? s.tiles.map(t => t.id) : [null])"
    wait_for(browser, lambda d: len(d.execute_script(loaded)) == len(library) and None not in d.execute_script(loaded),
             message="every section loaded")
    shown = browser.execute_script(loaded)
    browser.execute_script("document.querySelector('#scroller').scrollTop = 0")
    wait_for(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "[data-asset-id] img"))
    newest_first = [asset["id"] for asset in sorted(library, key=lambda asset: asset["creationDate"], reverse=True)]
    assert shown == newest_first
    assert browser.find_elements(By.CSS_SELECTOR, "#collections [data-collection-id]")
    assert browser.find_elements(By.CSS_SELECTOR, "section.day h2")
    images = browser.find_elements(By.CSS_SELECTOR, "[data-asset-id] img")
    assert all(image.get_attribute("alt") for image in images)
    wait_for(browser, lambda d: d.execute_script(
        "return [...document.querySelectorAll('[data-asset-id] img')].every(i => i.complete && i.naturalWidth > 0)"),
        message="every drawn tile has its picture")


def test_the_readme_screenshot_is_taken_from_the_live_page_in_light_and_dark(gallery, browser):
    browser.execute_script("document.querySelector('#scroller').scrollTop = 0")
    all_drawn = "return [...document.querySelectorAll('[data-asset-id] img')].every(i => i.complete && i.naturalWidth > 0)"
    wait_for(browser, lambda d: d.execute_script(all_drawn), message="every tile on screen drawn")
    target = os.environ.get("GALLERY_SCREENSHOT", os.path.join(ROOT, "docs", "gallery.png"))
    assert browser.save_screenshot(target)
    browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": "dark"}]})
    background = browser.execute_script("return getComputedStyle(document.body).backgroundColor")
    browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})
    assert background == "rgb(22, 22, 23)", "dark follows the system"


def test_a_dropped_photo_appears_and_a_trashed_one_leaves_without_a_reload(gallery, browser):
    browser.execute_script("window.stillTheSamePage = true")
    before = set(tile_ids(browser))
    library_count = sidebar_count(browser, "Library")
    dropped = make_photo(os.path.join(gallery.directory, "DROPPED.jpg"), 40, "2024:05:20:18:00:00", (1000, 700))
    gallery.drop_file(dropped)
    wait_for(browser, lambda d: len(set(tile_ids(d)) - before) == 1, message="the dropped photo's tile")
    new_id = (set(tile_ids(browser)) - before).pop()
    day = browser.execute_script("return document.querySelector(`[data-asset-id='${arguments[0]}']`).closest('section').dataset.section", new_id)
    assert day == "2024-05-20", "the photo goes under the day it was taken"
    wait_for(browser, lambda d: sidebar_count(d, "Library") != library_count, message="the library's count follows")

    victim = tile_ids(browser)[3]
    gallery.photolib("trash", victim)
    wait_for(browser, lambda d: victim not in tile_ids(d), message="the trashed photo leaves")
    wait_for(browser, lambda d: sidebar_count(d, "Recently Deleted") == "1", message="Recently Deleted counts it")
    assert browser.execute_script("return window.stillTheSamePage === true")


def test_the_viewer_opens_steps_with_the_arrow_keys_and_sets_a_favorite(gallery, browser):
    first, second = tile_ids(browser, photos_only=True)[:2]
    open_viewer(browser, first)
    stage_image = lambda d: d.execute_script("const i = document.querySelector('#viewer .stage img'); return i && i.complete && i.naturalWidth > 0 ? i.src : null")
    assert first in wait_for(browser, stage_image, message="the photo in the viewer")
    browser.find_element(By.CSS_SELECTOR, "#viewer").send_keys(Keys.ARROW_RIGHT)
    wait_for(browser, lambda d: second in (stage_image(d) or ""), message="the arrow key shows the next photo")
    favorite = browser.find_element(By.CSS_SELECTOR, '#viewer [data-action="favorite"]')
    assert favorite.get_attribute("aria-pressed") == "false"
    favorite.click()
    wait_for(browser, lambda d: favorite.get_attribute("aria-pressed") == "true", message="the control says so")
    wait_for(browser, lambda d: any(asset["isFavorite"] for asset in assets(gallery) if asset["id"] == second), message="the daemon has it")
    wait_for(browser, lambda d: sidebar_count(d, "Favorites") == "1", message="Favorites counts it")
    wait_for(browser, lambda d: d.find_elements(By.CSS_SELECTOR, f'[data-asset-id="{second}"] .favorite'), message="its tile says so")
    browser.find_element(By.CSS_SELECTOR, '#viewer [data-action="info"]').click()
    wait_for(browser, lambda d: "Taken" in d.find_element(By.CSS_SELECTOR, "#viewer .info").text, message="the info panel")
    close_viewer(browser)


def test_an_album_made_from_the_page_holds_the_selected_photos(gallery, browser):
    picked = tile_ids(browser, photos_only=True)[1:3]
    for asset_id in picked:
        browser.execute_script("document.querySelector(`[data-asset-id='${arguments[0]}'] .pick`).click()", asset_id)
    wait_for(browser, lambda d: "2 selected" in d.find_element(By.CSS_SELECTOR, "#selection-bar").text)
    browser.find_element(By.CSS_SELECTOR, "#new-album").click()
    browser.find_element(By.CSS_SELECTOR, "#new-collection-dialog input").send_keys("Made in the browser")
    browser.find_element(By.CSS_SELECTOR, '#new-collection-dialog button[value="create"]').click()
    wait_for(browser, lambda d: sidebar_count(d, "Made in the browser") == "2", message="the album in the sidebar")
    album = browser.find_element(By.XPATH, "//li[@data-collection-id][.//span[text()='Made in the browser']]")
    album_id = album.get_attribute("data-collection-id")
    assert sorted(asset["id"] for asset in assets(gallery, "--album", album_id)) == sorted(picked)
    album.find_element(By.TAG_NAME, "button").click()
    wait_for(browser, lambda d: sorted(tile_ids(d)) == sorted(picked), message="the album's view")
    press_sidebar(browser, 'button[data-view="timeline"]')
    wait_for(browser, lambda d: len(tile_ids(d)) > 2)


def test_a_video_plays_and_seeks_in_the_page(gallery, browser):
    video_id = next(asset["id"] for asset in assets(gallery) if asset["mediaType"] == "video")
    browser.find_element(By.CSS_SELECTOR, f'[data-asset-id="{video_id}"]').click()
    wait_for(browser, lambda d: d.execute_script("const v = document.querySelector('#viewer video'); return v && v.readyState >= 1"))
    browser.execute_script("""
        const video = document.querySelector('#viewer video');
        window.seeked = false;
        video.addEventListener('seeked', () => { window.seeked = true; }, { once: true });
        video.currentTime = 4;""")
    wait_for(browser, lambda d: d.execute_script("return window.seeked"), message="the player seeked")
    position = browser.execute_script("return document.querySelector('#viewer video').currentTime")
    assert 3.5 <= position <= 4.5
    assert browser.find_element(By.CSS_SELECTOR, "#viewer .viewer-message").get_attribute("hidden") is not None
    close_viewer(browser)


def request(gallery, path, method="GET", headers=None, data=None):
    opener = urllib.request.build_opener(NoRedirect)
    try:
        with opener.open(urllib.request.Request(gallery.origin + path, method=method, headers=headers or {}, data=data)) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *arguments):
        return None


def test_the_token_host_and_origin_rules_hold(gallery):
    assert request(gallery, "/")[0] == 401
    assert request(gallery, "/api/views/timeline")[0] == 401
    assert request(gallery, "/?token=" + "0" * 64)[0] == 401
    status, headers, _ = request(gallery, "/?token=" + gallery.token)
    assert status == 303
    cookie = headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie
    session = {"Cookie": cookie.split(";")[0]}
    assert request(gallery, "/api/views/timeline", headers=session)[0] == 200
    assert request(gallery, "/api/views/timeline", headers={**session, "Host": "attacker.example:80"})[0] == 403
    port = gallery.origin.rsplit(":", 1)[1]
    assert request(gallery, "/api/views/timeline", headers={**session, "Host": f"localhost:{port}"})[0] == 200
    change = json.dumps({"action": "favorite", "ids": ["0" * 8], "value": True}).encode()
    assert request(gallery, "/api/changes", "POST", {**session, "Origin": "http://attacker.example"}, change)[0] == 403
    assert request(gallery, "/api/changes", "POST", session, change)[0] == 403
    assert request(gallery, "/api/changes", "POST", {**session, "Origin": gallery.origin, "Content-Type": "application/json"}, change)[0] == 404
    token_file = os.path.join(gallery.runtime, "photolibd", "web-token")
    assert stat.S_IMODE(os.stat(token_file).st_mode) == 0o600
    assert open(token_file).read().strip() == gallery.token


def test_a_file_that_is_not_media_is_refused_on_the_page_and_nothing_is_imported(gallery, browser):
    count = len(assets(gallery))
    garbage = os.path.join(gallery.directory, "not-a-photo.jpg")
    with open(garbage, "wb") as file:
        file.write(os.urandom(20000))
    browser.find_element(By.CSS_SELECTOR, "#upload-input").send_keys(garbage)
    wait_for(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#uploads .upload.error"), message="the refusal is shown")
    assert "not-a-photo.jpg" in browser.find_element(By.CSS_SELECTOR, "#uploads .upload.error").text
    good = make_photo(os.path.join(gallery.directory, "uploaded.jpg"), 50, "2024:05:21:08:00:00")
    browser.find_element(By.CSS_SELECTOR, "#upload-input").send_keys(good)
    wait_for(browser, lambda d: d.find_elements(By.CSS_SELECTOR, "#uploads .upload.done"), message="the upload is imported")
    assert len(assets(gallery)) == count + 1


def test_the_page_says_when_the_daemon_stops_and_recovers_by_itself(gallery, browser):
    browser.execute_script("window.stillTheSamePage = true")
    gallery.stop_daemon()
    wait_for(browser, lambda d: "not answering" in d.find_element(By.CSS_SELECTOR, "#status").text, message="the page says so")
    gallery.start_daemon()
    wait_for(browser, lambda d: not d.find_element(By.CSS_SELECTOR, "#status").is_displayed(), timeout=60, message="back")
    dropped = make_photo(os.path.join(gallery.directory, "AFTER.jpg"), 60, "2024:05:22:18:00:00")
    before = set(tile_ids(browser))
    gallery.drop_file(dropped)
    wait_for(browser, lambda d: len(set(tile_ids(d)) - before) == 1, message="live again after the restart")
    assert browser.execute_script("return window.stillTheSamePage === true")


def test_thousands_of_open_connections_and_a_stalled_client_do_not_stall_the_others(gallery):
    import resource
    import socket
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 8192), hard))
    host, port = gallery.origin.rsplit("//", 1)[1].split(":")
    idle = []
    try:
        for index in range(2000):
            connection = socket.create_connection((host, int(port)))
            if index % 2:
                connection.sendall(b"GET /api/views/timeline HTTP/1.1\r\nHost: localhost\r\n")  # headers never finished
            idle.append(connection)
        session = {"Cookie": request(gallery, "/?token=" + gallery.token)[1]["Set-Cookie"].split(";")[0]}
        started = time.monotonic()
        assert request(gallery, "/api/views/timeline", headers=session)[0] == 200
        assert time.monotonic() - started < 5
    finally:
        for connection in idle:
            connection.close()
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def test_a_new_photo_comes_into_sight_at_the_top_and_leaves_the_screen_alone_further_down(gallery, browser):
    scroller = "document.querySelector('#scroller')"
    on_screen = f"""const box = {scroller}.getBoundingClientRect();
        return [...document.querySelectorAll('[data-asset-id]')].filter(e => {{ const r = e.getBoundingClientRect();
            return r.bottom > box.top && r.top < box.bottom; }}).map(e => e.dataset.assetId)"""
    open_timeline(browser, gallery)
    before = set(tile_ids(browser))
    newest = make_photo(os.path.join(gallery.directory, "NEWEST.jpg"), 41, "2024:07:01:12:00:00", (900, 600))
    gallery.drop_file(newest)
    wait_for(browser, lambda d: set(tile_ids(d)) - before, message="the new photo's tile")
    new_id = (set(tile_ids(browser)) - before).pop()
    wait_for(browser, lambda d: new_id in d.execute_script(on_screen), message="the new photo in sight at the top")
    assert browser.execute_script(f"return {scroller}.scrollTop") == 0

    browser.execute_script(f"{scroller}.scrollTop = 600")
    wait_for(browser, lambda d: d.execute_script(on_screen), message="tiles drawn further down")
    shown = browser.execute_script(on_screen)
    newer = make_photo(os.path.join(gallery.directory, "NEWER.jpg"), 42, "2024:07:02:12:00:00", (900, 600))
    gallery.drop_file(newer)
    wait_for(browser, lambda d: d.execute_script("return window.gallery.timeline.sections[0].key") == "2024-07-02",
             message="the newer photo's day in the page")
    wait_for(browser, lambda d: d.execute_script(on_screen) == shown, message="what was on screen stays put")
    assert browser.execute_script(f"return {scroller}.scrollTop") > 600
