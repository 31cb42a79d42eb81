"""Player views and the strategy runner: what a seat may know, and that every seat
observes every move [2.17-view, 2.17-history, E-8]."""

from __future__ import annotations

import attrs
import pytest

from hanabi_ref.engine.actions import Action, Hint
from hanabi_ref.engine.dealing import GOLDEN, SplitMix64, deck_from_seed, derive_seed
from hanabi_ref.base.errors import IllegalActionError
from hanabi_ref.players.runner import play_game
from hanabi_ref.players.strategy import BaseStrategy, Strategy, StrategyError
from hanabi_ref.engine.config import GameConfig
from hanabi_ref.engine.configs import make_config
from hanabi_ref.engine.legality import legal_actions
from hanabi_ref.engine.state import Event, GameState, deck_size
from hanabi_ref.players.strategies.random import RandomStrategy
from hanabi_ref.engine.transition import apply, initial_state
from hanabi_ref.engine.view import PlayerView, make_view, make_views, view_legal_actions
from tests.helpers import greedy_open_action, play_out


def test_views_cannot_be_built_directly() -> None:
    """[2.17-view] a PlayerView comes only from make_view: direct construction (with any
    key but the module's own) raises TypeError."""
    config = make_config(2)
    view = make_view(initial_state(config, deck_from_seed(config, 0)), 0)
    fields = {f.name: getattr(view, f.name) for f in attrs.fields(PlayerView) if f.name != "key"}
    with pytest.raises(TypeError):
        PlayerView(**fields)
    token = view.key
    assert token is not None
    with pytest.raises(TypeError):
        PlayerView(**fields, key=type(token)())  # a token of the right class, but not the module's
    with pytest.raises(TypeError):
        attrs.evolve(view, key=None)


