"""Differential tests: real peer engines play our decks move for move [PE-differential].

Each peer plays random decks (D-seed) under the configuration of ours it must match
[PE-peers], compared after the deal and after every move by ``play_compared``: every
reported state field, the legal actions, and the refusal of illegal probes.  The moves
mix uniformly random play with a cheating driver; the situations the comparison must
cover (strikeouts, the last round after the stack runs out, hints touching several
cards, 5s played with every token) are counted here from our own states, independently
of the engines, and each must reach a minimum rate.  Broken engines must be caught.

The default set plays twenty games per player count and peer, every move compared, enough
for every situation to occur at its rate; the deep set compares over a million states
per peer (``python -m pytest -m deep -n auto tests/test_differential.py``, README).

Peers and the clauses of spec/peers.md they exercise:

* OpenSpiel [PE-openspiel, PE-openspiel-deal, PE-openspiel-actions, PE-openspiel-state],
  under HLE's rules [PE-hle-empty-hints, PE-hle-discard-max, PE-hle-final-draw,
  PE-hle-no-points, PE-hle-players, PE-hle-variants];
* pyhanabi [PE-hle, PE-hle-deal, PE-hle-actions, PE-hle-state];
* hanabython [PE-hanabython, PE-hanabython-deal, PE-hanabython-slots,
  PE-hanabython-no-points, PE-hanabython-final-draw, PE-hanabython-empty-hints,
  PE-hanabython-discard-max, PE-hanabython-hand-size, PE-hanabython-variants,
  PE-hanabython-actions, PE-hanabython-state].

Each peer's tests skip when its library is not installed, and fail instead under
``HANABI_REF_REQUIRE_ORACLES=1`` (tests/oracles.py), which ``.ci/run`` sets after
installing all three.
"""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Iterator
from typing import Any

import attrs
import pytest

from hanabi_ref.base.extras import install_hint
from hanabi_ref.engine.actions import Action, Discard, Hint, Play
from hanabi_ref.engine.dealing import deck_from_seed
from hanabi_ref.base.errors import ConfigError
from hanabi_ref.tools.peers import PEERS, peer_config
from hanabi_ref.tools.peers.choosers import DriverChooser
from hanabi_ref.tools.peers.hanabython import hanabython_options, hanabython_unsupported
from hanabi_ref.tools.peers.hle_rules import hle_unsupported
from hanabi_ref.engine.config import GameConfig
from hanabi_ref.engine.configs import make_config
from hanabi_ref.engine.state import GameState, is_nothing_playable_left
from hanabi_ref.engine.transition import apply
from hanabi_ref.tools.verify.compare import play_compared
from hanabi_ref.tools.protocol.engine import Engine, EngineFailure
from tests.oracles import oracle
from tests.processes import run_process
from hanabi_ref.engine.tables import tables_for

PRESET_GAMES = 20  # per player count, OpenSpiel and pyhanabi: about 800 states each
HANABYTHON_GAMES = 20
DEEP_STATES = 1_000_000  # per peer in the deep set, shared among its player counts

# Minimum rates per 1,000 compared states, about half of what the fixed seeds produce (in
# 20 games and in 250,000 states alike), so that a test fails when its sample stops
# covering a situation.  hanabython ends the last round sooner (R-1 without the draw).
PRESET_RATES = {"strikeout": 4.5, "last round": 3.0, "wide hint": 100.0, "five at full tokens": 8.0}
HANABYTHON_RATES = {"strikeout": 4.0, "last round": 0.6, "wide hint": 50.0, "five at full tokens": 6.0}
HANABYTHON_RULES = attrs.asdict(hanabython_options(empty_hints=False))


# ------------------------------------------------------------------ independent counting


def _identity(state: GameState, card_id: int) -> tuple[int, int]:
    """(suit, value) of a card, read from the deck (identity = suit * n + value - 1)."""
    card = state.deck[card_id]
    return card // state.config.values, card % state.config.values + 1


