"""What DeepMind's Hanabi Learning Environment can play, shared by the OpenSpiel and the
pyhanabi adapters [PE-hle-players, PE-hle-variants, PE-hle-empty-hints,
PE-hle-discard-max, PE-hle-final-draw, PE-hle-no-points].

Both adapters drive the same C++ engine (HLE's ``hanabi_lib``), whose rules are those
of our ``hle`` preset.  Its game parameters are: ``players`` (2 to 5), ``colors``
(1 to 5), ``ranks`` (1 to 5), ``hand_size``, ``max_information_tokens`` (t0) and
``max_life_tokens`` (f0).  A configuration of ours is supported exactly when these
parameters express it and its rule options are the ``hle`` preset's.
"""

from __future__ import annotations

from typing import Final

import attrs

from hanabi_ref.engine.actions import Action, Discard, Hint, Play
from hanabi_ref.engine.config import GameConfig
from hanabi_ref.engine.presets import PRESETS
from hanabi_ref.engine.tables import tables_for

COLOUR_LETTERS: Final = "RYGWB"
"""HLE's colour index i is the letter COLOUR_LETTERS[i]; our suit i is HLE's colour i."""

MIN_PLAYERS: Final = 2
MAX_PLAYERS: Final = 5
MAX_COLOURS: Final = 5
MAX_RANKS: Final = 5
MAX_HAND_SIZE: Final = 8  # hanabi_hand.cc: revealed cards are tracked in an 8-bit mask


def hle_counts(ranks: int) -> tuple[int, ...]:
    """HLE's copies per rank of one colour [PE-hle-variants]: three of the lowest rank,
    one of the highest, two of every other (one rank: three copies)."""
    return tuple(3 if rank == 0 else 1 if rank == ranks - 1 else 2 for rank in range(ranks))


def options_difference(config: GameConfig) -> str | None:
    """The rule options in which ``config`` differs from HLE's [PE-hle-empty-hints,
    PE-hle-discard-max, PE-hle-final-draw, PE-hle-no-points]."""
    ours, theirs = attrs.asdict(config.options), attrs.asdict(PRESETS["hle"].options)
    differing = [f"{name}={ours[name]!r} (HLE: {theirs[name]!r})" for name in ours if ours[name] != theirs[name]]
    return "rule options differ from HLE's: " + ", ".join(differing) if differing else None


def composition_difference(config: GameConfig) -> str | None:
    """Why the suits and clue colours cannot be HLE's ``colors`` x ``ranks`` deck
    [PE-hle-variants]: at most 5 ordinary suits (each its own clue colour) and 5 values,
    with HLE's counts."""
    k, n = config.suit_count, config.values
    if k > MAX_COLOURS or n > MAX_RANKS:
        return f"HLE plays at most {MAX_COLOURS} suits and {MAX_RANKS} values, not {k} suits of {n} values"
    if len(config.colours) != k or any(suit.touched_by != frozenset({i}) for i, suit in enumerate(config.suits)):
        return f"HLE has one clue colour per suit; variant {config.variant!r} does not"
    expected = hle_counts(n)
    for suit in config.suits:
        if suit.counts != expected:
            return f"HLE deals {list(expected)} copies per value; suit {suit.name!r} has {list(suit.counts)}"
    return None


def hle_unsupported(config: GameConfig) -> str | None:
    """``None`` if HLE plays ``config`` exactly as we do, else the reason [PE-hle-players,
    PE-hle-variants, PE-hle-empty-hints, PE-hle-discard-max, PE-hle-final-draw,
    PE-hle-no-points]."""
    if not MIN_PLAYERS <= config.players <= MAX_PLAYERS:
        return f"HLE plays {MIN_PLAYERS} to {MAX_PLAYERS} players, not {config.players}"
    if config.hand_size > MAX_HAND_SIZE:
        return f"HLE supports at most {MAX_HAND_SIZE} cards in a hand, not {config.hand_size}"
    return options_difference(config) or composition_difference(config)


def life_tokens(config: GameConfig) -> int:
    """HLE's ``max_life_tokens`` for f0 [PE-openspiel, PE-hle].  f0 = infinity becomes N + 1
    lives: at most N plays can fail, so that many lives are never all lost, exactly as
    with no bound (E-18)."""
    return tables_for(config).deck_size + 1 if config.max_errors is None else config.max_errors


def hle_parameters(config: GameConfig) -> dict[str, int]:
    """HLE's game parameters for a supported configuration [PE-openspiel, PE-hle]."""
    return {
        "players": config.players,
        "colors": config.suit_count,
        "ranks": config.values,
        "hand_size": config.hand_size,
        "max_information_tokens": config.max_hints,
        "max_life_tokens": life_tokens(config),
    }


@attrs.frozen
class HLEMove:
    """An HLE move: its type and the fields HLE's ``HanabiMove`` holds [PE-openspiel-actions,
    PE-hle-actions].  Slots are card indices (0 = oldest card, as our slots); a hint names
    its target by offset from the hinter (1 = next seat); colour and rank count from 0."""

    kind: str  # "discard", "play", "reveal_color" or "reveal_rank"
    card_index: int = -1
    target_offset: int = -1
    color: int = -1
    rank: int = -1


def to_hle_move(action: Action, current: int, players: int) -> HLEMove | str:
    """The HLE move for our action, or why it has none [PE-openspiel-actions, PE-hle-actions].

    A hint to seat s from seat C has offset (s - C) mod p; the hinter's own seat gives
    offset 0, which HLE itself refuses.  A target that is no seat has no offset."""
    if isinstance(action, Discard):
        return HLEMove("discard", card_index=action.slot)
    if isinstance(action, Play):
        return HLEMove("play", card_index=action.slot)
    if not 0 <= action.target < players:
        return f"hint target {action.target} is not a seat: HLE names targets by offset"
    offset = (action.target - current) % players
    if action.kind == "colour":
        return HLEMove("reveal_color", target_offset=offset, color=action.subject)
    return HLEMove("reveal_rank", target_offset=offset, rank=action.subject - 1)


def from_hle_move(move: HLEMove, current: int, players: int) -> Action:
    """Our action for an HLE move of the player to move [PE-openspiel-actions, PE-hle-actions]."""
    if move.kind == "discard":
        return Discard(move.card_index)
    if move.kind == "play":
        return Play(move.card_index)
    target = (current + move.target_offset) % players
    if move.kind == "reveal_color":
        return Hint(target, "colour", move.color)
    return Hint(target, "value", move.rank + 1)


def knowledge_json(colours: list[int], ranks: list[int]) -> dict[str, list[int]]:
    """[PE-openspiel-state, PE-hle-state] HLE's plausible colours and ranks of a card as a
    T-state knowledge object: our suit i is HLE's colour i, value v is rank v - 1."""
    return {"suits": sorted(colours), "values": sorted(rank + 1 for rank in ranks)}


def card_json(color: int, rank: int) -> dict[str, int]:
    """[PE-openspiel-state, PE-hle-state] an HLE card as a T-state card."""
    return {"suit": color, "value": rank + 1}
