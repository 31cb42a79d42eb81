"""Checkpoints of ``simulate --out`` and ``simulate --resume`` [SIM-out, SIM-resume].

A checkpoint is a JSON file that names the run (every setting that chooses its games) and
holds each finished chunk: its seeds, the scores and strikeouts of its finished games, its
failures, the trace digest of every game [SIM-trace-hash] and the chunk's seal, which
binds each game's outcome to its trace digest [SIM-outcome-hash].  That is all the final
result is computed from, so a run resumed from a checkpoint ends with the very statistics
and hashes of a run that was never interrupted.  It is rewritten atomically, so it is
always a whole checkpoint, never half of one.

A checkpoint is not signed: whoever may write it can forge it whole, seals included.  A
chunk whose outcomes were edited apart from its digests is refused; one forged with care
is not, but the run then publishes an outcome hash (computed from the outcomes it
reports) that differs from the genuine run's [SIM-resume].
"""

from __future__ import annotations

import json
import re
import stat
import sys
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from hanabi_ref.base.errors import FileReadError, HanabiError
from hanabi_ref.base.escape import escape_text
from hanabi_ref.tools.sim.chunks import Chunk, ChunkResult, Failure, GameSetup
from hanabi_ref.formats.serial import parse_json
from hanabi_ref.tools.sim.executors import SetupError
from hanabi_ref.tools.sim.files import write_text_atomically
from hanabi_ref.tools.sim.trace_hash import chunk_seal
from hanabi_ref.engine.tables import tables_for

FORMAT = "hanabi-ref simulate checkpoint"
VERSION = 2
"""[SIM-out] 2: chunks carry their seal (``sha256``); a version 1 checkpoint is refused."""
RUN_KEYS = ("strategy", "params", "players", "hand_size", "rules", "variant", "seed", "games", "hanabi_ref")
"""[SIM-resume] The settings that choose a run's games, compared in this order."""
DIGEST_HEX = 64
CHECKPOINT_SECONDS = 60.0
"""[SIM-out] Default: the checkpoint is rewritten at most once a minute."""


class CheckpointError(HanabiError):
    """[SIM-resume] A ``--resume`` file that is not a well-formed checkpoint (exit 1)."""


# ------------------------------------------------------------------ writing


class CheckpointWriter:
    """[SIM-out] Keeps the finished chunks of a run and rewrites the checkpoint at ``path``
    when ``every`` seconds have passed since it was last written (0: after every chunk);
    with no path it only keeps them (to count them when a run stops)."""

    def __init__(self, path: Path | None, run: Mapping[str, Any], every: float,
                 kept: Sequence[tuple[Chunk, ChunkResult]] = ()) -> None:
        self.path = path
        self.run = dict(run)
        self.every = every
        self.chunks = list(kept)
        self.seals = {chunk.first_seed: seal_of(chunk, result) for chunk, result in self.chunks}
        """each chunk's seal, taken once (a long run rewrites its checkpoint many times)"""
        self.written = time.monotonic()
        self.warned = False

    @property
    def games(self) -> int:
        """Games of the finished chunks."""
        return sum(chunk.games for chunk, _ in self.chunks)

    def add(self, chunk: Chunk, result: ChunkResult) -> None:
        """Keep a finished chunk; rewrite the checkpoint if it is due.  [SIM-out-early] A
        rewrite that fails (a disk that filled up) does not stop the run, whose games are
        still reported at its end: one warning line on stderr at the first failure, and
        the checkpoint is tried again when it is next due."""
        self.chunks.append((chunk, result))
        self.seals[chunk.first_seed] = seal_of(chunk, result)
        if time.monotonic() - self.written >= self.every:
            self.write_or_warn()

    def write_or_warn(self) -> None:
        """[SIM-out-early] :meth:`write`, but a failure is a warning line on stderr (the
        first one only), and the file keeps its last checkpoint."""
        try:
            self.write()
        except SetupError as error:
            self.written = time.monotonic()
            if not self.warned:
                self.warned = True
                print(escape_text(f"hanabi-ref: warning: {error}; the run goes on, and {self.path} keeps its "
                                  f"last checkpoint"), file=sys.stderr, flush=True)

    def write(self) -> None:
        """Rewrite the checkpoint now, atomically."""
        if self.path is None:
            return
        write_text_atomically(self.path, render_checkpoint(self.run, self.chunks, self.seals), "--out")
        self.written = time.monotonic()