def test_make_view_fills_exactly_the_declared_fields() -> None:
    """[2.17-view] make_view fills a view's ``__dict__`` directly; the view it builds has
    exactly the attrs fields of PlayerView, equals the view attrs' own ``__init__`` builds
    from the same values, and stays frozen."""
    config = make_config(4, "hanab-live")
    states = play_out(initial_state(config, deck_from_seed(config, 3)), greedy_open_action)
    names = {f.name for f in attrs.fields(PlayerView)}
    for state in (states[0], states[len(states) // 2], states[-1]):
        for seat in range(4):
            view = make_view(state, seat)
            assert set(vars(view)) == names
            rebuilt = PlayerView(**{name: getattr(view, name) for name in names})
            assert rebuilt == view and attrs.asdict(rebuilt, recurse=False) == attrs.asdict(view, recurse=False)
            with pytest.raises(attrs.exceptions.FrozenInstanceError):
                view.clue_tokens = 0  # type: ignore[misc]


def test_view_contents() -> None:
    """[2.17-view, E-8] seat j's view: its own cards as ids with knowledge and no
    identities, every other hand's identities, all knowledge sets, the stack as a size
    only, fields, played and discarded cards with identities, t, f, R, whose turn it is
    and the public history; no deck."""
    config = make_config(3)
    states = play_out(initial_state(config, deck_from_seed(config, 5)), greedy_open_action)
    state = states[len(states) // 2]
    for seat in range(3):
        view = make_view(state, seat)
        assert view.seat == seat and view.current_player == state.current_player and view.turns == state.turns
        assert view.hands == state.hands and view.own_hand == state.hands[seat]
        assert view.cards[seat] == (None,) * len(state.hands[seat])
        for other in range(3):
            if other != seat:
                assert view.cards[other] == tuple(state.deck[c] for c in state.hands[other])
        assert view.knowledge == state.knowledge and view.own_knowledge == state.knowledge[seat]
        assert view.deck_size == deck_size(state)
        assert view.fireworks == state.fireworks
        assert view.played == tuple((c, state.deck[c]) for c in state.played)
        assert view.discard == tuple((c, state.deck[c]) for c in state.discard)
        assert (view.clue_tokens, view.strikes, view.remaining, view.terminal) == (
            state.clue_tokens,
            state.strikes,
            state.remaining,
            state.terminal,
        )
        assert view.history == state.history
        assert not hasattr(view, "deck") and not hasattr(view, "next_card")


def expected_cards(state: GameState, seat: int) -> tuple[tuple[int | None, ...], ...]:
    """Seat's view of the hands' identities, from the state: its own hidden."""
    return tuple(
        (None,) * len(hand) if j == seat else tuple(state.deck[c] for c in hand) for j, hand in enumerate(state.hands)
    )


def test_views_are_the_same_in_any_order_of_states() -> None:
    """[2.17-view] make_views reuses the last state's public parts when the next state
    shares them; views built along a game, across two games in turn, back at earlier
    states and on two successors of one state all show exactly the state's cards, played
    and discarded pairs."""
    config = make_config(4, "hanab-live")
    games = [play_out(initial_state(config, deck_from_seed(config, seed)), greedy_open_action) for seed in (1, 2)]
    branch = games[0][10]
    successors = [apply(branch, action) for action in legal_actions(branch)[:6]]
    order = [
        *games[0],  # along a game
        *(state for pair in zip(games[0], games[1]) for state in pair),  # two games in turn
        *reversed(games[1]),  # backwards
        *(state for successor in successors for state in (branch, successor)),  # siblings
        *games[0][::7],
    ]
    for state in order:
        for seat, view in enumerate(make_views(state, range(4))):
            assert view.cards == expected_cards(state, seat)
            assert view.played == tuple((c, state.deck[c]) for c in state.played)
            assert view.discard == tuple((c, state.deck[c]) for c in state.discard)
            assert view.hands == state.hands and view.history == state.history


@attrs.define
class Recorder:
    """Remembers every (seat, view, event) it observes; acts like the random strategy."""

    log: list[tuple[int, PlayerView, Event]]
    seat: int
    inner: RandomStrategy

    def observe(self, view: PlayerView, event: Event) -> None:
        self.log.append((self.seat, view, event))

    def act(self, view: PlayerView) -> Action:
        assert view.seat == self.seat == view.current_player
        assert all(card is None for card in view.cards[self.seat])
        return self.inner.act(view)


@pytest.mark.parametrize("players, preset", [(1, "thesis"), (3, "thesis"), (5, "hle"), (6, "hanab-live")])
def test_every_seat_observes_every_move(players: int, preset: str) -> None:
    """[2.17-history, 2.17-view] after every move, every seat's observe is called once,
    in seat order, with that seat's new view and the move's public record."""
    config = make_config(players, preset)
    log: list[tuple[int, PlayerView, Event]] = []

    def factory(config: GameConfig, seat: int, seed: int) -> Strategy:
        return Recorder(log, seat, RandomStrategy(config, seat, seed))

    record = play_game(config, factory, seed=17)
    history = record.final.history
    assert len(history) == len(record.trace.actions) > 0
    assert len(log) == len(history) * config.players
    for index, event in enumerate(history):
        calls = log[index * config.players : (index + 1) * config.players]
        assert [seat for seat, _, _ in calls] == list(range(config.players))
        for seat, view, observed in calls:
            assert observed == event and view.seat == seat
            assert view.turns == index + 1 and view.history[-1] == event
            assert event.action == record.trace.actions[index] and event.turn == index


def test_history_records() -> None:
    """[2.17-history] one record per move: move number, seat, action; for plays and
    discards the card id, its identity and (plays) the success; for hints the touched card
    ids; the id of the card drawn (its identity is not shown to the drawer)."""
    config = make_config(2)
    states = play_out(initial_state(config, deck_from_seed(config, 2)), greedy_open_action)
    for index, (before, after) in enumerate(zip(states, states[1:])):
        event = after.history[-1]
        assert after.history[:-1] == before.history
        assert (event.turn, event.player) == (index, before.current_player)
        if event.card_id is not None:
            assert event.card == before.deck[event.card_id]
            assert event.card_id in before.hands[before.current_player]
        if event.drawn is not None:
            assert event.drawn == before.next_card
            assert make_view(after, before.current_player).cards[before.current_player] == (None,) * len(after.hands[before.current_player])


class SelfHinter(BaseStrategy):
    """Always hints its own seat: illegal without self hints."""

    def __init__(self, config: GameConfig, seat: int, seed: int) -> None:
        self.seat = seat

    def act(self, view: PlayerView) -> Action:
        return Hint(self.seat, "value", 1)


def test_illegal_strategy_action_is_a_strategy_error() -> None:
    """[2.16-2, 2.16-2a-target] a strategy that chooses an illegal action stops the game
    with a StrategyError naming the turn, the seat and the clause."""
    with pytest.raises(StrategyError) as error:
        play_game(make_config(2), SelfHinter, seed=0)
    message = str(error.value)
    assert message.startswith("turn 0, seat 0 (SelfHinter):") and "2.16-2a-target" in message


class NotAnAction(BaseStrategy):
    """Returns something that is not an action."""

    def __init__(self, config: GameConfig, seat: int, seed: int) -> None:
        pass

    def act(self, view: PlayerView) -> Action:
        return "play 0"  # type: ignore[return-value]


def test_apply_refuses_a_non_action() -> None:
    """[2.16-2] apply refuses an object that is not an action with IllegalActionError 2.16-2."""
    config = make_config(2)
    state = initial_state(config, deck_from_seed(config, 0))
    with pytest.raises(IllegalActionError) as error:
        apply(state, "play 0")  # type: ignore[arg-type]
    assert error.value.clause == "2.16-2"


def test_strategy_returning_a_non_action_is_a_strategy_error() -> None:
    """[2.16-2] a strategy that returns something that is not an action stops the game with
    a StrategyError naming the turn, the seat and clause 2.16-2 (not a crash)."""
    with pytest.raises(StrategyError) as error:
        play_game(make_config(2), NotAnAction, seed=0)
    assert str(error.value).startswith("turn 0, seat 0 (NotAnAction):") and "2.16-2" in str(error.value)


MASK = (1 << 64) - 1


def _undo_xorshift(x: int, shift: int) -> int:
    y = x
    for _ in range(64 // shift + 1):
        y = x ^ (y >> shift)
    return y


def recover_game_seed(seed: int, label: int) -> int:
    """The inverse of a SplitMix64-mixer derivation (xor-shifts and multiplications by odd
    constants are bijections): the attack a one-way derive_seed [D-derive] must defeat."""
    z = _undo_xorshift(seed, 31)
    z = (z * pow(0x94D049BB133111EB, -1, 1 << 64)) & MASK
    z = _undo_xorshift(z, 27)
    z = (z * pow(0xBF58476D1CE4E5B9, -1, 1 << 64)) & MASK
    z = _undo_xorshift(z, 30)
    return ((z - GOLDEN) & MASK) ^ ((label * GOLDEN) & MASK)


def splitmix_derive(seed: int, label: int) -> int:
    """An invertible derivation: one SplitMix64 output from seed xor label * GOLDEN."""
    return SplitMix64((seed ^ (label * GOLDEN)) & MASK).next64()


def test_seed_recovery_helper_inverts_a_mixer_derivation() -> None:
    """[D-derive] (the attack of the next test works) recover_game_seed undoes a
    SplitMix64-mixer derivation, so the next test fails for such a derive_seed."""
    assert all(recover_game_seed(splitmix_derive(s, j), j) == s for s in (0, 5, MASK) for j in (1, 2, 6))


def test_derive_seed_is_the_specified_blake2b() -> None:
    """[D-derive] derive_seed is BLAKE2b-64 keyed with b"hanabi_ref/derive" over 8-byte
    little-endian words, recomputed here with hashlib directly."""
    import hashlib

    for seed, labels in ((0, (1,)), (2024, (3,)), (MASK, (1, 2))):
        data = b"".join(v.to_bytes(8, "little") for v in (seed, *labels))
        expected = int.from_bytes(hashlib.blake2b(data, digest_size=8, key=b"hanabi_ref/derive").digest(), "little")
        assert derive_seed(seed, *labels) == expected


class DeckReader(BaseStrategy):
    """Names its own cards from nothing but what play_game hands it: its seat and seed."""

    def __init__(self, config: GameConfig, seat: int, seed: int) -> None:
        self.deck = deck_from_seed(config, recover_game_seed(seed, seat + 1))
        self.guesses: list[tuple[int, int]] = []

    def act(self, view: PlayerView) -> Action:
        self.guesses += [(card_id, self.deck[card_id]) for card_id in view.own_hand]
        return view_legal_actions(view)[0]  # hint or discard: a long game, many guesses


def test_strategy_seed_does_not_reveal_the_deck() -> None:
    """[2.17-view, 2.17-history, D-seed] the deck order and a seat's own identities never
    reach its strategy: a strategy that tries to read its own cards out of its seed must
    get some of them wrong."""
    strategies: list[DeckReader] = []

    def factory(config: GameConfig, seat: int, seed: int) -> Strategy:
        strategies.append(DeckReader(config, seat, seed))
        return strategies[-1]

    record = play_game(make_config(3), factory, seed=2024)
    guesses = [guess for strategy in strategies for guess in strategy.guesses]
    assert len(guesses) > 50
    assert any(record.final.deck[card_id] != identity for card_id, identity in guesses)


def test_view_legal_actions_only_for_the_player_to_move() -> None:
    """[2.16-actions, 2.17-view] the acting seat's view lists the state's legal actions;
    a state after a move lists the next seat's."""
    config = make_config(3, "hle")
    state = initial_state(config, deck_from_seed(config, 9))
    assert view_legal_actions(make_view(state, 0))
    after = apply(state, view_legal_actions(make_view(state, 0))[0])
    assert view_legal_actions(make_view(after, 1)) and after.current_player == 1
