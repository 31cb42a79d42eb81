"""Strategies that try to read hidden cards in-process, and fail [ISO-attacks, ISO-memo,
ISO-views, ISO-seeds, ISO-inprocess].

Four of the routes a cheating strategy can take inside the game's process, each as a
hostile strategy that tries to name the identities of its own cards:

1. a module-level cache of the game (route 1): every loaded ``hanabi_ref`` module's
   globals searched for a deck;
4. its own seed (route 4): game seeds enumerated until one derives that seed;
5. small game seeds (route 5): enumerated until one deals every card the seat can see;
6. a channel between seats (route 6): one seat writes into the objects of its view, the
   next reads its own view for it (and one rewrites its history, the game's must not
   change).

Each attack must learn nothing against play as it is (sealed views; with ``--sealed``,
seeds drawn from the system), and, as a positive control that shows the attack works,
must succeed against a deliberately unsealed configuration.  Routes 2 (the caller's
stack frame) and 3 (the garbage collector) are inherent to one Python process; isolated
seats defeat them (spec/isolation.md).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

import pytest

from hanabi_ref.engine.actions import Action
from hanabi_ref.engine.dealing import deck_from_seed, derive_seed
from hanabi_ref.players.runner import play_game
from hanabi_ref.engine.config import GameConfig
from hanabi_ref.engine.configs import make_config
from hanabi_ref.engine.state import Event
from hanabi_ref.players.strategy import BaseStrategy, Strategy, StrategyFactory
from hanabi_ref.engine.view import PlayerView, ViewMaker, view_legal_actions

CONFIG = make_config(3, preset="hle")
SEARCH = 1 << 11  # game seeds an enumerating attack tries
Guess = dict[int, int]  # card id -> identity the attack names


class Hostile(BaseStrategy):
    """Plays the first legal action; on its first turn runs ``attack`` and keeps what it names."""

    def __init__(self, config: GameConfig, seat: int, seed: int, attack: Callable[[PlayerView, int], Guess],
                 found: list[Guess]) -> None:
        self.seat, self.seed, self.attack, self.found = seat, seed, attack, found
        self.tried = False

    def act(self, view: PlayerView) -> Action:
        if not self.tried:
            self.tried = True
            guess = self.attack(view, self.seed)
            if guess:
                self.found.append(guess)
        return view_legal_actions(view)[0]


def hostile(attack: Callable[[PlayerView, int], Guess], found: list[Guess]) -> StrategyFactory:
    def factory(config: GameConfig, seat: int, seed: int) -> Strategy:
        return Hostile(config, seat, seed, attack, found)
    return factory


def right_guesses(found: list[Guess], deck: tuple[int, ...]) -> int:
    """How many of the attack's hands named every own card right."""
    return sum(all(deck[card_id] == identity for card_id, identity in guess.items()) for guess in found)


def own_cards(view: PlayerView, deck: tuple[int, ...]) -> Guess:
    return {card_id: deck[card_id] for card_id in view.hands[view.seat]}


# ------------------------------------------------------------------ route 1: module caches


def module_snoop(view: PlayerView, seed: int) -> Guess:
    """Every global of every loaded hanabi_ref module, and the tuples inside them, searched
    for a deck: a tuple of the configuration's cards in some order."""
    wanted = sorted(view.tables.canonical_deck)
    seen: list[Any] = []
    for name, module in list(sys.modules.items()):
        if name.startswith("hanabi_ref") and module is not None:
            for value in vars(module).values():
                seen.append(value)
                if isinstance(value, tuple):
                    seen.extend(value)
    for value in seen:
        if (isinstance(value, tuple) and len(value) == len(wanted) and all(isinstance(c, int) for c in value)
                and sorted(value) == wanted):
            return own_cards(view, value)
    return {}


@pytest.mark.checks("ISO-memo", "ISO-inprocess")
def test_no_module_holds_the_game(monkeypatch: pytest.MonkeyPatch) -> None:
    """[ISO-memo, ISO-inprocess] the view memo lives in the game's ViewMaker: searching every module's
    globals finds no deck.  Positive control: with the memo kept in a module global (as
    it once was), the same search names every own card right."""
    found: list[Guess] = []
    decks = [play_game(CONFIG, hostile(module_snoop, found), seed=seed).trace.deck for seed in range(5)]
    assert found == []

    from hanabi_ref.engine import view as view_module

    original = ViewMaker._public_parts

    def remembered(self: ViewMaker, state: Any) -> Any:
        monkeypatch.setattr(view_module, "_last_parts", (state.deck,), raising=False)
        return original(self, state)

    monkeypatch.setattr(ViewMaker, "_public_parts", remembered)
    found = []
    for seed in range(5):
        before = len(found)
        deck = play_game(CONFIG, hostile(module_snoop, found), seed=seed).trace.deck
        assert len(found) > before and right_guesses(found[before:], deck) == len(found) - before
    assert decks  # the sealed games were played


