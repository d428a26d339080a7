"""`companion app`: start the referee web app (Flet, offline web mode)."""

from __future__ import annotations

import argparse
from typing import Any


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "app",
        help="start the referee web app",
        description="Start the referee web app. Open the printed address in a browser.",
    )
    parser.add_argument("--host", default="127.0.0.1",
                        help="address to listen on (default 127.0.0.1; 0.0.0.0 lets phones on the network follow)")
    parser.add_argument("--port", type=int, default=8550, help="port (default 8550)")
    parser.add_argument("--data", default=None, help="folder for the game database (default: ~/.local/share/table-referee)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from companion.ui.main import serve

    serve(host=args.host, port=args.port, data_dir=args.data)
    return 0
