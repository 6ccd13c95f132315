"""Processes that never outlive the process that started them: the search processes of
the computer seats and, under ``koth serve --workers N``, the server processes of their
supervisor (an orphan would keep serving, and keep the port, after its supervisor died)."""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import os
import signal
import sys
import threading

#: set by ``koth serve --workers N`` for its worker processes: the supervisor's pid
SUPERVISOR_ENV = "KOTH_SUPERVISOR_PID"
#: Linux's prctl option that sends a process a signal when its parent dies
_PR_SET_PDEATHSIG = 1
#: how often the watchdog of a system without prctl looks at its parent
WATCHDOG_EVERY_S = 1.0


def parent_death_signal(signum: int) -> bool:
    """Ask Linux to send this process ``signum`` when its parent dies; False elsewhere
    (or when the kernel refused)."""
    if not sys.platform.startswith("linux"):
        return False
    with contextlib.suppress(OSError, AttributeError):
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
        return int(libc.prctl(_PR_SET_PDEATHSIG, signum)) == 0
    return False


def follow_supervisor() -> None:
    """In a worker of ``koth serve --workers N``: stop (SIGTERM: a clean shutdown) when
    the supervisor dies, by the parent-death signal on Linux, else by a watchdog thread
    that looks at the parent every second. A worker whose supervisor is already gone
    stops at once. Outside such a worker it does nothing."""
    wanted = os.environ.get(SUPERVISOR_ENV)
    if not wanted or not wanted.isdigit():
        return
    supervisor = int(wanted)
    if os.getpid() == supervisor:
        return  # the supervisor itself (or one process serving alone)
    if not parent_death_signal(signal.SIGTERM):
        threading.Thread(target=_watch, args=(supervisor,), daemon=True).start()
    if os.getppid() != supervisor:  # it died before the signal was asked for
        os.kill(os.getpid(), signal.SIGTERM)


def _watch(supervisor: int) -> None:
    stopped = threading.Event()
    while not stopped.wait(WATCHDOG_EVERY_S):
        if os.getppid() != supervisor:
            os.kill(os.getpid(), signal.SIGTERM)
            return
