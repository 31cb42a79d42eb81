"""Checkpoints of ``simulate --out`` and ``simulate --resume`` [SIM-out, SIM-resume].

A checkpoint is a JSON file that names the run (every setting that chooses its games) and
holds each finished chunk: its seeds, the scores and strikeouts of its finished games, its
failures and the trace digest of every game [SIM-trace-hash].  That is all the final
result is computed from, so a run resumed from a checkpoint ends with the very statistics
and trace hash of a run that was never interrupted.  It is rewritten atomically, so it is
always a whole checkpoint, never half of one.
"""

from __future__ import annotations

import json
import stat
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from hanabi_ref.errors import FileReadError, HanabiError
from hanabi_ref.sim.chunks import Chunk, ChunkResult, Failure, GameSetup
from hanabi_ref.serial import parse_json
from hanabi_ref.sim.executors import SetupError
from hanabi_ref.sim.files import write_text_atomically

FORMAT = "hanabi-ref simulate checkpoint"
VERSION = 1
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
        self.written = time.monotonic()

    @property
    def games(self) -> int:
        """Games of the finished chunks."""
        return sum(chunk.games for chunk, _ in self.chunks)

    def add(self, chunk: Chunk, result: ChunkResult) -> None:
        """Keep a finished chunk; rewrite the checkpoint if it is due."""
        self.chunks.append((chunk, result))
        if time.monotonic() - self.written >= self.every:
            self.write()

    def write(self) -> None:
        """Rewrite the checkpoint now, atomically."""
        if self.path is None:
            return
        write_text_atomically(self.path, render_checkpoint(self.run, self.chunks), "--out")
        self.written = time.monotonic()


def render_checkpoint(run: Mapping[str, Any], chunks: Sequence[tuple[Chunk, ChunkResult]]) -> str:
    """[SIM-out] The checkpoint document as JSON text, chunks in seed order."""
    document = {
        "checkpoint": FORMAT,
        "version": VERSION,
        "run": dict(run),
        "chunks": [_chunk_json(chunk, result) for chunk, result in sorted(chunks, key=lambda pair: pair[0].first_seed)],
    }
    return json.dumps(document, sort_keys=True) + "\n"


def _chunk_json(chunk: Chunk, result: ChunkResult) -> dict[str, Any]:
    return {
        "first_seed": chunk.first_seed,
        "games": chunk.games,
        "scores": list(result.scores),
        "strikeouts": list(result.strikeouts),
        "failures": [{"seed": failure.seed, "error": failure.error} for failure in result.failures],
        "digests": b"".join(result.digests).hex(),
    }


# ------------------------------------------------------------------ reading


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
    max_score = setup.config().max_score
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
    if len(strikeouts) != len(scores) or len(scores) + len(failures) != games:
        raise CheckpointError(f"{where}: {len(scores)} scores, {len(strikeouts)} strikeouts and {len(failures)} "
                              f"failures do not make its {games} games")
    return chunk, ChunkResult(tuple(scores), tuple(strikeouts), tuple(failures), _digests(item, where, games))


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
