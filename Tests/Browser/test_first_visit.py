"""What a newcomer meets first, on a gallery of their own: the page a browser gets without the token, a small picture
among large ones, and the gallery's log from its start to a normal stop."""
import http.client
import os
import re
import socket
import subprocess
import urllib.error
import urllib.request

import pytest
from selenium.webdriver.common.by import By

from harness import Gallery, make_photo
from page import new_browser, wait_for

TINY = (174, 38)


@pytest.fixture(scope="module")
def first_gallery():
    gallery = Gallery()
    photos = os.path.join(gallery.directory, "photos")
    os.makedirs(photos)
    paths = [make_photo(f"{photos}/IMG_{index:03}.jpg", index, f"2024:05:10 {9 + index}:15:00") for index in range(3)]
    # A 174×38 TIFF, the banner that was blown up to a row's width.
    tiny = f"{photos}/banner.tif"
    subprocess.run(["convert", "-size", f"{TINY[0]}x{TINY[1]}", "gradient:navy-gold", tiny], check=True)
    subprocess.run(["exiftool", "-q", "-overwrite_original", "-DateTimeOriginal=2024:05:10 08:00:00", tiny], check=True)
    gallery.start_daemon()
    gallery.import_files(paths + [tiny])
    gallery.start_web()
    gallery.tiny_id = gallery.photolib("assets", "--json", "--where", "pixelWidth == 174").stdout.split('"id":"')[1].split('"')[0]
    yield gallery
    gallery.close()


def get(gallery, path, accept):
    try:
        with urllib.request.urlopen(urllib.request.Request(gallery.origin + path, headers={"Accept": accept})) as response:
            return response.status, response.headers, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.headers, error.read().decode()


def test_a_browser_without_the_token_gets_a_sign_in_page_and_an_api_client_json(first_gallery):
    status, headers, body = get(first_gallery, "/", "text/html,application/xhtml+xml,*/*;q=0.8")
    assert status == 401 and headers["Content-Type"].startswith("text/html")
    assert "photolib gallery" in body and os.path.join(first_gallery.runtime, "photolibd", "web-token") in body
    assert 'name="token"' in body and first_gallery.token not in body
    status, headers, body = get(first_gallery, "/?token=" + "0" * 64, "text/html")
    assert status == 401 and "does not open this gallery" in body
    status, headers, body = get(first_gallery, "/api/views/timeline", "*/*")
    assert status == 401 and headers["Content-Type"].startswith("application/json") and '"error"' in body


def test_the_token_pasted_on_the_sign_in_page_opens_the_gallery(first_gallery):
    driver = new_browser(first_gallery.url)
    try:
        driver.delete_all_cookies()
        driver.get(first_gallery.origin + "/")
        field = wait_for(driver, lambda d: d.find_element(By.NAME, "token"), message="the sign-in page")
        assert "photolib gallery" in driver.find_element(By.TAG_NAME, "main").text
        field.send_keys(first_gallery.token)
        field.submit()
        wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "[data-asset-id] img"), message="the timeline")
        assert "token" not in driver.current_url
    finally:
        driver.quit()


def test_a_small_picture_is_never_shown_larger_than_its_pixels(first_gallery):
    driver = new_browser(first_gallery.url)
    try:
        selector = f'[data-asset-id="{first_gallery.tiny_id}"] img'
        wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, selector), message="the small picture's tile")
        shown = driver.execute_script("const box = document.querySelector(arguments[0]).getBoundingClientRect();"
                                      "return [box.width, box.height]", selector)
        assert shown[0] <= TINY[0] + 0.5 and shown[1] <= TINY[1] + 0.5, shown
    finally:
        driver.quit()


LOG_LINE = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ (trace|debug|info|notice|warning|error|critical) [\w.-]+: ")


class UnixConnection(http.client.HTTPConnection):
    """HTTP over the gallery's Unix socket, as a reverse proxy reaches it."""

    def __init__(self, path):
        super().__init__("localhost")
        self.socket_path = path

    def connect(self):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.connect(self.socket_path)


def test_the_gallery_logs_as_the_daemon_does_and_a_normal_stop_warns_of_nothing():
    gallery = Gallery()
    try:
        gallery.start_daemon()
        listen = os.path.join(gallery.directory, "web.sock")
        gallery.start_web(listen="unix:" + listen)
        # A view opened, which the gallery follows through the daemon's change stream.
        connection = UnixConnection(listen)
        connection.request("GET", "/api/views/timeline?token=" + gallery.token)
        assert connection.getresponse().status == 200
        connection.close()
        gallery.stop_daemon()
        gallery.web.terminate()
        gallery.web.wait(30)
        web_log, daemon_log = gallery.log("web.log"), gallery.log("daemon.log")
        assert "notice photolib-web: listening on unix:" in web_log
        assert not re.search(r" (warning|error|critical) ", web_log), web_log
        for line in web_log.splitlines() + [line for line in daemon_log.splitlines() if " listening socket=" in line]:
            assert LOG_LINE.match(line), line
    finally:
        gallery.close()
