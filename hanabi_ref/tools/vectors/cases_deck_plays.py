"""Case function for the rule option ``deck_plays``: playing the stack's last card unseen
[R-deck-plays, HL-deck-plays, VEC-transition].

Each game deals the usual hands of five from a deck whose bottom card is chosen (a red 5
or a red 1) and is played by an open rule that never misplays (``thrifty``) until the
stack holds one card; one hint more leaves t < t0, and the player to move may then play
that card as slot h' = 5, one past its last slot.  Every expected fact is stated from
R-deck-plays and step 2c, and the builder checks each move clause by clause.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Final

from hanabi_ref.engine.actions import Action, Hint, Play
from hanabi_ref.engine.legality import legal_actions
from hanabi_ref.engine.cards import Identity, suit_of, value_of
from hanabi_ref.engine.config import GameConfig
from hanabi_ref.engine.configs import make_config
from hanabi_ref.tools.vectors.build import Maker
from hanabi_ref.tools.vectors.cases_setup import PRESET_OPTIONS, THESIS_OPTIONS
from hanabi_ref.tools.vectors.model import Run, Vector, actions_to_json, expect
from hanabi_ref.tools.vectors.scenario import RED, Card, drive, stacked, thrifty

H_PRIME: Final = 5  # slot h', one past the last slot of a hand of five (hands keep h cards)
RED_FIVE: Final[Card] = (5, RED)
RED_ONE: Final[Card] = (1, RED)
CLAUSES: Final = ("R-deck-plays", "P-options", "2.16-2c")
LAST_ROUND: Final = ("2.16-3-last-round", "2.16-2-R", "E-5")


def ending_with(config: GameConfig, top: Sequence[Card], last: Card) -> tuple[int, ...]:
    """A deck with ``top`` first, ``last`` as its bottom card (the stack's last) and the
    rest of the composition in canonical order between them [D-explicit]."""
    deck = list(stacked(config, [*top, last]))
    deck.append(deck.pop(len(top)))
    return tuple(deck)


def first_hint(run: Run) -> Action:
    """The first legal hint of the seat to move (2.16-actions order)."""
    return next(action for action in legal_actions(run.state) if isinstance(action, Hint))


def cards_left(config: GameConfig, last: Card, left: int) -> Run:
    """The game on a deck ending with ``last``, played by ``thrifty`` until the stack
    holds ``left`` cards."""
    run = drive(Run.start(config, ending_with(config, (), last)), thrifty, lambda r: r.state.deck_size == left)
    expect(run.state.deck_size == left and not run.state.terminal, f"R-deck-plays: {left} cards left, the game goes on")
    return run


def one_left(config: GameConfig, last: Card) -> Run:
    """Then one hint: one card left, t < t0, the next player to move."""
    run = cards_left(config, last, 1)
    run = run.then(first_hint(run))
    expect(run.state.clue_tokens < config.max_hints, "R-deck-plays: t < t0")
    return run


def deck_plays(out: Maker) -> Iterator[Vector]:
    """[R-deck-plays, P-options, 2.16-2c, 2.16-3-last-round, 2.17-history] under
    ``deck_plays`` the stack's last card is played as slot h' (listed last): step 2c
    judges it (a success with a five's token, a failure; under hanab-live a strikeout),
    the hand keeps its cards, nothing is drawn and the last round starts (R := p); slot
    h' is refused with two cards in the stack and with the option off (under hanab-live
    also with none); the option is written in the configuration only when true."""
    yield from _configs(out)
    config = make_config(2, out.preset, deck_plays=True)
    played = one_left(config, RED_FIVE)
    vector = _deck_play(out, "red-5-completes", ("2.16-2c-success", "2.16-2c-five", *LAST_ROUND), played, True)
    pre, post = vector.data["pre"], vector.data["post"]
    expect(pre["fireworks"][RED] == 4 and post["fireworks"][RED] == 5, "2.16-2c-success: the red 5 on the red 4")
    expect(post["clue_tokens"] == pre["clue_tokens"] + 1, "2.16-2c-five: the red 5 regains a token")
    yield vector
    vector = _deck_play(out, "red-1-fails", ("2.16-2c-fail", "2.16-errors", *LAST_ROUND), one_left(config, RED_ONE), False)
    pre, post = vector.data["pre"], vector.data["post"]
    expect(post["strikes"] == pre["strikes"] + 1 and post["discard"][-1] == {"suit": RED, "value": 1}, "2.16-2c-fail: to D, f + 1")
    yield vector
    yield out.refusal("two-cards-left", CLAUSES, cards_left(config, RED_FIVE, 2), Play(H_PRIME), "2.16-2c", "slot h' while the stack holds two cards")
    same = Run.start(make_config(2, out.preset), played.deck).then(*played.actions)
    yield out.refusal("option-off", CLAUSES, same, Play(H_PRIME), "2.16-2c", "slot h' with deck_plays = false")
    if out.preset == "hanab-live":
        yield from _hanab_live(out, played)


def _configs(out: Maker) -> Iterator[Vector]:
    """[R-deck-plays, P-options] ``deck_plays`` true is written; false is left out (the
    option's default); a value that is not a boolean is refused."""
    base = THESIS_OPTIONS | PRESET_OPTIONS[out.preset]
    for value in (True, False):
        given = {"preset": out.preset, "players": 2, "options": {"deck_plays": value}}
        vector = out.config(f"option-{str(value).lower()}", ("R-deck-plays", "P-options"), given, f"deck_plays = {str(value).lower()}")
        written = vector.data["config"]["options"]
        expect(written == (base | {"deck_plays": True} if value else base), "R-deck-plays: written only when true")
        yield vector
    given = {"preset": out.preset, "players": 2, "options": {"deck_plays": "yes"}}
    yield out.config("option-not-boolean", ("R-deck-plays", "P-options"), given, "deck_plays must be a boolean", "$.options.deck_plays")


def _deck_play(out: Maker, label: str, clauses: Sequence[str], run: Run, success: bool) -> Vector:
    """One play of slot h': listed last, the hand and K unchanged, the stack empty, R = p
    unless it is a strikeout; the move's record names the stack's last card (its id
    N - 1), draws nothing and says whether the play succeeded [2.17-history]."""
    last = run.state.deck[-1]
    description = f"seat {run.state.current_player} plays the stack's last card ({card_name(run.config, last)}) as slot {H_PRIME}"
    vector = out.transition(label, (*CLAUSES, *clauses), run, Play(H_PRIME), description)
    pre, post = vector.data["pre"], vector.data["post"]
    expect(vector.data["legal"][-1] == actions_to_json([Play(H_PRIME)])[0], "R-deck-plays: slot h' is listed last")
    expect(post["hands"] == pre["hands"] and post["knowledge"] == pre["knowledge"], "R-deck-plays: the hand keeps its cards")
    expect((pre["deck_size"], post["deck_size"]) == (1, 0), "R-deck-plays: the stack's one card leaves it")
    expect(post["remaining"] in (-1, run.config.players), "2.16-3-last-round: R := p once the stack is empty")
    event = run.then(Play(H_PRIME)).state.history[-1]
    expect((event.card_id, event.card, event.drawn, event.success) == (len(run.deck) - 1, last, None, success), "R-deck-plays: the record names the card, draws nothing")
    return vector


def card_name(config: GameConfig, card: Identity) -> str:
    """A card in words: "red 5"."""
    return f"{config.suits[suit_of(card, config.values)].name.lower()} {value_of(card, config.values)}"


def _hanab_live(out: Maker, played: Run) -> Iterator[Vector]:
    """[R-deck-plays, 2.16-2c-strikeout, 2.17-history, E-5] with f0 = 1 the failing deck
    play is a strikeout; after a deck play slot h' is refused; the view after it shows
    the card's record, with nothing drawn."""
    strict = make_config(2, out.preset, errors=1, deck_plays=True)
    vector = _deck_play(out, "red-1-strikeout", ("2.16-2c-fail", "2.16-2c-strikeout", "2.16-3-strikeout", "2.9-f0", "R-3"), one_left(strict, RED_ONE), False)
    post = vector.data["post"]
    expect((post["remaining"], post["terminal"], post["score"]) == (-1, True, 0), "2.16-3-strikeout: f = f0 stops with 0")
    yield vector
    empty = played.then(Play(H_PRIME))
    yield out.refusal("stack-empty", (*CLAUSES, "E-5"), empty, Play(H_PRIME), "2.16-2c", "slot h' once the stack is empty")
    vector = out.view("after-deck-play", ("R-deck-plays", "2.17-history"), empty, empty.state.current_player, "the red 5 played from the stack, as the next seat sees it")
    record = vector.data["view"]["history"][-1]
    expect(record["card"] == {"id": len(empty.deck) - 1, "suit": RED, "value": 5}, "2.17-history: the card played from the stack")
    expect(record["drawn"] is None and record["success"] is True, "R-deck-plays: nothing drawn, the play succeeded")
    yield vector


CASES: Final = (deck_plays,)
"""The case functions of this module, in the order of generation [VEC-cases]."""
