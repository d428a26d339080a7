"""Local-network addresses and the HTTPS certificate a phone's camera needs."""

from __future__ import annotations

import ipaddress
import os
import socket
import ssl
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from companion.net import (
    NetError,
    addresses_to_open,
    check_certificate,
    lan_addresses,
    self_signed_certificate,
)
from tests.conftest import REPO


def test_loopback_only_unless_asked() -> None:
    assert addresses_to_open("127.0.0.1", 8550, https=False) == ["http://127.0.0.1:8550"]
    urls = addresses_to_open("0.0.0.0", 8551, https=True)
    assert urls[0] == "https://127.0.0.1:8551"
    for url in urls[1:]:
        host = url.removeprefix("https://").rsplit(":", 1)[0]
        assert not ipaddress.ip_address(host).is_loopback
    assert all(not ipaddress.ip_address(ip).is_loopback for ip in lan_addresses())


def test_self_signed_certificate_is_made_once_and_loads_into_tls(tmp_path: Path) -> None:
    cert = self_signed_certificate(tmp_path, ["localhost", "127.0.0.1", "192.168.1.20"])
    assert cert.self_signed and cert.certfile.is_file()
    assert cert.keyfile.stat().st_mode & 0o077 == 0  # the key is readable by its owner only
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(cert.certfile, cert.keyfile)  # a real TLS server would accept the pair
    first = cert.certfile.read_bytes()
    assert self_signed_certificate(tmp_path, ["localhost", "127.0.0.1"]).certfile.read_bytes() == first
    # A new network address not covered: a new certificate.
    assert self_signed_certificate(tmp_path, ["10.1.2.3"]).certfile.read_bytes() != first


def test_a_given_certificate_must_be_pem(tmp_path: Path) -> None:
    made = self_signed_certificate(tmp_path / "ok", ["localhost"])
    assert check_certificate(made.certfile, made.keyfile).self_signed is False
    junk = tmp_path / "junk.pem"
    junk.write_bytes(b"\x00\x01 not a certificate")
    with pytest.raises(NetError, match="not in PEM format"):
        check_certificate(junk, made.keyfile)
    with pytest.raises(NetError, match="does not exist"):
        check_certificate(tmp_path / "missing.pem", made.keyfile)


def _start_app(tmp_path: Path, *extra: str) -> tuple[subprocess.Popen[str], list[str]]:
    """`companion app` as a subprocess; returns it and the lines it printed up to the address to open."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {**os.environ, "FLET_WEB_NO_CDN": "true", "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen([sys.executable, "-m", "companion", "app", "--port", str(port), "--data", str(tmp_path),
                             *extra], cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
    lines: list[str] = []
    assert proc.stdout is not None
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        lines.append(line.rstrip())
        if "open " in line and "in a browser" in line:
            # the network lines come right after the first one
            time.sleep(0.3)
            break
    return proc, lines


def _wait_page(url: str, context: ssl.SSLContext | None) -> bytes:
    deadline = time.monotonic() + 60
    while True:
        try:
            with urllib.request.urlopen(url, context=context, timeout=5) as resp:
                return bytes(resp.read())
        except (urllib.error.URLError, ConnectionError):
            if time.monotonic() > deadline:
                raise
            time.sleep(0.3)


def _stop(proc: subprocess.Popen[str]) -> None:
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()


def test_app_https_makes_a_certificate_once_and_serves_the_network(tmp_path: Path) -> None:
    proc, lines = _start_app(tmp_path, "--https", "--host", "0.0.0.0")
    try:
        text = "\n".join(lines)
        assert "self-signed certificate" in text and "trust it" in text, text
        urls = [ln.split(" open ", 1)[1].split()[0] for ln in lines if " open " in ln]
        assert urls[0].startswith("https://127.0.0.1:"), text
        for url in urls[1:]:  # the addresses a phone opens
            assert url.startswith("https://") and not ipaddress.ip_address(url[8:].rsplit(":", 1)[0]).is_loopback
        certfile = tmp_path / "referee-cert.pem"
        # The page comes over TLS, verified against the certificate the app made (as a phone that trusts it).
        context = ssl.create_default_context(cafile=str(certfile))
        assert b"<html" in _wait_page(urls[0], context).lower()
        with pytest.raises((urllib.error.URLError, ConnectionError)):  # plain HTTP is not served
            urllib.request.urlopen(urls[0].replace("https://", "http://"), timeout=5)
    finally:
        _stop(proc)
    first = certfile.read_bytes()
    proc, lines = _start_app(tmp_path, "--https")
    try:
        assert any("open https://127.0.0.1:" in ln for ln in lines), lines
        assert not any("phones on the same network" in ln for ln in lines)  # loopback only unless asked
    finally:
        _stop(proc)
    assert certfile.read_bytes() == first  # kept in the data folder and reused


def test_app_listens_on_loopback_by_default(tmp_path: Path) -> None:
    proc, lines = _start_app(tmp_path)
    try:
        assert [ln for ln in lines if " open " in ln] == [ln for ln in lines if "open http://127.0.0.1:" in ln], lines
        url = lines[-1].split(" open ", 1)[1].split()[0]
        assert b"<html" in _wait_page(url, None).lower()
    finally:
        _stop(proc)
    assert not (tmp_path / "referee-cert.pem").exists()
