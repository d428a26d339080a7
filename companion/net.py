"""Reaching the referee from other devices: local-network addresses and HTTPS.

Phones at the table follow the game by opening the referee's address. Browsers only give a web page
the camera in a secure context, so a phone that should take the board photo itself needs HTTPS: the
user gives a certificate, or the referee makes a self-signed one (the phone then asks once to trust it).

This module owns the addresses to print and the certificate; `companion.ui.main` decides how to serve.
"""

from __future__ import annotations

import datetime as _dt
import ipaddress
import socket
from dataclasses import dataclass
from pathlib import Path

LOOPBACK = "127.0.0.1"
ALL_INTERFACES = ("0.0.0.0", "::")


class NetError(Exception):
    """A network setting that cannot work, in one sentence with what to do."""


def lan_addresses() -> list[str]:
    """This machine's addresses on the local network (IPv4), best first; empty when there is none.

    The address of the route to the outside is found without sending anything (a UDP socket's
    `connect` only picks a route), then every address the host name resolves to is added.
    """
    found: list[str] = []
    for probe in ("192.168.0.1", "10.0.0.1", "8.8.8.8"):
        try:
            with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
                s.connect((probe, 9))
                ip = s.getsockname()[0]
        except OSError:
            continue
        if ip not in found and not ipaddress.ip_address(ip).is_loopback:
            found.append(ip)
    try:
        for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET):
            ip = str(info[4][0])
            if ip not in found and not ipaddress.ip_address(ip).is_loopback:
                found.append(ip)
    except OSError:
        pass
    return found


def addresses_to_open(host: str, port: int, https: bool) -> list[str]:
    """The URLs people can type: the loopback one, plus the network ones when serving the network."""
    scheme = "https" if https else "http"
    if host in ALL_INTERFACES:
        hosts = [LOOPBACK, *lan_addresses()]
    else:
        hosts = [host]
    return [f"{scheme}://{h}:{port}" for h in hosts]


@dataclass(frozen=True)
class Certificate:
    certfile: Path
    keyfile: Path
    self_signed: bool


def check_certificate(certfile: str | Path, keyfile: str | Path) -> Certificate:
    """A certificate the user gives: both files must exist and hold PEM data."""
    cert, key = Path(certfile), Path(keyfile)
    for path, what in ((cert, "certificate"), (key, "private key")):
        if not path.is_file():
            raise NetError(f"the {what} file {path} does not exist: give a PEM file, or use --https alone "
                           "for a self-signed certificate")
        head = path.read_bytes()[:4096]
        if b"-----BEGIN" not in head:
            raise NetError(f"the {what} file {path} is not in PEM format (it should start with -----BEGIN)")
    return Certificate(cert, key, self_signed=False)


def self_signed_certificate(folder: str | Path, names: list[str] | None = None) -> Certificate:
    """A self-signed certificate for this machine's addresses, made once and kept in `folder`.

    It is made again when an address it should cover is missing (the machine moved to another network)
    or when it is about to expire.
    """
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    certfile, keyfile = folder / "referee-cert.pem", folder / "referee-key.pem"
    wanted = names if names is not None else ["localhost", LOOPBACK, *lan_addresses()]
    now = _dt.datetime.now(_dt.UTC)
    if certfile.is_file() and keyfile.is_file():
        try:
            existing = x509.load_pem_x509_certificate(certfile.read_bytes())
            san = existing.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
            covered = {str(v) for v in san.get_values_for_type(x509.IPAddress)}
            covered |= set(san.get_values_for_type(x509.DNSName))
            fresh = existing.not_valid_after_utc - now > _dt.timedelta(days=30)
            if fresh and set(wanted) <= covered:
                return Certificate(certfile, keyfile, self_signed=True)
        except (ValueError, x509.ExtensionNotFound):
            pass  # unreadable or foreign: make a new one below
    key = ec.generate_private_key(ec.SECP256R1())
    subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "Table referee")])
    alt: list[x509.GeneralName] = []
    for name in wanted:
        try:
            alt.append(x509.IPAddress(ipaddress.ip_address(name)))
        except ValueError:
            alt.append(x509.DNSName(name))
    cert = (
        x509.CertificateBuilder()
        .subject_name(subject)
        .issuer_name(subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - _dt.timedelta(minutes=5))
        .not_valid_after(now + _dt.timedelta(days=365))
        .add_extension(x509.SubjectAlternativeName(alt), critical=False)
        .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .sign(key, hashes.SHA256())
    )
    keyfile.write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                          serialization.NoEncryption()))
    keyfile.chmod(0o600)
    certfile.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    return Certificate(certfile, keyfile, self_signed=True)
