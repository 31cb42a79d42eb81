"""An advisory lock on the output file of a run [SIM-out-lock].

``simulate --out F`` rewrites F again and again (its checkpoints, then its result), each
time by renaming a new file over it (OUT-atomic), so a lock on F itself would be lost at
the first rewrite.  The lock is taken instead on a file of its own beside F, ``.F.lock``
(F's name, links followed, with a dot before it and ``.lock`` after it), with ``flock``:
the kernel drops it when the process ends, however it ends, so a run that was killed
never leaves a lock behind, only perhaps the empty file, which the next run takes over.
A run removes the lock file as it ends, while it still holds the lock; a run that opened
the file just before it was removed finds, once it holds its lock, that the path no
longer names the file it locked, and opens the path again.
"""

from __future__ import annotations

import errno
import fcntl
import os
from pathlib import Path
from types import TracebackType

from hanabi_ref.base import atomic
from hanabi_ref.tools.sim.executors import SetupError

ATTEMPTS = 8
"""Times to open the lock file again when the run that held it removed it meanwhile."""


def lock_path(target: Path) -> Path:
    """[SIM-out-lock] ``.NAME.lock`` beside ``target`` (the file, links followed)."""
    return target.parent / f".{target.name}.lock"


class OutputLock:
    """[SIM-out-lock] The lock of one output file, held until :meth:`release`."""

    def __init__(self, path: Path, descriptor: int) -> None:
        self.path = path
        self._descriptor: int | None = descriptor

    def release(self) -> None:
        """Remove the lock file (if it is still the one locked) and drop the lock; once."""
        descriptor, self._descriptor = self._descriptor, None
        if descriptor is None:
            return
        try:
            if _names(self.path, descriptor):
                os.unlink(self.path)  # while the lock is held: a run waiting on it opens the path again
        except OSError:
            pass  # already gone, or the directory became read-only: the lock still goes below
        finally:
            os.close(descriptor)

    def __enter__(self) -> OutputLock:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 traceback: TracebackType | None) -> None:
        self.release()


def lock_output(target: Path, option: str) -> OutputLock:
    """[SIM-out-lock] Take the lock of the file ``target`` names (links followed) at once,
    or raise :class:`SetupError` (exit 2) naming ``option``, the path and the lock: another
    run holds it, or the lock file cannot be made (a symbolic link there is not followed)."""
    path = lock_path(_written_file(target))
    for _ in range(ATTEMPTS):
        descriptor = _open(path, target, option)
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as error:
            os.close(descriptor)
            if error.errno in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                raise SetupError(f"{option} {target}: another run is writing it (it holds the lock {path}); "
                                 f"wait for it to end, or write elsewhere") from None
            raise SetupError(f"{option} {target}: cannot lock {path}: {error.strerror or error}") from None
        if _names(path, descriptor):
            return OutputLock(path, descriptor)
        os.close(descriptor)  # removed by the run that held it, between our open and our lock
    raise SetupError(f"{option} {target}: cannot lock {path}: it keeps being removed and made again")


def _written_file(target: Path) -> Path:
    """The file ``target`` names, symbolic links followed [OUT-symlink]."""
    try:
        return atomic.classify(target).path
    except OSError:
        return target


def _open(path: Path, target: Path, option: str) -> int:
    try:
        return os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC | os.O_NOFOLLOW, 0o600)
    except OSError as error:
        raise SetupError(f"{option} {target}: cannot lock {path}: {error.strerror or error}") from None


def _names(path: Path, descriptor: int) -> bool:
    """Whether ``path`` still names the file open as ``descriptor``."""
    try:
        status = os.stat(path, follow_symlinks=False)
    except OSError:
        return False
    held = os.fstat(descriptor)
    return (status.st_dev, status.st_ino) == (held.st_dev, held.st_ino)
