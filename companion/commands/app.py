"""`companion app`: start the referee web app (Flet, offline web mode), optionally over HTTPS.

The server listens on 127.0.0.1 unless `--host 0.0.0.0` is given; then it prints the network
addresses a phone at the table can open (`companion.net.addresses_to_open`). `--https` without
`--cert/--key` makes a self-signed certificate once, keeps it in the data folder and reuses it (phone
browsers give a page the camera only over HTTPS; the phone asks once to trust the certificate).

Bad options (a port already in use, a data folder that cannot be written, a certificate without its
key) are one sentence and exit 2, before anything starts.
"""

from __future__ import annotations

import argparse
import socket
from pathlib import Path
from typing import Any

from companion.cli import CommandError
from companion.net import NetError, check_certificate, self_signed_certificate
from companion.store import FILE_NAME, Store, StoreError, default_data_dir


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "app",
        help="start the referee web app",
        description="Start the referee web app. Open the printed address in a browser; other phones on the "
                    "network open the same address to follow the game.",
    )
    parser.add_argument("--host", default="127.0.0.1",
                        help="address to listen on (default 127.0.0.1; 0.0.0.0 lets phones on the network follow)")
    parser.add_argument("--port", type=int, default=8550, help="port (default 8550)")
    parser.add_argument("--data", default=None,
                        help="folder for the game database and board profile (default: ~/.local/share/table-referee)")
    parser.add_argument("--cert", type=Path, default=None,
                        help="TLS certificate (PEM): serve HTTPS, which phone browsers need for the camera")
    parser.add_argument("--key", type=Path, default=None, help="the certificate's private key (PEM)")
    parser.add_argument("--https", action="store_true",
                        help="serve HTTPS; without --cert/--key a self-signed certificate is made in the data folder "
                             "and reused (each phone asks once to trust it)")
    parser.set_defaults(func=run)


def check_options(args: argparse.Namespace) -> Path:
    """Refuse bad options with one sentence; returns the data folder."""
    if not 0 < args.port < 65536:
        raise CommandError(f"--port {args.port} is not a port number: use 1-65535, like 8550")
    if (args.cert is None) != (args.key is None):
        raise CommandError("--cert and --key go together: give the certificate and its private key")
    for opt, path in (("--cert", args.cert), ("--key", args.key)):
        if path is not None and not path.is_file():
            raise CommandError(f"{opt} {path} is not a file: give the PEM file's path")
    data = Path(args.data) if args.data else default_data_dir()
    try:
        data.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise CommandError(f"the data folder {data} cannot be created ({exc.strerror}): choose another with --data") from None
    if (data / FILE_NAME).exists():
        try:
            Store(data / FILE_NAME).close()
        except StoreError as exc:
            raise CommandError(f"{exc}") from None
    with socket.socket() as s:
        # As the server itself binds (uvicorn sets SO_REUSEADDR): connections of the previous run still in
        # TIME_WAIT must not stop a restart on the same port, which the open tabs reconnect to.
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind((args.host, args.port))
        except OSError as exc:
            raise CommandError(f"cannot listen on {args.host}:{args.port} ({exc.strerror}): the port may be in use; "
                               "choose another with --port") from None
    return data


def certificate(args: argparse.Namespace, data: Path) -> tuple[str | None, str | None]:
    """The (certificate, key) files to serve HTTPS with, or (None, None) for plain HTTP."""
    try:
        if args.cert is not None:
            cert = check_certificate(args.cert, args.key)
        elif args.https:
            cert = self_signed_certificate(data)
            print(f"Table referee: HTTPS with a self-signed certificate kept in {cert.certfile}; each phone's "
                  "browser asks once to trust it (choose 'Advanced' then 'Proceed')", flush=True)
        else:
            return None, None
    except NetError as exc:
        raise CommandError(str(exc)) from None
    except OSError as exc:
        raise CommandError(f"the certificate cannot be written in {data} ({exc.strerror}): "
                           "choose another folder with --data") from None
    return str(cert.certfile), str(cert.keyfile)


def tesseract_note() -> str | None:
    """What the board reader does on a machine without Tesseract's in-process engine (optional: a player's
    laptop rarely has it), said once at start; None when it is there."""
    # Lazy: OpenCV and the letter model would add ~340 ms to every `companion` command (`--help` included).
    from vision.recognise import tesseract_status

    status = tesseract_status()
    if status == "engine":
        return None
    if status == "command":
        return ("Table referee: Tesseract's in-process engine (the 'tesseract' extra: tesserocr) is not installed, "
                "so the board reader asks the tesseract command only about its few most doubtful tiles and "
                "trusts a letter only when its point number agrees: it asks you about more tiles")
    return ("Table referee: Tesseract is not installed, so the board reader reads the tiles with its own "
            "letter model only, and asks you about the tiles it is unsure of; install Tesseract (and the "
            "'tesseract' extra) for a second reading of every tile")


def run(args: argparse.Namespace) -> int:
    data = check_options(args)
    cert, key = certificate(args, data)
    if (note := tesseract_note()) is not None:
        print(note, flush=True)
    from companion.ui.main import serve  # lazy: Flet and the whole app, ~970 ms on `companion --help`

    serve(host=args.host, port=args.port, data_dir=str(data), cert=cert, key=key)
    return 0