# ------------------------------------------------------------------ routes 4 and 5: seeds


def seed_inversion(view: PlayerView, seed: int) -> Guess:
    """Game seeds 0..SEARCH-1 tried until one derives this seat's own seed (D-derive)."""
    for game_seed in range(SEARCH):
        if derive_seed(game_seed, view.seat + 1) == seed:
            return own_cards(view, deck_from_seed(view.config, game_seed))
    return {}


def seed_search(view: PlayerView, seed: int) -> Guess:
    """Game seeds 0..SEARCH-1 tried until one deals every card this seat can see."""
    others = [(card_id, view.cards[j][slot]) for j, hand in enumerate(view.hands) if j != view.seat
              for slot, card_id in enumerate(hand)]
    for game_seed in range(SEARCH):
        deck = deck_from_seed(view.config, game_seed)
        if all(deck[card_id] == identity for card_id, identity in others):
            return own_cards(view, deck)
    return {}


def sealed_seeds() -> tuple[int, int]:
    """A run's seeds as ``--sealed`` draws them: the game seed and the strategy seed, each
    63 bits from the system (ISO-seeds)."""
    import secrets

    return secrets.randbits(63), secrets.randbits(63)


@pytest.mark.checks("ISO-seeds")
@pytest.mark.parametrize("attack", [seed_inversion, seed_search])
def test_seeds_tell_a_sealed_strategy_nothing(attack: Callable[[PlayerView, int], Guess]) -> None:
    """[ISO-seeds] with seeds drawn as ``--sealed`` draws them, enumerating small game
    seeds against the strategy's own seed (route 4) or against the cards it sees (route
    5) names no hand.  Positive control: with a small game seed and the strategies seeded
    from it (``play_game`` without a strategy seed), both attacks name every own card."""
    for _ in range(3):
        game_seed, strategy_seed = sealed_seeds()
        found: list[Guess] = []
        play_game(CONFIG, hostile(attack, found), seed=game_seed, strategy_seed=strategy_seed)
        assert found == []
    for game_seed in (7, 1000, SEARCH - 1):
        found = []
        deck = play_game(CONFIG, hostile(attack, found), seed=game_seed).trace.deck
        assert found and right_guesses(found, deck) == len(found)


@pytest.mark.checks("ISO-seeds")
def test_a_run_seed_of_strategies_apart_from_the_decks_hides_small_game_seeds() -> None:
    """[ISO-seeds] with small game seeds but a strategy seed of its own (``--strategy-seed``,
    here drawn from the system), the strategy's seed no longer leads back to its game
    seed: route 4 names no hand (route 5, which needs no seed of the strategy, still
    does: only a seed nobody can guess hides the deck, which ``--sealed`` draws)."""
    import secrets

    strategy_seed = secrets.randbits(63)
    found: list[Guess] = []
    for game_seed in range(3):
        play_game(CONFIG, hostile(seed_inversion, found), seed=game_seed, strategy_seed=derive_seed(strategy_seed, game_seed))
    assert found == []


# ------------------------------------------------------------------ route 6: a channel between seats


class Channel:
    """Seat 0 writes into the objects of its views; seats 1 and 2 look for it in theirs."""

    def __init__(self) -> None:
        self.seen: list[str] = []

    def factory(self, config: GameConfig, seat: int, seed: int) -> Strategy:
        channel = self

        class Seat(BaseStrategy):
            def observe(self, view: PlayerView, event: Event) -> None:
                channel.look(view)

            def act(self, view: PlayerView) -> Action:
                if seat == 0:
                    channel.write(view)
                else:
                    channel.look(view)
                return view_legal_actions(view)[0]

        return Seat()

    def write(self, view: PlayerView) -> None:
        planted: Any = getattr(view.config, "__dict__", None)  # a configuration is slotted: nothing to plant
        if planted is not None:
            planted["planted"] = view.turns
        view.tables.__dict__["planted"] = view.turns
        events: Any = view.history._events
        if isinstance(events, list):  # an unsealed history: the game's own list
            events.append("planted")
        for memo in view.tables.touching_memo:
            memo.clear()
            memo[0] = ()  # a poisoned memo: "a hand touched by nothing"

    def look(self, view: PlayerView) -> None:
        if view.seat == 0:
            return
        if "planted" in getattr(view.config, "__dict__", {}):
            self.seen.append(f"config, turn {view.turns}")
        if "planted" in view.tables.__dict__:
            self.seen.append(f"tables, turn {view.turns}")
        events: list[object] = list(view.history._events)
        if "planted" in events:
            self.seen.append(f"history, turn {view.turns}")
        if any(memo.get(0) == () for memo in view.tables.touching_memo):
            self.seen.append(f"memo, turn {view.turns}")


