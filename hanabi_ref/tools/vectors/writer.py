"""Writing and reading a vectors directory [VEC-generate, VEC-files].

``generate(DIR)`` runs every case function under every preset and writes

    DIR/index.json              format, version, files, counts, clause coverage
    DIR/<preset>/<case>.json    a JSON list of that case's vectors

as canonical JSON [T-canonical] (sorted keys, no insignificant whitespace, integers
only, one newline at the end), byte for byte the same on every run.  The directory is replaced as a whole: the
files are written into a temporary directory beside DIR which is then renamed into
place, so DIR is never half-written.  An existing DIR is replaced only if it is empty or
a vectors directory this function wrote (its ``index.json`` names the format and lists
every file in it); anything else is refused, so that no unrelated file is deleted.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from hanabi_ref.formats.serial import canonical_json
from hanabi_ref.tools.vectors.model import FORMAT, PRESET_NAMES, VERSION, Vector, VectorsError
from hanabi_ref.tools.vectors.registry import EXEMPT_CLAUSES, EXEMPT_PREFIXES, NOT_APPLICABLE, case_table, iter_vectors
from hanabi_ref.tools.vectors.validate import VECTORS_SCHEMA, file_violation, vector_violation

INDEX = "index.json"


def file_text(vectors: Iterable[Vector]) -> str:
    """One vector file [VEC-files, T-canonical]: the canonical JSON list of the vectors
    and one newline."""
    return canonical_json([vector.data for vector in vectors]) + "\n"


def group(vectors: Iterable[Vector]) -> dict[str, list[Vector]]:
    """Vectors by file path ``<preset>/<case>.json``, in generation order; names unique."""
    files: dict[str, list[Vector]] = {}
    names: set[str] = set()
    for vector in vectors:
        if vector.name in names:
            raise VectorsError(f"vector name {vector.name!r} occurs twice")
        names.add(vector.name)
        case = vector.name.split("/")[1]
        files.setdefault(f"{vector.preset}/{case}.json", []).append(vector)
    return files


def coverage(vectors: Iterable[Vector]) -> dict[str, dict[str, int]]:
    """For each clause id, the number of vectors citing it under each preset [VEC-coverage]."""
    table: dict[str, dict[str, int]] = {}
    for vector in vectors:
        for clause in vector.clauses:
            row = table.setdefault(clause, {})
            row[vector.preset] = row.get(vector.preset, 0) + 1
    return table


def index_json(files: dict[str, list[Vector]], texts: dict[str, str]) -> dict[str, Any]:
    """The index [VEC-files]: format, version, every file with its preset, case, count
    and SHA-256, the total, the clause coverage and the clauses no vector shows."""
    every = [vector for vectors in files.values() for vector in vectors]
    return {
        "format": FORMAT,
        "version": VERSION,
        "presets": list(PRESET_NAMES),
        "cases": list(case_table()),
        "files": [
            {
                "path": path,
                "preset": vectors[0].preset,
                "case": path.split("/")[1].removesuffix(".json"),
                "count": len(vectors),
                "sha256": hashlib.sha256(texts[path].encode("utf-8")).hexdigest(),
            }
            for path, vectors in files.items()
        ],
        "vectors": len(every),
        "coverage": coverage(every),
        "not_applicable": [
            {"clause": clause, "preset": preset, "reason": reason}
            for (clause, preset), reason in NOT_APPLICABLE.items()
        ],
        "exempt": {"prefixes": list(EXEMPT_PREFIXES), "clauses": sorted(EXEMPT_CLAUSES)},
    }


def generate(directory: Path | str, vectors: Iterable[Vector] | None = None) -> int:
    """Write every vector into ``directory``, replacing it as a whole; return how many
    were written [VEC-generate, VEC-schema].

    ``vectors`` defaults to :func:`iter_vectors` (every case under every preset, checks
    run).  Every vector and the index are checked against ``vectors.schema.json``
    before anything is written.  Raises :class:`VectorsError` for a directory that is
    neither empty nor a previous vectors directory, or for a vector outside the schema
    (a bug in its case function)."""
    target = Path(directory)
    check_replaceable(target)
    files = group(iter_vectors() if vectors is None else vectors)
    for vector in (vector for vectors in files.values() for vector in vectors):
        check_schema(vector_violation(vector.data), vector.name)
    texts = {path: file_text(vectors) for path, vectors in files.items()}
    index = index_json(files, texts)
    check_schema(file_violation(index), INDEX)
    texts[INDEX] = canonical_json(index) + "\n"
    target.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{target.name}.new-", dir=target.parent))
    try:
        for path, text in texts.items():
            (staging / path).parent.mkdir(parents=True, exist_ok=True)
            (staging / path).write_text(text, encoding="utf-8")
        replace_directory(staging, target)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return sum(len(vectors) for vectors in files.values())


def check_schema(violation: object, where: str) -> None:
    """[VEC-schema] raise a one-line :class:`VectorsError` for a violation of the schema."""
    if violation is not None:
        raise VectorsError(f"{where}: outside {VECTORS_SCHEMA}: {violation}")


def check_replaceable(target: Path) -> None:
    """[VEC-generate] DIR may be absent, empty, or a vectors directory (nothing else in it)."""
    if not target.exists():
        return
    if not target.is_dir():
        raise VectorsError(f"{target}: exists and is not a directory")
    if any(target.iterdir()) and not is_vectors_directory(target):
        raise VectorsError(f"{target}: exists, is not empty and is not a vectors directory (no {INDEX} of format {FORMAT} listing every file); refusing to replace it")


def is_vectors_directory(target: Path) -> bool:
    """Whether ``target`` holds an index of our format and no file the index does not list."""
    try:
        index = json.loads((target / INDEX).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    if not isinstance(index, dict) or index.get("format") != FORMAT or not isinstance(index.get("files"), list):
        return False
    listed = {INDEX} | {entry.get("path") for entry in index["files"] if isinstance(entry, dict)}
    present = {str(path.relative_to(target).as_posix()) for path in target.rglob("*") if path.is_file()}
    return present <= listed


def replace_directory(staging: Path, target: Path) -> None:
    """Move ``staging`` to ``target``; an old ``target`` is moved aside first and deleted
    only once the new one is in place (restored if the move fails)."""
    if not target.exists():
        os.rename(staging, target)
        return
    aside = Path(tempfile.mkdtemp(prefix=f".{target.name}.old-", dir=target.parent))
    os.rmdir(aside)
    os.rename(target, aside)
    try:
        os.rename(staging, target)
    except OSError:
        os.rename(aside, target)
        raise
    shutil.rmtree(aside, ignore_errors=True)


def read_vectors(directory: Path | str) -> Iterator[Vector]:
    """The vectors of a written directory, file by file as its index lists them
    [VEC-files, VEC-schema]; a file whose SHA-256 differs from the index, or that is
    outside ``vectors.schema.json`` (the index too), is refused."""
    root = Path(directory)
    if not is_vectors_directory(root):
        raise VectorsError(f"{root}: not a vectors directory (no {INDEX} of format {FORMAT})")
    index = json.loads((root / INDEX).read_text(encoding="utf-8"))
    check_schema(file_violation(index), str(root / INDEX))
    for entry in index["files"]:
        text = (root / entry["path"]).read_text(encoding="utf-8")
        if hashlib.sha256(text.encode("utf-8")).hexdigest() != entry["sha256"]:
            raise VectorsError(f"{root / entry['path']}: its SHA-256 differs from {INDEX}")
        data = json.loads(text)
        check_schema(file_violation(data), str(root / entry["path"]))
        for item in data:
            yield Vector.from_data(item)
