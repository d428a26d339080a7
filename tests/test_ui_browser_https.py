"""`companion app --cert --key` serves the app over HTTPS (phone browsers give the camera only to a
secure page): the page draws and a game starts through a TLS connection and a secure websocket."""

from __future__ import annotations

import shutil
import subprocess

import pytest
from browser.conftest_shared import app_server, launch, new_tab, playwright_instance  # noqa: F401
from browser.harness import failure_shot

pytestmark = pytest.mark.browser


@pytest.mark.skipif(shutil.which("openssl") is None, reason="openssl is needed to make a test certificate")
def test_app_over_https(tmp_path, playwright_instance):  # noqa: F811
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", str(key), "-out",
                    str(cert), "-days", "1", "-subj", "/CN=127.0.0.1"], check=True, capture_output=True)
    with app_server(tmp_path, extra=["--cert", str(cert), "--key", str(key)], scheme="https") as url:
        browser = launch(playwright_instance)
        ref = new_tab(browser, url, ignore_https_errors=True)
        try:
            assert ref.page.url.startswith("https://")
            ref.click("New game")
            ref.click("Start game")
            ref.text("Ann to play")
        except Exception:
            failure_shot(ref, "https")
            raise
        browser.close()
