"""The trace hash of a run: one SHA-256 that names its games, action for action
[SIM-trace-hash].

Each game is hashed on its own, where it was played (a worker sends the 32-byte digest
back with the score); the run's hash is taken over those digests in seed order, so it
does not depend on the number of workers, the chunk size or the executor.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence

from hanabi_ref.actions import Action, action_to_json
from hanabi_ref.serial import canonical_json


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
