"""Optional packages: one error for a missing one, naming the ``pip install`` that fixes it
[C-extras].

The run-time dependencies are those of pyproject.toml (attrs, icontract, tqdm, jsonschema,
hypothesis, orjson, numpy, mypy_extensions); everything else (PettingZoo and Gymnasium for
``rl``, PyTorch for ``train``, open-spiel for the OpenSpiel peer, dask's ``distributed``,
matplotlib, mypy for the compiled build) is an extra.  A command that needs a missing one
stops before it starts, with exit code 2 and one line such as
``hanabi-ref: rl train needs numpy: pip install '.[rl]'`` (the command names the checkout;
hanabi_ref is installed from it, not from PyPI).
"""

from __future__ import annotations

from pathlib import Path

from hanabi_ref.base.errors import ConfigError


class MissingPackageError(ConfigError):
    """[C-extras] An optional package a command needs is not installed (exit code 2)."""


class MissingExtraImport(MissingPackageError, ImportError):
    """[C-extras] A module of an extra imported without the extra: an ``ImportError`` (so
    code that tries an optional import still catches it) whose message names the extra."""


def checkout() -> Path | None:
    """The hanabi_ref checkout this package runs from (an editable install or the sources
    on the path), or None for an installed copy."""
    root = Path(__file__).resolve().parent.parent.parent
    project = root / "pyproject.toml"
    try:
        return root if project.is_file() and 'name = "hanabi_ref"' in project.read_text(encoding="utf-8") else None
    except OSError:
        return None


def install_hint(extra: str) -> str:
    """The command that installs an extra [C-extras].  hanabi_ref is installed from its
    checkout (it is not on PyPI): from the checkout this package runs from, the command names
    it (``.`` when it is the working directory); from an installed copy, the checkout's."""
    root = checkout()
    if root is None:
        return f"pip install '.[{extra}]' in the hanabi_ref checkout"
    try:
        here = root.samefile(Path.cwd())
    except OSError:
        here = False
    return f"pip install '.[{extra}]'" if here else f"pip install '{root}[{extra}]'"


def missing(what: str, package: str, extra: str, error: BaseException | None = None) -> MissingPackageError:
    """The error for ``what`` needing ``package`` of ``extra`` [C-extras]."""
    detail = f" ({error})" if error is not None and str(error) else ""
    return MissingPackageError(f"{what} needs {package}{detail}: {install_hint(extra)}")


def missing_import(what: str, error: ModuleNotFoundError, extra: str) -> MissingExtraImport:
    """The one-line error for ``what`` imported without ``extra`` (``error``: the failed
    import) [C-extras]."""
    return MissingExtraImport(f"{what} needs {error.name or 'a package'}: {install_hint(extra)}")
