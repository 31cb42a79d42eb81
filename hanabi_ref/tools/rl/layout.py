"""Section layouts of the observation encodings [RL-dims, RL-layout, RL-canonical,
RL-minimal, RL-v0, RL-notes].

Every length is a formula of the configuration's dimensions (:class:`Dims`); a
:class:`Layout` lists the sections of one encoding in order, each with its clause id, so
that a vector can be cut back into named parts (``hanabi-ref rl play`` and docs/rl.md do).
"""

from __future__ import annotations

from functools import lru_cache

import attrs

from hanabi_ref.tools.peers.hle_rules import life_tokens
from hanabi_ref.tools.rl.errors import RLError
from hanabi_ref.engine.config import GameConfig

ENCODINGS = ("canonical", "minimal", "v0", "notes")
"""The encoding names [RL-encodings]."""

NOTES_DIMS = (4, 5, 5, 5, 8, 3)
"""[RL-notes] players, hand size, colours, ranks, information and life tokens of the RL
notes' fixed 1379-value layout."""


@attrs.frozen
class Dims:
    """[RL-dims] the dimensions an encoding is a formula of.

    p players, c colours (one per suit), r ranks (values), h hand size, t0 information
    tokens, f0 life tokens (errors allowed; N + 1 when unbounded, as the OpenSpiel adapter
    plays it), ``counts`` the copies of each identity in colour-major order."""

    players: int
    colours: int
    ranks: int
    hand_size: int
    max_hints: int
    lives: int
    counts: tuple[int, ...]

    @property
    def identities(self) -> int:
        """B = c r, the length of a card's one-hot."""
        return self.colours * self.ranks

    @property
    def deck(self) -> int:
        """N, the number of cards."""
        return sum(self.counts)

    @staticmethod
    def of(config: GameConfig) -> Dims:
        """The dimensions of ``config``; refused [RL-configs] when a colour clue may touch
        another suit than its own (Rainbow), where the one-hot "colour revealed" bits of
        RL-knowledge have no meaning."""
        return _dims(config)


@lru_cache(maxsize=64)
def _dims(config: GameConfig) -> Dims:
    if len(config.colours) != config.suit_count or any(
            suit.touched_by != frozenset({index}) for index, suit in enumerate(config.suits)):
        raise RLError("RL-configs", f"variant {config.variant!r}: the encodings need one clue colour per suit, "
                      "touching that suit only")
    counts = tuple(count for suit in config.suits for count in suit.counts)
    return Dims(config.players, config.suit_count, config.values, config.hand_size, config.max_hints,
                life_tokens(config), counts)


@attrs.frozen
class Section:
    """One named part of a vector: ``length`` values from ``start``."""

    name: str
    clause: str
    start: int
    length: int

    @property
    def stop(self) -> int:
        return self.start + self.length


@attrs.frozen
class Layout:
    """The sections of one encoding for one configuration, in order."""

    encoding: str
    dims: Dims
    sections: tuple[Section, ...]

    @property
    def size(self) -> int:
        return self.sections[-1].stop if self.sections else 0

    def section(self, name: str) -> Section:
        for section in self.sections:
            if section.name == name:
                return section
        raise KeyError(name)


HAT_LAYOUTS = ("recommendation", "public")
"""[RL-hat-observations] the layouts of the hat spaces: the recommendation agent's
observation of one target, and the public observation an offset is a function of."""


def _parts(dims: Dims, encoding: str) -> list[tuple[str, str, int]]:
    p, c, r, h, b, n = dims.players, dims.colours, dims.ranks, dims.hand_size, dims.identities, dims.deck
    own = encoding in ("v0", "notes")
    parts: list[tuple[str, str, int]] = []
    if encoding == "recommendation":
        parts += [("hands", "RL-hat-observations", h * b), ("missing", "RL-hat-observations", 1)]
    elif encoding != "public":
        parts += [("hands", "RL-hands", (p if own else p - 1) * h * b), ("missing", "RL-missing", p)]
    parts += [
        ("deck", "RL-deck", max(0, n - p * h)),
        ("fireworks", "RL-fireworks", b),
        ("information tokens", "RL-tokens", dims.max_hints),
        ("life tokens", "RL-tokens", dims.lives),
        ("discards", "RL-discards", n),
        ("last actor", "RL-last-action", p),
        ("last move type", "RL-last-action", 4),
        ("last target", "RL-last-action", p),
        ("last colour", "RL-last-action", c),
        ("last rank", "RL-last-action", r),
        ("last reveal outcome", "RL-last-action", h),
        ("last position", "RL-last-action", h),
        ("last card", "RL-last-action", b),
        ("last scored", "RL-last-action", 1),
        ("last token added", "RL-last-action", 1),
    ]
    if encoding == "canonical":
        parts.append(("knowledge", "RL-knowledge", p * h * (b + c + r)))
    elif encoding != "minimal":
        parts.append(("belief", "RL-v0-belief", p * h * (b + c + r)))
    return parts


@lru_cache(maxsize=256)
def layout(encoding: str, config: GameConfig) -> Layout:
    """The layout of ``encoding`` for ``config`` [RL-layout]; an unknown name, or a
    configuration the encoding cannot represent, is refused [RL-encodings, RL-configs,
    RL-notes]."""
    if encoding not in ENCODINGS + HAT_LAYOUTS:
        raise RLError("RL-encodings", f"unknown encoding {encoding!r} (known: {', '.join(ENCODINGS)})")
    dims = Dims.of(config)
    if encoding == "notes":
        shape = (dims.players, dims.hand_size, dims.colours, dims.ranks, dims.max_hints, dims.lives)
        if shape != NOTES_DIMS or dims.counts != (3, 2, 2, 2, 1) * 5:
            raise RLError("RL-notes", "the notes' 1379-value layout needs 4 players, hand size 5, 5 colours of "
                          "counts 3 2 2 2 1, 8 information and 3 life tokens; this configuration has "
                          f"{dims.players} players, hand size {dims.hand_size}, {dims.colours}x{dims.ranks} cards, "
                          f"{dims.max_hints} and {dims.lives} tokens (encoding 'v0' takes any)")
    sections, start = [], 0
    for name, clause, length in _parts(dims, encoding):
        sections.append(Section(name, clause, start, length))
        start += length
    return Layout(encoding, dims, tuple(sections))