def render_checkpoint(run: Mapping[str, Any], chunks: Sequence[tuple[Chunk, ChunkResult]],
                      seals: Mapping[int, str] | None = None) -> str:
    """[SIM-out] The checkpoint document as JSON text, chunks in seed order; ``seals`` holds
    the chunks' seals by first seed where they were taken already."""
    known = seals or {}
    ordered = sorted(chunks, key=lambda pair: pair[0].first_seed)
    document = {
        "checkpoint": FORMAT,
        "version": VERSION,
        "run": dict(run),
        "chunks": [_chunk_json(chunk, result, known.get(chunk.first_seed) or seal_of(chunk, result))
                   for chunk, result in ordered],
    }
    return json.dumps(document, sort_keys=True) + "\n"


def seal_of(chunk: Chunk, result: ChunkResult) -> str:
    """[SIM-out, SIM-outcome-hash] The chunk's seal: its trace digests bound to its
    outcomes (:func:`~hanabi_ref.tools.sim.trace_hash.chunk_seal`)."""
    return chunk_seal(result.digests, result.outcome_digests(chunk.seeds()))


def _chunk_json(chunk: Chunk, result: ChunkResult, seal: str) -> dict[str, Any]:
    return {
        "first_seed": chunk.first_seed,
        "games": chunk.games,
        "scores": list(result.scores),
        "strikeouts": list(result.strikeouts),
        "failures": [{"seed": failure.seed, "error": failure.error} for failure in result.failures],
        "digests": b"".join(result.digests).hex(),
        "sha256": seal,
    }


# ------------------------------------------------------------------ reading


HEAD_BYTES = 4096
"""[SIM-out-lock] How much of a file is read to tell whether it holds a checkpoint."""
_FORMAT_KEY = re.compile(rb'"checkpoint"\s*:\s*"' + re.escape(FORMAT.encode("ascii")) + rb'"')


def is_checkpoint_file(path: Path) -> bool:
    """[SIM-out-lock] Whether ``path`` is a regular file that holds a checkpoint: its first
    :data:`HEAD_BYTES` bytes hold the key ``"checkpoint": "hanabi-ref simulate
    checkpoint"`` (a checkpoint writes it first; inside a JSON string its quotes would be
    escaped, so a failure's text cannot imitate it)."""
    try:
        if not stat.S_ISREG(path.stat().st_mode):
            return False
        with path.open("rb") as file:
            head = file.read(HEAD_BYTES)
    except OSError:
        return False
    return _FORMAT_KEY.search(head) is not None



def load_checkpoint(path: Path, run: Mapping[str, Any], setup: GameSetup) -> list[tuple[Chunk, ChunkResult]]:
    """[SIM-resume] The finished chunks of the checkpoint at ``path``, which must name the
    same run as ``run``; :class:`SetupError` names the first setting that differs,
    :class:`CheckpointError` what is malformed and where."""
    document = _read_json(path)
    where = f"--resume {path}"
    if not isinstance(document, dict) or document.get("checkpoint") != FORMAT:
        if isinstance(document, dict) and "trace_sha256" in document:
            raise SetupError(f"{where}: holds the result of a finished run, not a checkpoint: nothing to resume")
        raise CheckpointError(f"{where}: not a simulate checkpoint (no \"checkpoint\": \"{FORMAT}\")")
    if document.get("version") != VERSION:
        raise CheckpointError(f"{where}: version: expected {VERSION}, got {document.get('version')!r}")
    _compare_runs(where, document.get("run"), run)
    items = document.get("chunks")
    if not isinstance(items, list):
        raise CheckpointError(f"{where}: chunks: expected a list")
    max_score = tables_for(setup.config()).max_score
    chunks = [_parse_chunk(f"{where}: chunks[{number}]", item, setup, max_score) for number, item in enumerate(items)]
    _check_coverage(where, chunks, setup, run)
    return chunks


