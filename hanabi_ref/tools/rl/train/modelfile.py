"""Reading the files of learned agents within stated limits [RL-train-files, RL-train-limits].

A model file is data and only data: it is read from a regular file (a FIFO, device,
directory or socket is refused without blocking), its zip directory is bounded before
Python's :mod:`zipfile` parses it, its members are exactly the seven that
:func:`~hanabi_ref.tools.rl.train.policy.save_model` writes, each member's declared size is
checked against a limit before anything is decompressed, ``meta`` is read first (at most
:data:`META_LIMIT` bytes) and checked, then every weight's ``.npy`` header alone is read
and checked against ``meta`` (float32 little-endian, C order, the shape ``meta`` gives),
and only then its data, whose size must be the header's.  So reading any file costs at
most some :data:`TOTAL_LIMIT` bytes and a fraction of a second, whatever it holds.

The same opening (:func:`open_regular`) and directory bound (:func:`open_zip`) serve the
training checkpoint (:mod:`hanabi_ref.tools.rl.train.checkpoint`).  Every refusal is an
:class:`RLError` naming the file and, inside it, the member.
"""

from __future__ import annotations

import io
import json
import math
import os
import stat
import struct
import zipfile
import zlib
from typing import IO, Any, Final

import numpy as np
import numpy.typing as npt

from hanabi_ref.tools.rl.errors import RLError

FORMAT: Final = 1
"""The version of the model file format."""

WEIGHTS: Final = ("w0", "b0", "w1", "b1", "w2", "b2")

OFFSET_KINDS: Final = ("view", "policy")
"""[RL-train-offset] how an offset model's outputs give the offset: ``view``, R legality
logits (the offset of most expected legal sums); ``policy``, R offset logits (the largest)."""

EMBEDDINGS: Final = {"recommendation": ("constant", "modular"), "offset": ("public",), "judge": ("any",),
                     "info-actor": ("modular",)}
"""The agents a model file may hold, with the embeddings each may name."""

# ---------------------------------------------------------------- the limits [RL-train-limits]

MODEL_FILE_LIMIT: Final = 32 << 20
"""bytes of a model file on disk (the shipped recommender has 470 KB)"""
DIRECTORY_LIMIT: Final = 64 << 10
"""bytes of a zip's central directory (seven members take 366)"""
MODEL_ENTRIES: Final = 16
"""members a model file's directory may list (it must then hold exactly its seven)"""
META_LIMIT: Final = 64 << 10
"""bytes of ``meta.npy`` decompressed (the shipped ones have 732 and 752)"""
HEADER_LIMIT: Final = 4 << 10
"""bytes of the text of a ``.npy`` header (numpy writes 118)"""
TOTAL_LIMIT: Final = 32 << 20
"""bytes of all the members of a model file decompressed"""
SIZE_LIMITS: Final = {"inputs": 4096, "hidden": 1024, "hats": 1024, "players": 64, "hand_size": 64}
"""the largest number each of these fields of ``meta`` may hold (the weights then take at
most 24 MiB; the shipped recommender: 838, 128, 8, 4, 4)"""
RULES_LIMIT: Final = 64
"""characters of ``meta``'s ``rules``"""

UNREADABLE: Final = (OSError, EOFError, ValueError, TypeError, SyntaxError, RuntimeError, KeyError, zipfile.BadZipFile,
                     zlib.error, struct.error)
"""What reading a damaged archive may raise (RecursionError is a RuntimeError)."""

