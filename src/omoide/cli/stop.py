"""SIGTERM or Ctrl-C -> the command ended within STOP_BUDGET_S, its child processes with it.

Python runs a signal's handler in the main thread, between two bytecodes. A flow command's
main thread is often waiting: on a task's future, or on a LanceDB call (which LanceDB runs on
its own event-loop thread). A signal the kernel hands to one of the process's other threads
(LanceDB's, onnxruntime's, Prefect's) does not end such a wait, so the handler used to run only
once the wait was over: a stopped backfill went on with its day for 35 s, and then waited for
its worker threads. CPython's own C handler also writes every signal to the wakeup fd at once,
whatever thread it lands on; a watcher thread reading it gives the command until
FORCE_AFTER_S to end by itself, then ends it.

Ending it cuts the work in flight as a power cut would, which the kill trials show is safe:
files are replaced whole (at most a temporary file is left, which the next writer removes),
LanceDB commits are atomic, the writer lock is the kernel's. Unlike a power cut, the child
processes (the ephemeral Prefect server, served flow runs, Dask workers) are stopped too, not
orphaned.
"""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import socket
import sys
import threading
import time
from collections.abc import Callable, Iterator
from types import FrameType
from typing import NoReturn

from rich.console import Console

err = Console(stderr=True)

# The bound is 10 s from the signal to the process gone. A command that has not ended by
# itself FORCE_AFTER_S after the signal is ended: at most DRAIN_S to send the queued log lines,
# CHILD_GRACE_S for the children to stop, then they are killed. FORCE_AFTER_S lets a served
# run be cancelled the runner's way: Prefect's runner looks every 3 s whether the run's
# process has gone, and one that was busy took 3-6 s (its final garbage collection), after
# which the runner records the run as cancelled.
STOP_BUDGET_S = 10.0
FORCE_AFTER_S = 6.5
DRAIN_S = 0.5
CHILD_GRACE_S = 1.5
SIGNALS = (signal.SIGTERM, signal.SIGINT)
_DONE = 0  # written to the watcher's socket when the command finished without a signal


class _Stopper:
    """One command's stop: the signal that asked it, the watcher thread, and the one way out."""

    def __init__(
        self, what: str, then: str, code: int | None, drain: Callable[[], object] | None
    ) -> None:
        self.what, self.then, self.code, self.drain = what, then, code, drain
        self.signum: int | None = None
        self.handled = 0  # signals the Python-level handler has run for
        self.asked = threading.Event()
        self.ending = threading.Lock()
        self.reader, self.writer = socket.socketpair()
        self.writer.setblocking(False)

    def handle(self, signum: int, frame: FrameType | None) -> None:
        """The Python-level handler (main thread): the first signal interrupts the command."""
        self.note(signum)
        self.handled += 1
        if self.handled == 1:
            raise KeyboardInterrupt
        if signum == signal.SIGINT:  # Ctrl-C again: no more waiting
            self.end()
        # A repeated SIGTERM is Prefect's own: its flow engine sends the signal again once it
        # has recorded the crash. The watcher's clock runs already.

    def note(self, signum: int) -> None:
        """A signal -> remembered (the first one) and the watcher's clock started."""
        if self.signum is None:
            self.signum = signum
        self.asked.set()

    def watch(self) -> None:
        """Watcher thread: waits for a signal on the wakeup fd, then ends the command if it outlives FORCE_AFTER_S."""
        with contextlib.suppress(OSError):
            while not self.asked.is_set():
                got = self.reader.recv(1)
                if not got or got[0] == _DONE:
                    return  # the command finished without a signal
                if got[0] in SIGNALS:
                    self.note(got[0])
        if self.signum is None:
            return
        time.sleep(FORCE_AFTER_S)
        self.end()

    def end(self) -> NoReturn:
        """-> the queued log lines sent, every child process stopped, this process gone (never returns)."""
        if not self.ending.acquire(blocking=False):
            # The other thread is ending the process: it exits within its own bounds.
            time.sleep(STOP_BUDGET_S)
            os._exit(1)
        signum = self.signum or signal.SIGTERM
        by = f" by {signal.Signals(self.signum).name}" if self.signum else ""
        with contextlib.suppress(Exception):
            said = f"omoide: {self.what} stopped{by}" + (f"; {self.then}" if self.then else "")
            err.print(said, highlight=False, soft_wrap=True)
        if self.drain is not None:
            with contextlib.suppress(Exception):
                _bounded(self.drain, DRAIN_S)
        stop_children(CHILD_GRACE_S)
        flush_logs()
        os._exit(128 + signum if self.code is None else self.code)


def _bounded(call: Callable[[], object], seconds: float) -> None:
    """A call -> run on a daemon thread, waited for at most `seconds`."""
    worker = threading.Thread(target=call, daemon=True, name="omoide-stop-drain")
    worker.start()
    worker.join(seconds)


def stop_children(grace_s: float) -> None:
    """Grace in seconds -> every child process of this one (and theirs) sent SIGTERM, killed if still there after the grace."""
    import psutil

    try:
        children = psutil.Process().children(recursive=True)
    except psutil.Error:
        return
    for child in children:
        with contextlib.suppress(psutil.Error):
            child.terminate()
    _, alive = psutil.wait_procs(children, timeout=grace_s)
    for child in alive:
        with contextlib.suppress(psutil.Error):
            child.kill()
    psutil.wait_procs(alive, timeout=1.0)


def flush_logs() -> None:
    """-> every file and stream log handler flushed (os._exit would drop their buffers)."""
    loggers = [logging.getLogger(), *logging.Logger.manager.loggerDict.values()]
    for logger in loggers:
        for handler in getattr(logger, "handlers", ()):
            if isinstance(handler, logging.StreamHandler):
                with contextlib.suppress(Exception):
                    handler.flush()
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):
            stream.flush()


@contextlib.contextmanager
def stop_on_signals(
    what: str,
    then: str = "",
    code: int | None = None,
    drain: Callable[[], object] | None = None,
) -> Iterator[_Stopper | None]:
    """What runs (+ what to do after a stop, the exit code then, default 128 + the signal, a log drain) -> SIGTERM and SIGINT end it within STOP_BUDGET_S.

    The first signal raises KeyboardInterrupt in the main thread (a flow run is recorded as
    crashed, `finally` blocks run); whatever the block then does, the process ends with its
    children once the block is left, or FORCE_AFTER_S after the signal if it is still busy.
    Outside the main thread it does nothing (signals are the main thread's).
    """
    if threading.current_thread() is not threading.main_thread():
        yield None
        return
    stopper = _Stopper(what, then, code, drain)
    previous = {sig: signal.signal(sig, stopper.handle) for sig in SIGNALS}
    old_fd = signal.set_wakeup_fd(stopper.writer.fileno(), warn_on_full_buffer=False)
    watcher = threading.Thread(target=stopper.watch, daemon=True, name="omoide-stop-watch")
    watcher.start()
    try:
        yield stopper
    except BaseException:
        if stopper.asked.is_set():
            stopper.end()
        raise
    finally:
        if stopper.asked.is_set():
            stopper.end()
        signal.set_wakeup_fd(old_fd)
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        with contextlib.suppress(OSError):
            stopper.writer.send(bytes([_DONE]))
        watcher.join(1.0)
        stopper.writer.close()
        stopper.reader.close()
