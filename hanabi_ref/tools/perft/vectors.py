"""The committed perft vectors, ``spec/perft.json`` [PF-vectors, PF-schema].

Each vector is a position (a complete configuration, a deck, and the moves made since
the deal) with a depth and the number of move sequences of that length from it, and
for some the divide.  The positions are the cases of :data:`CASES`: openings of every
classic preset and player count, the classic variants, single rule options, small token
and error counts, endgames of whole decks (reached by :func:`prefix`, a fixed rule of
play), and small decks counted to the end of every game, where the last round, the
three ways a game ends and R-1, R-4 and R-deck-plays are all inside the tree.

``python -m hanabi_ref.tools.perft.vectors FILE`` writes the file: the counts are our
engine's, and the file is checked against ``perft.schema.json`` before it is written.
The test suite checks every count against a brute force written apart from the engine
and, where OpenSpiel plays the rules, against OpenSpiel (tests/test_perft.py).
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Final

import attrs

from hanabi_ref.base.atomic import write_text_atomically
from hanabi_ref.engine.actions import Action, Discard, Play, action_to_json
from hanabi_ref.engine.cards import as_identities
from hanabi_ref.engine.config import GameConfig
from hanabi_ref.engine.configs import config_to_json, make_config
from hanabi_ref.engine.dealing import deck_from_seed
from hanabi_ref.engine.legality import legal_actions
from hanabi_ref.engine.show import action_text
from hanabi_ref.engine.state import GameState, deck_size
from hanabi_ref.engine.transition import apply_legal, initial_state
from hanabi_ref.formats.schema import first_violation, strict_validator
from hanabi_ref.formats.serial import canonical_json, card_to_json
from hanabi_ref.formats.trace import read_json_file
from hanabi_ref.tools.perft.count import perft_count

FORMAT: Final = "hanabi-ref/perft"
VERSION: Final = 1
SCHEMA: Final = "perft.schema.json"

HLE_RULES: Final = {"empty_hints": False, "discard_at_max_hints": False, "draw_after_final_move": False}
"""The options of the hle preset, set on the thesis preset for decks HLE deals (P-presets)."""
HANAB_LIVE_RULES: Final = {"empty_hints": False, "discard_at_max_hints": False, "end_when_no_points_possible": True,
                           "end_when_nothing_playable": True}
"""The options of the hanab-live preset, set on the thesis preset for custom decks (P-presets)."""


class PerftVectorsError(Exception):
    """A perft vectors file outside its schema or format; one line."""


@attrs.frozen
class Case:
    """One perft vector to write: its name and description, the configuration, the seed
    of its deck, the depth, whether to give the divide, and whether the position is the
    deal (``stack_left`` None) or the first after :func:`prefix` with that many cards
    left in the stack."""

    name: str
    description: str
    config: GameConfig
    seed: int
    depth: int
    divide: bool = False
    stack_left: int | None = None


def _preset(preset: str, players: int, **overrides: Any) -> GameConfig:
    return make_config(players, preset=preset, **overrides)


def _openings() -> list[Case]:
    """[PF-vectors] the first moves of every classic preset and player count."""
    cases = [Case("thesis/opening-1p", "one player: no seat to hint, every discard and play", _preset("thesis", 1), 1, 4,
                  divide=True)]
    for preset, counts, divided in (("thesis", (2, 3, 4, 5), 2), ("hle", (2, 3, 4, 5), 2), ("hanab-live", (2, 3, 4, 5, 6), 3)):
        for players in counts:
            cases.append(Case(f"{preset}/opening-{players}p", f"the first three moves, {players} players",
                              _preset(preset, players), players, 3, divide=players == divided))
    cases.append(Case("hle/opening-2p-deep", "the first five moves, 2 players", _preset("hle", 2), 2, 5))
    cases.append(Case("thesis/opening-3p-deep", "the first four moves, 3 players", _preset("thesis", 3), 3, 4))
    return cases


def _variants_and_options() -> list[Case]:
    """[PF-vectors] the classic variants (which clues touch which cards, V-*) and the
    rule options that change which moves are legal or how hands are ordered."""
    return [
        Case("thesis/6-suits-2p", "a sixth ordinary suit (V-6-suits)", _preset("thesis", 2, variant="6 Suits"), 11, 3),
        Case("thesis/black-3p", "a sixth suit of single cards with its own colour (V-black)",
             _preset("thesis", 3, variant="Black (6 Suits)"), 12, 3),
        Case("thesis/rainbow-3p", "a sixth suit touched by every colour, without a colour of its own (V-rainbow)",
             _preset("thesis", 3, variant="Rainbow (6 Suits)"), 13, 3, divide=True),
        Case("thesis/dutch-rainbow-2p", "Example 2.12's sixth suit (V-dutch-rainbow)",
             _preset("thesis", 2, variant="Dutch Rainbow (Example 2.12)"), 14, 3),
        Case("hanab-live/6-suits-3p", "a sixth ordinary suit; hints must touch a card", _preset("hanab-live", 3, variant="6 Suits"),
             15, 3),
        Case("hanab-live/black-4p", "black cards: a colour hint touches only its own suit",
             _preset("hanab-live", 4, variant="Black (6 Suits)"), 16, 3, divide=True),
        Case("hanab-live/rainbow-2p", "rainbow cards are touched by every colour hint, so more hints touch a card",
             _preset("hanab-live", 2, variant="Rainbow (6 Suits)"), 17, 3, divide=True),
        Case("thesis/round-robin-newest-first-3p", "cards dealt one at a time, slot 0 the newest (E-1, R-2)",
             _preset("thesis", 3, deal="round-robin", draw_position="newest-first"), 18, 3, divide=True),
        Case("thesis/self-hints-3p", "a seat may hint itself (E-4)", _preset("thesis", 3, self_hints=True), 19, 3,
             divide=True),
        Case("thesis/unbounded-errors-2p", "no number of errors ends the game (f0 = infinity)",
             _preset("thesis", 2, errors=None), 20, 3),
        Case("hle/one-error-2p", "the first failed play ends the game (f0 = 1): sequences that end early are not counted",
             _preset("hle", 2, errors=1), 21, 4, divide=True),
        Case("hle/no-hint-tokens-2p", "t0 = 0: no hint, and no discard at the maximum: every move is a play",
             _preset("hle", 2, hints=0), 22, 6, divide=True),
        Case("hle/small-hands-3p", "two cards a hand, two tokens, two errors", _preset("hle", 3, hand_size=2, hints=2, errors=2),
             23, 4),
    ]


def _endgames() -> list[Case]:
    """[PF-vectors] positions at the end of a whole deck, reached by :func:`prefix`:
    one card left (its draw starts the last round, 2.16-3-last-round), or none (the last
    round on), so that the game ends inside the tree (2.16-3-R0, R-3, R-1, R-4)."""
    return [
        Case("thesis/endgame-2p", "one card left in the stack: its draw starts the last round", _preset("thesis", 2), 31, 3,
             stack_left=1),
        Case("hle/endgame-2p", "one card left; the final move draws nothing (R-3)", _preset("hle", 2), 32, 4,
             divide=True, stack_left=1),
        Case("hle/endgame-3p", "the last round on: three moves left", _preset("hle", 3), 33, 3, divide=True, stack_left=0),
        Case("hle/endgame-3p-past-the-end-deep", "the same position one move past the end of the last round: 0",
             _preset("hle", 3), 33, 4, stack_left=0),
        Case("hle/endgame-4p", "one card left", _preset("hle", 4), 34, 3, stack_left=1),
        Case("hle/endgame-5p", "the last round on", _preset("hle", 5), 35, 3, stack_left=0),
        Case("hanab-live/endgame-3p", "one card left; the game also ends when no point is possible (R-1, R-4)",
             _preset("hanab-live", 3), 44, 3, divide=True, stack_left=1),
        Case("hanab-live/endgame-3p-deep", "the same position, one move deeper",
             _preset("hanab-live", 3), 44, 4, stack_left=1),
        Case("thesis/endgame-deck-plays-2p", "one card left, which the player to move may play unseen (R-deck-plays)",
             _preset("thesis", 2, deck_plays=True), 37, 3, divide=True, stack_left=1),
    ]


def _small_decks() -> list[Case]:
    """[PF-vectors] decks small enough to count whole games: the tree holds every end
    of a game (2.16-3), and past the longest game the count is 0."""
    hle_deck = [[3, 2, 1], [3, 2, 1]]
    return [
        Case("thesis/small-hle-rules-2p", "HLE's deck of 2 colours and 3 ranks under the hle options, one hint token",
             _preset("thesis", 2, composition=hle_deck, hand_size=2, hints=1, **HLE_RULES), 41, 6, divide=True),
        Case("thesis/small-hle-rules-2p-deep", "the same game, deeper",
             _preset("thesis", 2, composition=hle_deck, hand_size=2, hints=1, **HLE_RULES), 41, 9),
        Case("thesis/one-suit-2p", "one suit of 3, 2 and 1 cards, one card a hand, one error ends the game",
             _preset("thesis", 2, composition=[[3, 2, 1]], hand_size=1, hints=1, errors=1, **HLE_RULES), 42, 10),
        Case("thesis/one-suit-2p-past-the-end", "the same game past its longest line: 0",
             _preset("thesis", 2, composition=[[3, 2, 1]], hand_size=1, hints=1, errors=1, **HLE_RULES), 42, 11),
        Case("thesis/empty-deal-2p", "every card dealt: the last round starts at the deal (E-6), 2 moves in all",
             _preset("thesis", 2, composition=[[1, 1], [1, 1]], hand_size=2), 43, 2, divide=True),
        Case("thesis/empty-deal-2p-past-the-end", "the same game one move past its end: 0",
             _preset("thesis", 2, composition=[[1, 1], [1, 1]], hand_size=2), 43, 3),
        Case("thesis/empty-deal-no-initial-stop-check-2p", "without step 3 after the deal the first seat moves twice (E-6)",
             _preset("thesis", 2, composition=[[1, 1], [1, 1]], hand_size=2, initial_stop_check=False), 43, 3, divide=True),
        Case("thesis/small-hanab-live-rules-2p", "a small deck under hanab.live's options (R-1, R-4)",
             _preset("thesis", 2, composition=[[2, 1], [2, 1]], hand_size=2, hints=2, **HANAB_LIVE_RULES), 44, 5),
        Case("thesis/small-hanab-live-rules-2p-deep", "the same game, to the last depth any of its games reaches",
             _preset("thesis", 2, composition=[[2, 1], [2, 1]], hand_size=2, hints=2, **HANAB_LIVE_RULES), 44, 7),
        Case("thesis/small-deck-plays-2p", "the stack's last card may be played unseen (R-deck-plays)",
             _preset("thesis", 2, composition=[[1, 1], [1, 1]], hand_size=1, hints=1, deck_plays=True), 45, 6, divide=True),
        Case("thesis/small-final-draw-2p", "the move that ends the game draws (R-3), one suit, one card a hand",
             _preset("thesis", 2, composition=[[2, 1, 1]], hand_size=1, hints=1), 46, 6),
    ]


def cases() -> list[Case]:
    """Every perft vector, in the order of the file [PF-vectors]."""
    return [*_openings(), *_variants_and_options(), *_endgames(), *_small_decks()]


def prefix(state: GameState, stack_left: int | None) -> tuple[tuple[Action, ...], GameState]:
    """[PF-vectors] the moves that lead to an endgame position, by a fixed rule: the
    first play that succeeds, else the first discard, else the first legal move, until
    the stack holds ``stack_left`` cards (``None``: no move).  The rule reads the whole
    state; it only has to be the same on every run."""
    made: list[Action] = []
    while stack_left is not None and not state.terminal and deck_size(state) > stack_left:
        move = _prefix_move(state)
        made.append(move)
        state = apply_legal(state, move)
    return tuple(made), state


def _prefix_move(state: GameState) -> Action:
    legal = legal_actions(state)
    for move in legal:
        if isinstance(move, Play) and apply_legal(state, move).strikes == state.strikes:
            return move
    discards = [move for move in legal if isinstance(move, Discard)]
    return discards[0] if discards else legal[0]


def divide_json(config: GameConfig, divide: Sequence[tuple[Action, int]]) -> list[dict[str, Any]]:
    """[PF-divide] each first move as text (SH-parse, as ``perft --divide`` prints it),
    as a T-actions object, and its count."""
    return [{"move": action_text(config, move), "action": action_to_json(move), "nodes": nodes} for move, nodes in divide]


def position_of(case: Case) -> tuple[dict[str, Any], GameState]:
    """[PF-vectors] the members of a case's vector that say what is counted (all but
    ``nodes`` and ``divide``), and the state counted from."""
    config = case.config
    deck = deck_from_seed(config, case.seed)
    moves, state = prefix(initial_state(config, deck), case.stack_left)
    return {
        "name": case.name, "description": case.description, "config": config_to_json(config),
        "deck": [card_to_json(card, config) for card in as_identities(deck)], "seed": case.seed,
        "moves": [action_to_json(move) for move in moves], "depth": case.depth,
    }, state


def vector(case: Case) -> dict[str, Any]:
    """[PF-vectors] the vector of one case, its count (and divide) our engine's."""
    entry, state = position_of(case)
    result = perft_count(state, case.depth, case.divide)
    entry["nodes"] = result.nodes
    if result.divide is not None:
        entry["divide"] = divide_json(case.config, result.divide)
    return entry