def situations(state: GameState, action: Action) -> list[str]:
    """Which of the situations to cover the move ``action`` in ``state`` is, computed
    from the rules directly (not from the engine's legality or transition code)."""
    found = []
    config = state.config
    if isinstance(action, Play):
        suit, value = _identity(state, state.hands[state.current_player][action.slot])
        succeeds = state.fireworks[suit] == value - 1
        if not succeeds and config.max_errors is not None and state.strikes + 1 == config.max_errors:
            found.append("strikeout")
        if succeeds and value == config.values and state.clue_tokens == config.max_hints:
            found.append("five at full tokens")
    if isinstance(action, Hint) and _touched(state, action) >= 2:
        found.append("wide hint")
    if state.remaining == 1 and len(state.deck) == state.next_card:
        found.append("last round")  # the final move of the last round (2.16-3-last-round)
    return found


def _touched(state: GameState, hint: Hint) -> int:
    """Cards of the target a hint touches: those of that value, or of a suit the clue
    colour touches (the variant's definition, V-suit)."""
    cards = [_identity(state, card_id) for card_id in state.hands[hint.target]]
    if hint.kind == "value":
        return sum(1 for _, value in cards if value == hint.subject)
    return sum(1 for suit, _ in cards if hint.subject in state.config.suits[suit].touched_by)


class RecordingChooser(DriverChooser):
    """The driver of [PE-differential], keeping every (state, action) it chose."""

    def __init__(self, seed: int, random_rate: float) -> None:
        super().__init__(seed, random_rate=random_rate)
        self.moves: list[tuple[GameState, Action]] = []

    def choose(self, state: GameState, legal: list[Action]) -> Action:
        action = super().choose(state, legal)
        self.moves.append((state, action))
        return action

    def final_state(self) -> GameState:
        """Our state after the last move."""
        state, action = self.moves[-1]
        return apply(state, action)


def chooser_for(seed: int) -> RecordingChooser:
    """One game in three uniformly random (strikeouts), the others driven (long games)."""
    return RecordingChooser(seed, random_rate=1.0 if seed % 3 == 0 else 0.1)


def play_many(engine: Engine, config: GameConfig, games: int, states: int = 0) -> Counter[str]:
    """Play compared games from seed 0, at least ``games`` of them and until ``states``
    states were compared; fail at the first divergence; count situations, games, states."""
    counts: Counter[str] = Counter()
    while counts["games"] < games or counts["states"] < states:
        play_one(engine, config, counts["games"], counts)
    return counts


def play_one(engine: Engine, config: GameConfig, seed: int, counts: Counter[str]) -> RecordingChooser:
    """One compared game of ``seed``, which must not diverge; its situations, its states
    (after the deal and after every move) and the game itself added to ``counts``."""
    chooser = chooser_for(seed)
    divergence = play_compared(engine, config, deck_from_seed(config, seed), chooser)
    assert divergence is None, f"{engine.name}, {config.players} players, seed {seed}: {divergence.what}"
    for state, action in chooser.moves:
        counts.update(situations(state, action))
    counts["states"] += len(chooser.moves) + 1
    counts["games"] += 1
    return chooser


def assert_covered(counts: Counter[str], per_thousand: dict[str, float]) -> None:
    """Each situation occurred at least at its rate per 1,000 compared states."""
    least = {name: rate * counts["states"] / 1000 for name, rate in per_thousand.items()}
    short = {name: counts[name] for name, minimum in least.items() if counts[name] < minimum}
    assert not short, f"the sample of {counts['states']} states no longer covers {short} (minimums {least})"


# ------------------------------------------------------------------ fixtures


def _engine(module: str, name: str) -> Iterator[Engine]:
    oracle(module)
    engine = PEERS[name]()
    yield engine
    engine.close()


@pytest.fixture(scope="module")
def openspiel() -> Iterator[Engine]:
    yield from _engine("pyspiel", "openspiel")