def _read_json(path: Path) -> Any:
    """The checkpoint's JSON, read by the rules of T-json; only a regular file is read (a
    FIFO without a writer would hold the command)."""
    try:
        if not stat.S_ISREG(path.stat().st_mode):
            raise FileReadError(f"--resume {path}: cannot read: not a regular file")
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        reason = getattr(error, "strerror", None) or describe(error)
        raise FileReadError(f"--resume {path}: cannot read: {reason}") from None
    try:
        return parse_json(text)
    except (ValueError, RecursionError) as error:
        raise CheckpointError(f"--resume {path}: not JSON: {describe(error)}") from None


def describe(error: BaseException) -> str:
    return " ".join(str(error).split()) or type(error).__name__


def _compare_runs(where: str, stored: Any, run: Mapping[str, Any]) -> None:
    """[SIM-resume] Refuse a checkpoint of another run, naming the first difference."""
    if not isinstance(stored, dict):
        raise CheckpointError(f"{where}: run: expected an object")
    for key in RUN_KEYS:
        if key == "params" and isinstance(stored.get(key), dict):
            _compare_params(where, stored[key], run[key])
        elif not _same(stored.get(key), run[key]):
            raise SetupError(f"{where}: made by a run with {key} {_show(stored.get(key))}, "
                             f"this one has {_show(run[key])}")


def _compare_params(where: str, stored: Mapping[str, Any], params: Mapping[str, Any]) -> None:
    for name in sorted(set(stored) | set(params)):
        if not _same(stored.get(name), params.get(name)):
            raise SetupError(f"{where}: made by a run with parameter {name}={_show(stored.get(name))}, "
                             f"this one has {name}={_show(params.get(name))}")


def _same(left: Any, right: Any) -> bool:
    """Equal values of equal JSON kinds (``True`` is not ``1``, ``1`` is ``1.0``)."""
    return isinstance(left, bool) == isinstance(right, bool) and left == right


def _show(value: Any) -> str:
    return "none" if value is None else json.dumps(value)


def _parse_chunk(where: str, item: Any, setup: GameSetup, max_score: int) -> tuple[Chunk, ChunkResult]:
    if not isinstance(item, dict):
        raise CheckpointError(f"{where}: expected an object")
    first, games = _integer(item, "first_seed", where), _integer(item, "games", where)
    if games < 1:
        raise CheckpointError(f"{where}.games: must be positive, got {games}")
    chunk = Chunk(setup, first, games)
    scores = [_check_score(value, f"{where}.scores[{n}]", max_score) for n, value in enumerate(_list(item, "scores", where))]
    strikeouts = [_check_bool(value, f"{where}.strikeouts[{n}]") for n, value in enumerate(_list(item, "strikeouts", where))]
    failures = [_parse_failure(f"{where}.failures[{n}]", value, chunk) for n, value in enumerate(_list(item, "failures", where))]
    _check_failure_order(where, failures)
    if len(strikeouts) != len(scores) or len(scores) + len(failures) != games:
        raise CheckpointError(f"{where}: {len(scores)} scores, {len(strikeouts)} strikeouts and {len(failures)} "
                              f"failures do not make its {games} games")
    result = ChunkResult(tuple(scores), tuple(strikeouts), tuple(failures), _digests(item, where, games))
    _check_seal(where, item, chunk, result)
    return chunk, result


