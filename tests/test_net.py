"""Local-network addresses and the HTTPS certificate a phone's camera needs."""

from __future__ import annotations

import ipaddress
import ssl
from pathlib import Path

import pytest

from companion.net import (
    NetError,
    addresses_to_open,
    check_certificate,
    lan_addresses,
    self_signed_certificate,
)


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
