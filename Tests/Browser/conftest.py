"""The gallery the browser tests share: one daemon with 30 photos and a video, photolib-web beside it, and a browser
on its page. Each test leaves the page as it found it or starts from the timeline (page.open_timeline)."""
import os

import pytest

from harness import Gallery, make_photo, make_video
from page import new_browser


@pytest.fixture(scope="session")
def gallery():
    gallery = Gallery()
    photos = os.path.join(gallery.directory, "photos")
    os.makedirs(photos)
    paths = [make_photo(f"{photos}/IMG_{index:03}.jpg", index, f"2024:05:{10 + index // 6:02}:{9 + index % 6}:15:00")
             for index in range(30)]
    paths.append(make_video(f"{photos}/clip.mp4"))
    gallery.start_daemon()
    gallery.import_files(paths)
    gallery.start_web()
    gallery.photos = photos
    yield gallery
    gallery.close()


@pytest.fixture(scope="session")
def browser(gallery):
    driver = new_browser(gallery.url)
    yield driver
    driver.quit()