def _check_failure_order(where: str, failures: Sequence[Failure]) -> None:
    """[SIM-resume] A chunk's failures name distinct seeds, in ascending order."""
    for number in range(1, len(failures)):
        if failures[number].seed <= failures[number - 1].seed:
            raise CheckpointError(f"{where}.failures[{number}].seed: {failures[number].seed} is not above the "
                                  f"seed before it (seeds ascending, each once)")


def _check_seal(where: str, item: Mapping[str, Any], chunk: Chunk, result: ChunkResult) -> None:
    """[SIM-resume, SIM-outcome-hash] The chunk's seal, taken again from its trace digests
    and its outcomes, must be the one it holds: an outcome (score, strikeout, failure)
    edited apart from the digests is refused.  (A seal is no signature: a forger who
    recomputes it passes here, and the run's outcome hash shows the forgery.)"""
    stored = item.get("sha256")
    if not isinstance(stored, str) or len(stored) != DIGEST_HEX:
        raise CheckpointError(f"{where}.sha256: expected {DIGEST_HEX} hexadecimal digits")
    if stored.lower() != seal_of(chunk, result):
        raise CheckpointError(f"{where}: its outcomes (scores, strikeouts, failures) or trace digests do not match "
                              f"its sha256: the checkpoint was changed after it was written")


def _parse_failure(where: str, value: Any, chunk: Chunk) -> Failure:
    if not isinstance(value, dict) or not isinstance(value.get("error"), str):
        raise CheckpointError(f"{where}: expected {{\"seed\": integer, \"error\": text}}")
    seed = _integer(value, "seed", where)
    if seed not in chunk.seeds():
        raise CheckpointError(f"{where}.seed: {seed} is not a seed of its chunk")
    return Failure(seed, value["error"])


def _digests(item: Mapping[str, Any], where: str, games: int) -> tuple[bytes, ...]:
    text = item.get("digests")
    if not isinstance(text, str) or len(text) != DIGEST_HEX * games:
        raise CheckpointError(f"{where}.digests: expected {DIGEST_HEX} hexadecimal digits per game")
    try:
        data = bytes.fromhex(text)
    except ValueError:
        raise CheckpointError(f"{where}.digests: not hexadecimal") from None
    size = DIGEST_HEX // 2
    return tuple(data[start:start + size] for start in range(0, len(data), size))


def _check_coverage(where: str, chunks: Sequence[tuple[Chunk, ChunkResult]], setup: GameSetup,
                    run: Mapping[str, Any]) -> None:
    """The chunks lie inside the run's seeds and do not overlap."""
    end = int(run["seed"])
    for chunk, _ in sorted(chunks, key=lambda pair: pair[0].first_seed):
        if chunk.first_seed < end:
            raise CheckpointError(f"{where}: chunk of seed {chunk.first_seed} overlaps another or precedes the first seed")
        end = chunk.first_seed + chunk.games
    if end > int(run["seed"]) + int(run["games"]):
        raise CheckpointError(f"{where}: a chunk ends after the run's last seed")


def _list(item: Mapping[str, Any], key: str, where: str) -> list[Any]:
    value = item.get(key)
    if not isinstance(value, list):
        raise CheckpointError(f"{where}.{key}: expected a list")
    return value


def _integer(item: Mapping[str, Any], key: str, where: str) -> int:
    return _check_int(item.get(key), f"{where}.{key}")


def _check_int(value: Any, where: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise CheckpointError(f"{where}: expected a non-negative integer, got {_show(value)}")
    return value


def _check_score(value: Any, where: str, max_score: int) -> int:
    score = _check_int(value, where)
    if score > max_score:
        raise CheckpointError(f"{where}: {score} is above the highest score {max_score}")
    return score


def _check_bool(value: Any, where: str) -> bool:
    if not isinstance(value, bool):
        raise CheckpointError(f"{where}: expected true or false, got {_show(value)}")
    return value