_KINDS: Final = ((stat.S_ISFIFO, "a FIFO"), (stat.S_ISDIR, "a directory"), (stat.S_ISCHR, "a character device"),
                 (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"))


def _short(error: BaseException | str) -> str:
    """An error's text on one line, at most 200 characters."""
    return " ".join(str(error).split())[:200]


def _check_kind(name: str, status: os.stat_result, limit: int, what: str) -> None:
    """[RL-train-limits] refuse anything but a regular file of at most ``limit`` bytes."""
    if not stat.S_ISREG(status.st_mode):
        kind = next((words for test, words in _KINDS if test(status.st_mode)), "not a regular file")
        raise RLError("RL-train-limits", f"{name}: {kind}, not a {what} (only regular files are read)")
    if status.st_size > limit:
        raise RLError("RL-train-limits", f"{name}: {status.st_size} bytes; a {what} has at most {limit}")


def open_regular(name: str, limit: int, what: str) -> IO[bytes]:
    """[RL-train-limits] ``name`` open for reading, if it is a regular file of at most
    ``limit`` bytes; looked at before it is opened, opened without blocking (a FIFO put
    in its place meanwhile is then refused, not waited on) and looked at again."""
    try:
        _check_kind(name, os.stat(name), limit, what)
        descriptor = os.open(name, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        raise RLError("RL-train-files", f"{name}: no such {what}") from None
    except OSError as error:
        raise RLError("RL-train-files", f"{name}: cannot read: {error.strerror or _short(error)}") from None
    handle = os.fdopen(descriptor, "rb")
    try:
        _check_kind(name, os.fstat(descriptor), limit, what)
    except RLError:
        handle.close()
        raise
    return handle


def _directory_size(handle: IO[bytes], size: int) -> tuple[int, int]:
    """The member count and central directory size that :mod:`zipfile` will read: from
    the end record, which must be the file's last 22 bytes (no comment), or from the
    zip64 end record when a zip64 locator precedes it (as ``zipfile`` looks for them)."""
    if size < 22:
        raise ValueError("shorter than an end record")
    handle.seek(size - 22)
    end = handle.read(22)
    if end[:4] != b"PK\x05\x06" or end[20:22] != b"\0\0":
        raise ValueError("no end record in its last 22 bytes")
    entries, directory = struct.unpack("<HI", end[10:16])
    if size >= 42:
        handle.seek(size - 42)
        if handle.read(4) == b"PK\x06\x07":
            if size < 98:
                raise ValueError("a zip64 locator without its record")
            handle.seek(size - 98)
            record = handle.read(56)
            if record[:4] != b"PK\x06\x06":
                raise ValueError("a zip64 locator without its record")
            entries, directory = struct.unpack("<QQ", record[32:48])
    return entries, directory


def open_zip(handle: IO[bytes], name: str, entries_limit: int) -> zipfile.ZipFile:
    """[RL-train-limits] the zip archive of ``handle``, its central directory first
    bounded (at most :data:`DIRECTORY_LIMIT` bytes and ``entries_limit`` members), so
    that parsing it costs little whatever the file says."""
    try:
        entries, directory = _directory_size(handle, os.fstat(handle.fileno()).st_size)
        if directory > DIRECTORY_LIMIT or entries > entries_limit:
            raise RLError("RL-train-limits", f"{name}: a zip directory of {entries} members in {directory} bytes; "
                          f"at most {entries_limit} members in {DIRECTORY_LIMIT} bytes")
        handle.seek(0)
        return zipfile.ZipFile(handle)
    except UNREADABLE as error:
        raise RLError("RL-train-files", f"{name}: not a zip archive ({_short(error)})") from None


def check_members(archive: zipfile.ZipFile, name: str, expected: tuple[str, ...], total_limit: int,
                  methods: tuple[int, ...]) -> dict[str, zipfile.ZipInfo]:
    """[RL-train-limits] the members by name, if they are exactly ``expected``, none
    encrypted, each compressed by one of ``methods``, their declared sizes summing to at
    most ``total_limit``: all from the directory, before anything is decompressed."""
    infos = archive.infolist()
    names = sorted(info.filename for info in infos)
    if names != sorted(expected):
        shown = ", ".join(repr(member[:40]) for member in names[:10]) + (", ..." if len(names) > 10 else "")
        raise RLError("RL-train-files", f"{name}: members {shown}; a model file has exactly "
                      f"{', '.join(sorted(expected))}")
    for info in infos:
        if info.flag_bits & 0x1 or info.compress_type not in methods:
            raise RLError("RL-train-files", f"{name}: {info.filename}: encrypted or compressed by method "
                          f"{info.compress_type}; allowed: {', '.join(map(str, methods))}, not encrypted")
    total = sum(info.file_size for info in infos)
    if total > total_limit:
        largest = max(infos, key=lambda info: info.file_size)
        raise RLError("RL-train-limits", f"{name}: {largest.filename}: declares {largest.file_size} bytes, "
                      f"{total} in all; at most {total_limit} in all")
    return {info.filename: info for info in infos}


# ---------------------------------------------------------------- .npy members


def _read_exactly(stream: IO[bytes], count: int, what: str) -> bytes:
    data = stream.read(count)
    if len(data) != count:
        raise ValueError(f"{what} ends after {len(data)} of {count} bytes")
    return data


def read_npy_header(stream: IO[bytes]) -> tuple[tuple[int, ...], bool, np.dtype[Any], int]:
    """The shape, Fortran order and dtype of the ``.npy`` header at the start of
    ``stream``, and the header's length in bytes; only the header is read (its text at
    most :data:`HEADER_LIMIT` bytes), and by numpy's own header parser."""
    start = _read_exactly(stream, 10, "the header")
    if start[:6] != b"\x93NUMPY" or (start[6], start[7]) not in ((1, 0), (2, 0)):
        raise ValueError("not a .npy array of format 1.0 or 2.0")
    lengths = start[8:]
    if start[6] == 2:
        lengths += _read_exactly(stream, 2, "the header")
    length = struct.unpack("<H" if start[6] == 1 else "<I", lengths)[0]
    if length > HEADER_LIMIT:
        raise ValueError(f"a header of {length} bytes; at most {HEADER_LIMIT}")
    text = _read_exactly(stream, length, "the header")
    parse = np.lib.format.read_array_header_1_0 if start[6] == 1 else np.lib.format.read_array_header_2_0
    shape, fortran, dtype = parse(io.BytesIO(lengths + text), max_header_size=HEADER_LIMIT)
    return tuple(shape), bool(fortran), dtype, 8 + len(lengths) + length


def _read_member(archive: zipfile.ZipFile, info: zipfile.ZipInfo, name: str, check: Any) -> npt.NDArray[Any]:
    """The array of ``.npy`` member ``info``: its header read and given to ``check``
    (which refuses or returns the dtype and shape to read), its size then checked against
    the member's declared size, and only then its data read."""
    member = f"{name}: {info.filename}"
    try:
        with archive.open(info) as stream:
            shape, fortran, dtype, header = read_npy_header(stream)
            check(member, shape, fortran, dtype)
            count = math.prod(shape) * dtype.itemsize
            if info.file_size != header + count:
                raise RLError("RL-train-files", f"{member}: declares {info.file_size} bytes; its header says "
                              f"{header + count}")
            data = _read_exactly(stream, count, "the data")
            if stream.read(1):
                raise ValueError("data after the array")
    except UNREADABLE as error:
        raise RLError("RL-train-files", f"{member}: unreadable ({_short(error)})") from None
    return np.frombuffer(data, dtype=dtype).reshape(shape)


def _check_meta_header(member: str, shape: tuple[int, ...], fortran: bool, dtype: np.dtype[Any]) -> None:
    if shape != () or dtype.kind != "U" or dtype.itemsize == 0:
        raise RLError("RL-train-files", f"{member}: a {dtype.str} array of shape {shape}; meta is one text")


def read_meta(archive: zipfile.ZipFile, info: zipfile.ZipInfo, name: str) -> Any:
    """[RL-train-limits] the JSON value of member ``meta.npy`` (at most :data:`META_LIMIT`
    bytes decompressed)."""
    if info.file_size > META_LIMIT:
        raise RLError("RL-train-limits", f"{name}: {info.filename}: declares {info.file_size} bytes; "
                      f"meta has at most {META_LIMIT}")
    text = _read_member(archive, info, name, _check_meta_header)
    try:
        return json.loads(str(text[()]))
    except (ValueError, RecursionError) as error:
        raise RLError("RL-train-files", f"{name}: {info.filename}: not JSON ({_short(error)})") from None


def _shown(value: Any) -> str:
    return repr(value)[:40]


def check_meta(meta: Any, agent: str, name: str) -> dict[str, Any]:
    """[RL-train-files, RL-train-limits] ``meta`` if it is the meta of a model of
    ``agent`` (format, agent, embedding, the judge's threshold, the offset's kind) whose
    sizes are whole numbers within :data:`SIZE_LIMITS`; else :class:`RLError`."""
    if (not isinstance(meta, dict) or type(meta.get("format")) is not int or meta["format"] != FORMAT
            or meta.get("agent") != agent or meta.get("embedding") not in EMBEDDINGS[agent]
            or (agent == "offset" and meta.get("kind") not in OFFSET_KINDS)
            or (agent == "judge" and not (isinstance(meta.get("threshold"), float) and 0 < meta["threshold"] < 1))):
        raise RLError("RL-train-files", f"{name}: not {'an' if agent == 'offset' else 'a'} {agent} model of format {FORMAT}")
    for key, limit in SIZE_LIMITS.items():
        value = meta.get(key)
        if type(value) is not int or not 1 <= value <= limit:
            raise RLError("RL-train-limits", f"{name}: meta: {key} {_shown(value)} is not a whole number "
                          f"from 1 to {limit}")
    if not isinstance(meta.get("rules"), str) or not 0 < len(meta["rules"]) <= RULES_LIMIT:
        raise RLError("RL-train-limits", f"{name}: meta: rules {_shown(meta.get('rules'))} is not a text of "
                      f"1 to {RULES_LIMIT} characters")
    return meta


def weight_shapes(meta: dict[str, Any]) -> dict[str, tuple[int, ...]]:
    """[RL-train-files] the shape of each weight of a model of ``meta`` (inputs x outputs)."""
    inputs, hidden, hats = meta["inputs"], meta["hidden"], meta["hats"]
    return {"w0": (inputs, hidden), "b0": (hidden,), "w1": (hidden, hidden), "b1": (hidden,), "w2": (hidden, hats),
            "b2": (hats,)}


def _weight_check(shape: tuple[int, ...]) -> Any:
    def check(member: str, found: tuple[int, ...], fortran: bool, dtype: np.dtype[Any]) -> None:
        if found != shape or fortran or dtype != np.dtype("<f4"):
            raise RLError("RL-train-files", f"{member}: a {'Fortran-order ' if fortran else ''}{dtype.str} array of "
                          f"shape {found[:4]}; meta needs <f4 {shape}")
    return check


def read_model_file(name: str, agent: str) -> tuple[dict[str, npt.NDArray[np.float32]], dict[str, Any]]:
    """[RL-train-files, RL-train-limits] the weights and meta of the model file ``name``
    of ``agent``, read in the order the module docstring gives, or :class:`RLError`
    naming the file and the member."""
    members = tuple(f"{key}.npy" for key in (*WEIGHTS, "meta"))
    with open_regular(name, MODEL_FILE_LIMIT, "model file") as handle, \
            open_zip(handle, name, MODEL_ENTRIES) as archive:
        infos = check_members(archive, name, members, TOTAL_LIMIT, (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED))
        meta = check_meta(read_meta(archive, infos["meta.npy"], name), agent, name)
        shapes = weight_shapes(meta)
        for key, shape in shapes.items():  # every declared size against meta, before any weight is decompressed
            info, count = infos[f"{key}.npy"], math.prod(shape) * 4
            if not count + 10 <= info.file_size <= count + 12 + HEADER_LIMIT:
                raise RLError("RL-train-files", f"{name}: {info.filename}: declares {info.file_size} bytes; "
                              f"<f4 {shape} takes {count} and a header")
        weights = {key: _read_member(archive, infos[f"{key}.npy"], name, _weight_check(shape)).astype(np.float32)
                   for key, shape in shapes.items()}
    for key, value in weights.items():
        if not np.isfinite(value).all():
            raise RLError("RL-train-files", f"{name}: {key}.npy: not all finite numbers")
    return weights, meta