@pytest.fixture(scope="module")
def hle() -> Iterator[Engine]:
    yield from _engine("hanabi_learning_environment.pyhanabi", "hle")


@pytest.fixture(scope="module")
def hanabython() -> Iterator[Engine]:
    yield from _engine("hanabython", "hanabython")


# ------------------------------------------------------------------ OpenSpiel


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.checks("PE-differential", "PE-openspiel", "PE-openspiel-deal", "PE-openspiel-actions", "PE-openspiel-state", "PE-hle-empty-hints", "PE-hle-discard-max", "PE-hle-no-points", "PE-hle-final-draw")
def test_openspiel_plays_the_hle_preset(openspiel: Engine, players: int) -> None:
    """[PE-openspiel, PE-openspiel-deal, PE-openspiel-actions, PE-openspiel-state] twenty
    games per player count agree with the hle preset move by move, and cover strikeouts,
    last rounds, wide hints and 5s at full tokens [PE-differential]."""
    config = peer_config("openspiel", players)
    assert openspiel.unsupported(config) is None
    assert_covered(play_many(openspiel, config, PRESET_GAMES), PRESET_RATES)


@pytest.mark.deep
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_openspiel_plays_the_hle_preset_for_a_million_states(openspiel: Engine, players: int) -> None:
    """[PE-openspiel, PE-openspiel-deal, PE-openspiel-actions, PE-openspiel-state] the
    comparison above over a quarter of a million states per player count, a million in
    all, at the same rates [PE-differential]."""
    config = peer_config("openspiel", players)
    assert_covered(play_many(openspiel, config, 0, DEEP_STATES // 4), PRESET_RATES)


@pytest.mark.parametrize(
    "config",
    [
        make_config(3, "hle", hand_size=3, hints=2, errors=1),
        make_config(2, "hle", hints=0, errors=None),
        make_config(4, "hle", hand_size=8, hints=12, errors=5),
        make_config(
            3, composition=[[3, 2, 2, 1]] * 3, empty_hints=False, discard_at_max_hints=False, draw_after_final_move=False
        ),
    ],
    ids=["h3-t2-f1", "t0-unbounded-errors", "h8-t12-f5", "custom-3x4"],
)
@pytest.mark.parametrize("games", [15, pytest.param(30, marks=pytest.mark.deep)])
@pytest.mark.checks("PE-openspiel", "PE-hle-variants")
def test_openspiel_plays_other_parameters(openspiel: Engine, config: GameConfig, games: int) -> None:
    """[PE-openspiel, PE-hle-variants] hand size, t0, f0 (infinity as N + 1 lives) and
    HLE-shaped custom decks are expressed by OpenSpiel's parameters and agree (15 games
    each by default, 30 in the deep set)."""
    assert openspiel.unsupported(config) is None
    counts = play_many(openspiel, config, games)
    assert counts["games"] == games


@pytest.mark.checks("PE-openspiel-actions")
def test_openspiel_refuses_by_its_own_guard(openspiel: Engine) -> None:
    """[PE-openspiel-actions] with ``check_refusals`` the illegal probes reach
    OpenSpiel's ``apply_action``, whose SpielError must refuse each of them."""
    from hanabi_ref.tools.peers.openspiel import OpenSpielEngine

    checking = OpenSpielEngine(check_refusals=True)
    config = peer_config("openspiel", 3)
    play_many(checking, config, 20)


@pytest.mark.checks("PE-hle-players", "PE-hle-variants", "PE-hle-empty-hints", "PE-hle-discard-max", "PE-hle-no-points", "PE-hle-final-draw")
def test_hle_unsupported_configurations() -> None:
    """[PE-hle-players, PE-hle-variants, PE-hle-empty-hints, PE-hle-discard-max,
    PE-hle-final-draw, PE-hle-no-points] every configuration HLE cannot play identically
    gets a reason; the hle preset's get none."""
    assert hle_unsupported(make_config(5, "hle", errors=None, hints=0)) is None
    refused = {
        "thesis": make_config(3, "thesis"),
        "hanab-live": make_config(3, "hanab-live"),
        "empty hints": make_config(3, "hle", empty_hints=True),
        "final draw": make_config(3, "hle", draw_after_final_move=True),
        "no points": make_config(3, "hle", end_when_no_points_possible=True),
        "six players": make_config(6, "hanab-live", empty_hints=False, end_when_no_points_possible=False, draw_after_final_move=False),
        "hand of 9": make_config(2, "hle", hand_size=9),
        "6 suits": make_config(3, "thesis", "6 Suits", empty_hints=False, discard_at_max_hints=False, draw_after_final_move=False),
        "classic counts, 4 values": make_config(3, composition=[[3, 2, 2, 1, 1]] * 2, empty_hints=False, discard_at_max_hints=False, draw_after_final_move=False),
    }
    reasons = {name: hle_unsupported(config) for name, config in refused.items()}
    assert all(reasons.values()), reasons
    assert "empty_hints" in str(reasons["thesis"]) and "discard_at_max_hints" in str(reasons["thesis"])
    assert "end_when_no_points_possible" in str(reasons["hanab-live"])
    assert "draw_after_final_move" in str(reasons["hanab-live"])


# ------------------------------------------------------------------ negative controls


class _Wrapper:
    """Passes everything to the OpenSpiel adapter; subclasses break one thing."""

    name = "broken openspiel"
    shows_views = False  # these controls break states and moves; views: tests/test_verify_views.py

    def __init__(self, inner: Engine) -> None:
        self.inner = inner

    def unsupported(self, config: GameConfig) -> str | None:
        return self.inner.unsupported(config)

    def new_game(self, config: GameConfig, deck: tuple[int, ...]) -> None:
        self.inner.new_game(config, deck)

    def apply(self, action: Action) -> str | None:
        return self.inner.apply(action)

    def state(self) -> dict[str, Any]:
        return self.inner.state()

    def legal_actions(self) -> list[Action]:
        return self.inner.legal_actions()

    def observe(self, seat: int) -> dict[str, Any] | None:
        return None

    def close(self) -> None:
        self.inner.close()


class ExtraTokenAfterDiscard(_Wrapper):
    """Reports one hint token too many once a card has been discarded."""

    def __init__(self, inner: Engine) -> None:
        super().__init__(inner)
        self.discarded = False

    def new_game(self, config: GameConfig, deck: tuple[int, ...]) -> None:
        self.discarded = False
        super().new_game(config, deck)

    def apply(self, action: Action) -> str | None:
        refusal = super().apply(action)
        self.discarded |= refusal is None and isinstance(action, Discard)
        return refusal

    def state(self) -> dict[str, Any]:
        report = super().state()
        if self.discarded:
            report["clue_tokens"] += 1
        return report


class AcceptsIllegal(_Wrapper):
    """Answers "accepted" to every action OpenSpiel refuses (and ignores it)."""

    def apply(self, action: Action) -> str | None:
        super().apply(action)
        return None


class ListsDiscardsAtFullTokens(_Wrapper):
    """Lists discards as legal even when every hint token is in hand."""

    def legal_actions(self) -> list[Action]:
        legal = super().legal_actions()
        if legal and not any(isinstance(action, Discard) for action in legal):
            legal.append(Discard(0))
        return legal


@pytest.mark.parametrize(
    ("broken", "symptom"),
    [
        (ExtraTokenAfterDiscard, "state.clue_tokens"),
        (AcceptsIllegal, "engine accepted"),
        (ListsDiscardsAtFullTokens, "legal actions"),
    ],
)
@pytest.mark.checks("PE-differential")
def test_play_compared_catches_a_broken_engine(openspiel: Engine, broken: type[_Wrapper], symptom: str) -> None:
    """[PE-differential] negative controls: each deliberately broken OpenSpiel adapter
    diverges within a few games, at the broken field."""
    engine = broken(openspiel)
    config = peer_config("openspiel", 3)
    for seed in range(5):
        divergence = play_compared(engine, config, deck_from_seed(config, seed), chooser_for(seed + 1))
        if divergence is not None:
            assert symptom in divergence.what, divergence.what
            return
    pytest.fail(f"{broken.__name__} went unnoticed in 5 games")


# ------------------------------------------------------------------ pyhanabi (HLE)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.checks("PE-differential", "PE-hle", "PE-hle-deal", "PE-hle-actions", "PE-hle-state", "PE-hle-empty-hints", "PE-hle-discard-max", "PE-hle-no-points", "PE-hle-final-draw")
def test_hle_plays_the_hle_preset(hle: Engine, players: int) -> None:
    """[PE-hle, PE-hle-deal, PE-hle-actions, PE-hle-state] pyhanabi, dealt our deck card
    by card, agrees with the hle preset move by move [PE-differential]."""
    config = peer_config("hle", players)
    assert hle.unsupported(config) is None
    assert_covered(play_many(hle, config, PRESET_GAMES), PRESET_RATES)


@pytest.mark.deep
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_hle_plays_the_hle_preset_for_a_million_states(hle: Engine, players: int) -> None:
    """[PE-hle, PE-hle-deal, PE-hle-actions, PE-hle-state] the comparison above over a
    quarter of a million states per player count, a million in all [PE-differential]."""
    config = peer_config("hle", players)
    assert_covered(play_many(hle, config, 0, DEEP_STATES // 4), PRESET_RATES)


@pytest.mark.parametrize("games", [8, pytest.param(15, marks=pytest.mark.deep)])
@pytest.mark.checks("PE-hle", "PE-hle-variants")
def test_hle_plays_other_parameters(hle: Engine, games: int) -> None:
    """[PE-hle, PE-hle-variants] non-default parameters and a custom HLE-shaped deck (8
    games each by default, 15 in the deep set)."""
    for config in (
        make_config(4, "hle", hand_size=2, hints=1, errors=None),
        make_config(2, composition=[[3, 1]] * 4, empty_hints=False, discard_at_max_hints=False, draw_after_final_move=False),
    ):
        assert hle.unsupported(config) is None
        assert play_many(hle, config, games)["games"] == games


@pytest.mark.checks("PE-hle-deal")
def test_hle_deal_is_checked(hle: Engine, monkeypatch: pytest.MonkeyPatch) -> None:
    """[PE-hle-deal] a deal move built with the wrong layout is caught, not trusted."""
    import hanabi_ref.tools.peers.hle as adapter

    monkeypatch.setattr(adapter, "DEAL_MOVE_LAYOUT", ">ibbbb")  # the move type's bytes reversed
    config = peer_config("hle", 2)
    with pytest.raises(EngineFailure, match="hle adapter"):
        hle.new_game(config, deck_from_seed(config, 0))


# ------------------------------------------------------------------ hanabython


def _card(identity: int, values: int) -> dict[str, int]:
    return {"suit": identity // values, "value": identity % values + 1}


def _check_final_draw(engine: Engine, chooser: RecordingChooser) -> bool:
    """[PE-hanabython-final-draw] if hanabython drew after the move that made more points
    impossible, its full final state differs from ours by exactly that card: in the
    mover's slot 0, with full knowledge, one card fewer in the deck.  Returns whether
    this game ended so."""
    if "hands" in engine.state():
        return False
    ours, full = chooser.final_state(), engine.raw_state()  # type: ignore[attr-defined]
    config, mover = ours.config, chooser.moves[-1][0].current_player
    # Our game ended neither by the last error, nor at the maximum, nor by R = 0.
    assert ours.terminal and ours.remaining is None and ours.strikes != config.max_errors
    assert sum(ours.fireworks) < tables_for(config).max_score
    hands = [[_card(ours.deck[card_id], config.values) for card_id in hand] for hand in ours.hands]
    hands[mover].insert(0, _card(ours.deck[ours.next_card], config.values))
    assert full["hands"] == hands
    assert full["deck_size"] == len(ours.deck) - ours.next_card - 1
    everything = {"suits": list(range(config.suit_count)), "values": list(range(1, config.values + 1))}
    assert full["knowledge"][mover][0] == everything
    assert len(full["knowledge"][mover]) == len(ours.hands[mover]) + 1
    return True


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
@pytest.mark.checks("PE-hanabython", "PE-hanabython-deal", "PE-hanabython-slots", "PE-hanabython-no-points", "PE-hanabython-discard-max", "PE-hanabython-hand-size", "PE-hanabython-actions", "PE-hanabython-state")
def test_hanabython_plays_its_peer_config(hanabython: Engine, players: int) -> None:
    """[PE-hanabython, PE-hanabython-deal, PE-hanabython-slots, PE-hanabython-no-points,
    PE-hanabython-discard-max, PE-hanabython-hand-size, PE-hanabython-actions,
    PE-hanabython-state] hanabython agrees with hanab-live plus its deal, slot order and
    final draw, move by move, including R as remaining_turns [PE-differential]."""
    config = peer_config("hanabython", players)
    assert hanabython.unsupported(config) is None
    assert_covered(play_hanabython(hanabython, config, HANABYTHON_GAMES), HANABYTHON_RATES)


@pytest.mark.deep
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_hanabython_plays_its_peer_config_for_a_million_states(hanabython: Engine, players: int) -> None:
    """[PE-hanabython, PE-hanabython-deal, PE-hanabython-slots, PE-hanabython-no-points,
    PE-hanabython-final-draw, PE-hanabython-actions, PE-hanabython-state] the comparison
    above over a fifth of a million states per player count, a million in all."""
    config = peer_config("hanabython", players)
    assert_covered(play_hanabython(hanabython, config, 0, DEEP_STATES // 5), HANABYTHON_RATES)


def play_hanabython(engine: Engine, config: GameConfig, games: int, states: int = 0) -> Counter[str]:
    """:func:`play_many` for hanabython, each game's end checked by :func:`_check_final_draw`."""
    counts: Counter[str] = Counter()
    while counts["games"] < games or counts["states"] < states:
        _check_final_draw(engine, play_one(engine, config, counts["games"], counts))
    return counts


class FiveDiscarder(RecordingChooser):
    """The driver, but with no playable card it discards a 5 if it holds one: suits then
    end below 5, and games often end by R-1 while the stack still holds cards."""

    def drive(self, state: GameState, legal: list[Action]) -> Action:
        hand = state.hands[state.current_player]
        fives = [
            action for action in legal
            if isinstance(action, Discard) and _identity(state, hand[action.slot])[1] == state.config.values
        ]
        playable = any(state.fireworks[suit] == value - 1 for suit, value in (_identity(state, c) for c in hand))
        return fives[0] if fives and not playable else super().drive(state, legal)


@pytest.mark.checks("PE-hanabython-final-draw", "PE-hanabython-no-points")
def test_hanabython_final_draw_is_the_only_difference(hanabython: Engine) -> None:
    """[PE-hanabython-final-draw, PE-hanabython-no-points] games ended by R-1 with cards
    left: hanabython's final state differs from ours exactly by the card it drew (each
    game compared move by move, until ten of them ended so, within 30 games)."""
    config = peer_config("hanabython", 3)
    ended_with_draw = 0
    for seed in range(30):
        if ended_with_draw == 10:
            break
        chooser = FiveDiscarder(seed, random_rate=0.1)
        divergence = play_compared(hanabython, config, deck_from_seed(config, seed), chooser)
        assert divergence is None, f"hanabython, seed {seed}: {divergence.what}"
        ended_with_draw += _check_final_draw(hanabython, chooser)
    assert ended_with_draw >= 10, f"only {ended_with_draw} games ended by R-1 with a draw"


@pytest.mark.checks("PE-hanabython-last-round")
def test_hanabython_plays_the_last_round_out(hanabython: Engine) -> None:
    """[PE-hanabython-last-round, R-4] hanabython has no end of the last round with nothing
    left to play: games of its configuration (the option off) that reach such a moment
    and go on agree with it move by move (games compared until two of them did, within 60)."""
    config = peer_config("hanabython", 3)
    assert not config.options.end_when_nothing_playable
    reached = 0
    for seed in range(60):
        if reached == 2:
            break
        chooser = chooser_for(seed)
        divergence = play_compared(hanabython, config, deck_from_seed(config, seed), chooser)
        assert divergence is None, f"hanabython, seed {seed}: {divergence.what}"
        reached += any(is_nothing_playable_left(tables_for(config), state.deck, state.fireworks, state.played, state.hands,
                                                state.current_player, state.remaining) for state, _ in chooser.moves)
    assert reached >= 2, f"only {reached} games went on past a last round with nothing left to play"


@pytest.mark.parametrize(
    "variant", ["Rainbow (6 Suits)", "Black (6 Suits)", "6 Suits", "Dutch Rainbow (Example 2.12)"]
)
@pytest.mark.parametrize("games", [8, pytest.param(15, marks=pytest.mark.deep)])
@pytest.mark.checks("PE-hanabython-variants")
def test_hanabython_plays_variants(hanabython: Engine, variant: str, games: int) -> None:
    """[PE-hanabython-variants] the sixth suit as hanabython's sixth colour or Multicolor
    (8 games each by default, 15 in the deep set)."""
    config = make_config(3, "thesis", variant, **HANABYTHON_RULES)
    assert hanabython.unsupported(config) is None
    assert play_many(hanabython, config, games)["games"] == games


@pytest.mark.parametrize("games", [8, pytest.param(15, marks=pytest.mark.deep)])
@pytest.mark.checks("PE-hanabython-empty-hints")
def test_hanabython_plays_empty_clues(hanabython: Engine, games: int) -> None:
    """[PE-hanabython-empty-hints] with empty clues allowed on both sides (8 games by
    default, 15 in the deep set)."""
    config = peer_config("hanabython", 3, empty_hints=True)
    assert hanabython.unsupported(config) is None
    assert play_many(hanabython, config, games)["games"] == games


@pytest.mark.checks("PE-hanabython-deal", "PE-hanabython-slots", "PE-hanabython-no-points", "PE-hanabython-final-draw", "PE-hanabython-discard-max", "PE-hanabython-variants")
def test_hanabython_unsupported_configurations() -> None:
    """[PE-hanabython-deal, PE-hanabython-slots, PE-hanabython-no-points,
    PE-hanabython-final-draw, PE-hanabython-discard-max, PE-hanabython-variants] the
    presets themselves, and decks with a value without copies, are refused with reasons."""
    assert hanabython_unsupported(peer_config("hanabython", 6)) is None
    for preset in ("thesis", "hle", "hanab-live"):
        reason = hanabython_unsupported(make_config(3, preset))
        assert reason is not None and "deal" in reason and "draw_position" in reason, reason
    holes = make_config(3, composition=[[3, 0, 2, 2, 1]] * 5, **HANABYTHON_RULES)
    assert "without copies" in str(hanabython_unsupported(holes))


# ------------------------------------------------------------------ the registry


@pytest.mark.checks("PE-peers", "PE-hle-seed")
def test_peer_registry_and_configs() -> None:
    """[PE-peers, PE-hle-seed] the peers (pyhanabi twice: handed our deck, and dealing
    from its own seed) and the configurations they must match."""
    assert set(PEERS) == {"openspiel", "hle", "hle-seed", "hanabython"}
    assert peer_config("hle-seed", 3) == peer_config("hle", 3)
    assert peer_config("openspiel", 4).preset == "hle"
    assert peer_config("hle", 2, hand_size=3).hand_size == 3
    assert peer_config("hanabython", 3).options == hanabython_options(False)
    with pytest.raises(ConfigError, match="unknown peer"):
        peer_config("hanabi.rs", 3)


@pytest.mark.parametrize(
    ("name", "module", "package"),
    [
        ("openspiel", "pyspiel", "open-spiel"),
        ("hle", "hanabi_learning_environment.pyhanabi", "hanabi-learning-environment"),
        ("hanabython", "hanabython", "hanabython"),
    ],
)
@pytest.mark.checks("PE-peers")
def test_missing_peer_library_is_one_clear_line(
    monkeypatch: pytest.MonkeyPatch, name: str, module: str, package: str
) -> None:
    """[PE-peers] without its library an adapter fails with one line naming the extra."""
    monkeypatch.setitem(sys.modules, module, None)  # makes the import fail
    with pytest.raises(EngineFailure) as failure:
        PEERS[name]()
    message = str(failure.value)
    assert "\n" not in message
    assert message.startswith(f"{name} adapter: {package}") and install_hint(name) in message


@pytest.mark.checks("PE-peers")
def test_importing_hanabi_ref_loads_no_peer_library() -> None:
    """[PE-peers] the peer libraries are optional: importing our modules imports none."""
    code = (
        "import sys, hanabi_ref, hanabi_ref.tools.peers, hanabi_ref.tools.peers.openspiel, hanabi_ref.tools.peers.hle, "
        "hanabi_ref.tools.peers.hanabython, hanabi_ref.tools.peers.choosers, hanabi_ref.tools.peers.hle_rules\n"
        "loaded = {'pyspiel', 'hanabython', 'hanabi_learning_environment'} & set(sys.modules)\n"
        "print(sorted(loaded))\n"
    )
    result = run_process([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "[]", result.stdout + result.stderr


@pytest.mark.parametrize("seed", [3, 11])
@pytest.mark.checks("PE-hle-final-draw")
def test_the_final_draw_is_pending_in_hle_dealt_by_rl_env_not_by_openspiel(seed: int) -> None:
    """[PE-hle-final-draw, R-3] in pyhanabi the move that ends the game (here the third
    strike) leaves the state terminal with the chance player to move: the draw is pending.
    Dealing it as ``rl_env.step()`` does (while the chance player is to move) gives the
    mover its card back; OpenSpiel's terminal state is no chance node, so no card follows."""
    pyhanabi = oracle("hanabi_learning_environment.pyhanabi")
    hle_game = pyhanabi.HanabiGame({"players": 2, "seed": seed})  # kept: the state points into it
    state = hle_game.new_initial_state()
    while state.cur_player() == pyhanabi.CHANCE_PLAYER_ID:
        state.deal_random_card()
    while not state.is_terminal():
        mover = state.cur_player()
        state.apply_move(next(m for m in state.legal_moves() if m.type() == pyhanabi.HanabiMoveType.PLAY))
        while state.cur_player() == pyhanabi.CHANCE_PLAYER_ID and not state.is_terminal():
            state.deal_random_card()
    deck, hand = state.deck_size(), len(state.player_hands()[mover])
    assert state.cur_player() == pyhanabi.CHANCE_PLAYER_ID and hand == 4
    while state.cur_player() == pyhanabi.CHANCE_PLAYER_ID:  # rl_env.step()'s loop
        state.deal_random_card()
    assert state.is_terminal() and state.deck_size() == deck - 1 and len(state.player_hands()[mover]) == hand + 1

    pyspiel = oracle("pyspiel")
    game = pyspiel.load_game("hanabi", {"players": 2, "seed": seed})
    spiel = game.new_initial_state()
    while not spiel.is_terminal():
        if spiel.is_chance_node():
            spiel.apply_action(spiel.chance_outcomes()[0][0])
        else:
            play = next(a for a in spiel.legal_actions() if spiel.action_to_string(a).startswith("(Play"))
            spiel.apply_action(play)
    assert spiel.is_terminal() and not spiel.is_chance_node()
