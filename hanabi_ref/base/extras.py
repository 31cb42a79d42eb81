"""Optional packages: one error for a missing one, naming the ``pip install`` that fixes it
[C-extras].

The run-time dependencies are attrs, icontract, jsonschema and tqdm; everything else
(numpy and PyTorch for ``rl``, open-spiel for the OpenSpiel peer, dask's ``distributed``,
matplotlib, mypy for the compiled build) is an extra.  A command that needs a missing one
stops before it starts, with exit code 2 and one line such as
``hanabi-ref: rl train needs numpy: pip install 'hanabi-ref[rl]'``.
"""

from __future__ import annotations

from hanabi_ref.base.errors import ConfigError


class MissingPackageError(ConfigError):
    """[C-extras] An optional package a command needs is not installed (exit code 2)."""


def install_hint(extra: str) -> str:
    """The command that installs an extra [C-extras]."""
    return f"pip install 'hanabi-ref[{extra}]'"


def missing(what: str, package: str, extra: str, error: BaseException | None = None) -> MissingPackageError:
    """The error for ``what`` needing ``package`` of ``extra`` [C-extras]."""
    detail = f" ({error})" if error is not None and str(error) else ""
    return MissingPackageError(f"{what} needs {package}{detail}: {install_hint(extra)}")