@pytest.mark.checks("ISO-views")
def test_no_object_of_a_view_is_shared_with_another_seat() -> None:
    """[ISO-views] what seat 0 writes into its view's configuration, tables, history and
    action memos reaches no other seat and not the game: the others see nothing, and the game is
    the game played by seats that write nothing.  Positive control: with unsealed views
    (shared tables and history) the others see it at once."""
    channel = Channel()
    sealed = play_game(CONFIG, channel.factory, seed=3)
    assert channel.seen == []
    honest = play_game(CONFIG, lambda config, seat, seed: _FirstLegal(), seed=3)
    assert sealed.trace.actions == honest.trace.actions and sealed.final.history == honest.final.history

    open_channel = Channel()
    play_game(make_config(3, preset="hle"), open_channel.factory, seed=3, views=ViewMaker(CONFIG, sealed=False))
    assert open_channel.seen, "the unsealed control should carry seat 0's writes to the others"


class _FirstLegal(BaseStrategy):
    def act(self, view: PlayerView) -> Action:
        return view_legal_actions(view)[0]


@pytest.mark.checks("ISO-views")
def test_a_sealed_history_cannot_be_rewritten() -> None:
    """[ISO-views] a view's history is sealed: its entries are a tuple and its attributes
    cannot be set, so a seat cannot rewrite what the others were shown."""
    views: list[PlayerView] = []

    class Keep(_FirstLegal):
        def observe(self, view: PlayerView, event: Event) -> None:
            views.append(view)

    play_game(CONFIG, lambda config, seat, seed: Keep(), seed=4)
    history = views[-1].history
    assert isinstance(history._events, tuple)
    with pytest.raises(AttributeError):
        setattr(history, "_events", ())
    with pytest.raises(AttributeError):
        setattr(history, "planted", 1)


@pytest.mark.checks("ISO-seeds")
def test_sealed_runs_report_their_seeds_and_play_again(tmp_path: Any, capsys: pytest.CaptureFixture[str]) -> None:
    """[ISO-seeds, C-simulate, C-play, T-trace] ``--sealed`` draws both seeds (63 bits,
    reported); the run played again with them gives the same games; a trace records the
    strategy seed; the thesis strategy (which draws from its seed) plays other games
    under another strategy seed; ``--sealed`` with ``--seed`` is a usage error."""
    import json

    from hanabi_ref.cli import EXIT_OK, EXIT_USAGE, main

    common = ["--strategy", "thesis", "--players", "3", "--games", "4", "--jobs", "1", "--json"]
    assert main(["simulate", *common, "--sealed"]) == EXIT_OK
    first = json.loads(capsys.readouterr().out)
    assert 0 <= first["seed"] < 2**63 and 0 <= first["strategy_seed"] < 2**63
    again = ["--seed", str(first["seed"]), "--strategy-seed", str(first["strategy_seed"])]
    assert main(["simulate", *common, *again]) == EXIT_OK
    assert json.loads(capsys.readouterr().out)["trace_sha256"] == first["trace_sha256"]
    assert main(["simulate", *common, "--sealed", "--seed", "3"]) == EXIT_USAGE
    assert "--sealed draws both seeds" in capsys.readouterr().err

    traces = []
    for strategy_seed in ("1", "2"):
        out = tmp_path / f"t{strategy_seed}.json"
        assert main(["play", "--strategy", "thesis", "--players", "3", "--seed", "5", "--strategy-seed", strategy_seed,
                     "--out", str(out)]) == EXIT_OK
        data = json.loads(out.read_text())
        assert data["strategy_seed"] == int(strategy_seed) and data["seed"] == 5
        traces.append(data)
    capsys.readouterr()
    assert traces[0]["deck"] == traces[1]["deck"] and traces[0]["actions"] != traces[1]["actions"]
    assert main(["play", "--strategy", "thesis", "--players", "3", "--sealed", "--json"]) == EXIT_OK
    played = json.loads(capsys.readouterr().out)
    assert 0 <= played["seed"] < 2**63 and 0 <= played["strategy_seed"] < 2**63