def vectors_json(chosen: Sequence[Case] | None = None) -> dict[str, Any]:
    """[PF-vectors] the file's object: format, version and the vectors."""
    return {"format": FORMAT, "version": VERSION, "vectors": [vector(case) for case in (cases() if chosen is None else chosen)]}


def read(path: str | Path) -> list[dict[str, Any]]:
    """[PF-schema] the vectors of a perft vectors file, checked (:func:`check`); a file
    that cannot be read or is not JSON is a :class:`~hanabi_ref.base.errors.TraceError`
    (its subclass FileReadError when it cannot be read)."""
    data = read_json_file(path)
    try:
        check(data)
    except PerftVectorsError as error:
        raise PerftVectorsError(f"{path}: {error}") from None
    assert isinstance(data, dict)
    vectors: list[dict[str, Any]] = data["vectors"]
    return vectors


def check(data: object) -> None:
    """[PF-schema] raise :class:`PerftVectorsError` unless ``data`` is a perft vectors
    file: valid under ``perft.schema.json``, of this format and version, names unique."""
    violation = first_violation(strict_validator(SCHEMA), data)
    if violation is not None:
        raise PerftVectorsError(f"outside {SCHEMA}: {violation}")
    assert isinstance(data, dict)
    names = [entry["name"] for entry in data["vectors"]]
    if len(set(names)) != len(names):
        raise PerftVectorsError("vectors: every name must be unique")


def write(path: str | Path) -> int:
    """[PF-vectors] write the vectors to ``path`` (canonical JSON, T-canonical), checked
    against the schema first; the number written."""
    data = vectors_json()
    check(data)
    write_text_atomically(path, canonical_json(data) + "\n")
    return len(data["vectors"])


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: python -m hanabi_ref.tools.perft.vectors FILE")
    print(f"wrote {write(sys.argv[1])} perft vectors to {sys.argv[1]}")
