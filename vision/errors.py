"""Errors the board reader raises; each message says what is wrong and what to do."""

from __future__ import annotations


class VisionError(Exception):
    """A photo that cannot be read as a board. The message is meant for the table."""


class NotAnImage(VisionError):
    """The bytes or file are not an image this reader can decode."""


class NoBoardFound(VisionError):
    """The image decodes but no 15x15 grid could be located; the user may give four corners instead."""
