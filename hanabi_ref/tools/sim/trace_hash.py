"""The trace hash and the outcome hash of a run: one SHA-256 that names its games, action
for action, and one that names what it reports of them [SIM-trace-hash, SIM-outcome-hash].

Each game is hashed on its own, where it was played (a worker sends the 32-byte digest
back with the score); the run's hash is taken over those digests in seed order, so it
does not depend on the number of workers, the chunk size or the executor.  The outcome
hash is taken the same way over each game's outcome (its seed, and its score and
strikeout, or its failure's text), from the outcomes the run reports, so that a run
that reports other outcomes publishes another hash, however it came by them.  A
checkpoint seals each chunk with :func:`chunk_seal`, which binds every game's outcome to
its trace digest [SIM-resume].
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence

from hanabi_ref.engine.actions import Action, action_to_json
from hanabi_ref.formats.serial import canonical_json


def _sha256(text: str) -> bytes:
    return hashlib.sha256(text.encode("utf-8")).digest()


class GameHasher:
    """Digests of finished games [SIM-trace-hash].

    A game's document is ``{"actions": [...], "score": s}`` in canonical JSON: keys in
    code-point order ("actions" before "score"), ``,`` and ``:`` as the only separators,
    so it is the canonical JSON of each action [T-canonical] joined by commas inside that
    frame.  A run has few distinct actions (a few hundred per configuration), so each one's
    canonical JSON is made once and remembered here, for the hasher's lifetime."""

    def __init__(self) -> None:
        self._encoded: dict[Action, str] = {}

    def game_digest(self, actions: Sequence[Action], score: int) -> bytes:
        """[SIM-trace-hash] SHA-256 of the canonical JSON of ``{"actions": [the actions in
        trace form (T-actions)], "score": the final score}``, in UTF-8."""
        encoded = ",".join(self._encode(action) for action in actions)
        return _sha256(f'{{"actions":[{encoded}],"score":{score:d}}}')

    def _encode(self, action: Action) -> str:
        text = self._encoded.get(action)
        if text is None:
            text = self._encoded[action] = canonical_json(action_to_json(action))
        return text


def failure_digest() -> bytes:
    """[SIM-trace-hash, SIM-crash] The digest of a game that did not finish, whatever the
    error: SHA-256 of the canonical JSON of the failure marker ``{"failed": true}``, a
    form no finished game has."""
    return _sha256(canonical_json({"failed": True}))


def run_hash(digests: Iterable[bytes]) -> str:
    """[SIM-trace-hash] SHA-256 over the games' digests (32 bytes each, concatenated in
    seed order), as 64 lowercase hexadecimal digits."""
    hasher = hashlib.sha256()
    for digest in digests:
        hasher.update(digest)
    return hasher.hexdigest()


def outcome_digest(seed: int, score: int, strikeout: bool) -> bytes:
    """[SIM-outcome-hash] The outcome digest of a game that finished: SHA-256 of the
    canonical JSON of ``{"score": s, "seed": g, "strikeout": b}`` (T-canonical: keys in
    code-point order, no spaces; the document holds integers and a boolean only, so it is
    written here directly)."""
    flag = "true" if strikeout else "false"
    return _sha256(f'{{"score":{score:d},"seed":{seed:d},"strikeout":{flag}}}')


def failed_outcome_digest(seed: int, error: str) -> bytes:
    """[SIM-outcome-hash, SIM-crash] The outcome digest of a game that failed: SHA-256 of
    the canonical JSON of ``{"error": its failure's text, "seed": g}``."""
    return _sha256(canonical_json({"error": error, "seed": seed}))


def chunk_seal(trace_digests: Sequence[bytes], outcome_digests: Sequence[bytes]) -> str:
    """[SIM-resume] The seal of a checkpoint's chunk: SHA-256 over each game's trace digest
    followed by its outcome digest (64 bytes a game, in seed order), in hexadecimal.  It
    binds each game's outcome to its trace digest, so that a chunk whose outcomes were
    edited apart from its digests is refused on resume."""
    if len(trace_digests) != len(outcome_digests):
        raise ValueError("SIM-resume: one trace digest and one outcome digest per game")
    hasher = hashlib.sha256()
    for trace, outcome in zip(trace_digests, outcome_digests):
        hasher.update(trace)
        hasher.update(outcome)
    return hasher.hexdigest()
