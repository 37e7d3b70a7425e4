"""The errors and warnings of sweeps, and the wording of file errors."""

from __future__ import annotations

import errno
from pathlib import Path

__all__ = ["SweepError", "SweepWarning", "write_error"]


class SweepError(ValueError):
    """A sweep cannot go on: another spec in the folder, an unwritable folder,
    a full disk, a damaged manifest. The message says what to do."""


class SweepWarning(UserWarning):
    """A results folder holds something that does not count: a unit file that
    fails verification (it is recomputed), a stray file (ignored), a stale lock
    (taken over), or files of an older version that cannot be verified."""


def _hint(error: OSError) -> str:
    if error.errno == errno.ENOSPC or error.errno == getattr(errno, "EDQUOT", -1):
        return "the disk is full: free some space, then run the same command again to resume"
    if error.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
        return "choose a folder you can write to (--out)"
    if error.errno in (errno.ENOTDIR, errno.EEXIST):
        return "a file is in the way: choose another folder (--out)"
    return "check the folder, then run the same command again to resume"


def write_error(what: str, path: Path, error: OSError) -> SweepError:
    """A :class:`SweepError` for an ``OSError`` met writing ``what`` at ``path``.

    Parameters
    ----------
    what
        What was written ("the manifest", "unit 3 to").
    path
        The file or folder.
    error
        The error the operating system gave.

    Returns
    -------
    SweepError
        Names the file, the reason (with its errno code) and what to do.
    """
    reason = error.strerror or str(error)
    code = errno.errorcode.get(error.errno or 0, "")
    code = f" ({code})" if code else ""
    return SweepError(f"cannot write {what} {str(path)!r}: {reason}{code}; {_hint(error)}")
