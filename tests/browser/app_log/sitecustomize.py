"""Loaded at start-up by the app servers the browser tests run (`harness.app_server` puts this folder
first on their PYTHONPATH; nothing else imports it): an event Flet drops because its control is no
longer on the server's page is written to the server's log as a warning.

Flet (1.0.5, `Session.dispatch_event`) drops a click whose control id the server no longer has, and
says so only at debug level ("Control with ID 1214 not found."): the tab drew the control, the test
(or a player) tapped it, and the server had replaced it meanwhile (a screen drawn again as new
controls). In a test that looks like a tap that did nothing, with nothing in the log; with this line
the log says which tap went nowhere. Every other debug or info record of Flet stays off, as in the app.
"""

import logging

DROPPED = "Control with ID %s not found."


class _DroppedEvents(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno >= logging.WARNING:
            return True
        if record.msg != DROPPED:
            return False
        record.levelno, record.levelname = logging.WARNING, "WARNING"
        record.msg = ("an event for control %s was dropped: the control is no longer on the server's page "
                      "(Flet: 'Control with ID ... not found')")
        return True


_flet = logging.getLogger("flet")
_flet.setLevel(logging.DEBUG)  # the filter lets through only the warnings and the dropped events
_flet.addFilter(_DroppedEvents())
