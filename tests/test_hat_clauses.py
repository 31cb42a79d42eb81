"""The classic hat player's clauses of spec/hat.md, each checked from its text: what a
hint touches (H-touch), clues of modulus 9 and common bookkeeping (H-player), who a clue
clues (H-clued), the snapshot (H-snapshot), the modified action (H-modified) and a seat's
turn (H-turn).

Whole games are played with the real player and replayed beside a model of the public
bookkeeping written here from the clauses: who holds an instruction from which clue,
and the public numbers at a clue's first clued seat's turn, read off the engine's states.
"""

from __future__ import annotations

from functools import cache

import attrs
import pytest

from hanabi_ref.engine.actions import Action, Discard, Hint, Play
from hanabi_ref.engine.cards import Identity
from hanabi_ref.engine.dealing import deck_from_seed
from hanabi_ref.players.runner import play_game
from hanabi_ref.engine.config import GameConfig
from hanabi_ref.engine.configs import make_config
from hanabi_ref.engine.state import Event, GameState
from hanabi_ref.players.strategies.hat.codes import HintTables, decode_event, hat_code
from hanabi_ref.players.strategies.hat.core import hat_sum
from hanabi_ref.players.strategies.hat.player import DecodeLog, HatPlayer, Snapshot, modified_candidates
from hanabi_ref.players.strategies.hat.values import CLUE, DISCARD, PLAY
from hanabi_ref.engine.transition import apply, initial_state
from hanabi_ref.engine.view import PlayerView
from tests.helpers import HAT_CONFIGS, HAT_VARIANTS, card, hat_snapshot

MODULUS = 9
SEEDS = range(4)


# ------------------------------------------------------------------ H-touch


@pytest.mark.checks("H-touch")
@pytest.mark.parametrize("variant", HAT_VARIANTS)
def test_what_each_hint_touches(variant: str) -> None:
    """[H-touch] a value hint on a touches every card of value a; a clue colour touches
    the suit of its name (and, in Rainbow, the rainbow suit too); only the rainbow suit
    has no colour of its own; so every suit is touched by some colour."""
    config = make_config(4, "hanab-live", variant)
    n, masks = config.values, HintTables(config).masks
    colours = len(config.colours)
    suits = [suit.name for suit in config.suits]
    for value in range(1, n + 1):
        expected = {card(config, value, suit) for suit in range(len(suits))}
        assert _identities(masks[colours + value - 1]) == expected
    for index, colour in enumerate(config.colours):
        touched = {suit for suit, name in enumerate(suits) if name == colour or name == "Rainbow"}
        expected = {card(config, value, suit) for suit in touched for value in range(1, n + 1)}
        assert _identities(masks[index]) == expected, colour
    own = {name for name in suits if name in config.colours}
    assert set(suits) - own == ({"Rainbow"} if variant == "rainbow" else set())
    assert all(any(masks[j] >> card(config, 1, suit) & 1 for j in range(colours)) for suit in range(len(suits)))


def _identities(mask: int) -> set[int]:
    return {x for x in range(mask.bit_length()) if mask >> x & 1}


# ------------------------------------------------------------------ games beside the model


class Recorder(HatPlayer):
    """The real hat player, whose public bookkeeping is copied after every action."""

    def __init__(self, config: GameConfig, seat: int, log: DecodeLog) -> None:
        super().__init__(config, seat, log)
        self.books: list[tuple[object, ...]] = []

    def observe(self, view: PlayerView, event: Event) -> None:
        super().observe(view, event)
        self.books.append(tuple(
            None if clue is None else (clue.turn, clue.cluer, clue.clued, clue.number, clue.snapshot, tuple(sorted(clue.observed.items())))
            for clue in self.holding
        ))


@attrs.frozen
class ModelClue:
    """A clue as the model derives it from H-clued: its turn, cluer and clued seats."""

    turn: int
    cluer: int
    clued: tuple[int, ...]


@attrs.frozen
class Played:
    config: GameConfig
    states: tuple[GameState, ...]
    actions: tuple[Action, ...]
    seats: tuple[Recorder, ...]
    log: DecodeLog
    holders: tuple[tuple[ModelClue | None, ...], ...]
    """``holders[t][seat]``: the clue whose instruction ``seat`` holds before move t."""
    clues: tuple[ModelClue, ...]


@cache
def played(players: int, preset: str, variant: str, seed: int) -> Played:
    config = make_config(players, preset, variant)
    log = DecodeLog(strict=False)
    seats: list[Recorder] = []

    def factory(config: GameConfig, seat: int, seed: int) -> Recorder:
        seats.append(Recorder(config, seat, log))
        return seats[-1]

    record = play_game(config, factory, seed=seed)
    states = [initial_state(config, deck_from_seed(config, seed))]
    for action in record.trace.actions:
        states.append(apply(states[-1], action))
    holders, clues = model_holders(config, states, record.trace.actions)
    return Played(config, tuple(states), record.trace.actions, tuple(seats), log, holders, clues)


def model_holders(config: GameConfig, states: list[GameState], actions: tuple[Action, ...]) -> tuple[tuple[tuple[ModelClue | None, ...], ...], tuple[ModelClue, ...]]:
    """[H-clued, H-common] a seat holds an instruction from the clue that clued it until
    its next turn; a clue clues every other seat holding none, in turn order after the
    cluer."""
    players = config.players
    holding: list[ModelClue | None] = [None] * players
    history, clues = [], []
    for turn, action in enumerate(actions):
        history.append(tuple(holding))
        actor = states[turn].current_player
        holding[actor] = None
        if isinstance(action, Hint):
            others = ((actor + offset) % players for offset in range(1, players))
            clue = ModelClue(turn, actor, tuple(seat for seat in others if holding[seat] is None))
            clues.append(clue)
            for seat in clue.clued:
                holding[seat] = clue
    return tuple(history), tuple(clues)


GAMES = [(players, preset, variant, seed) for players, preset, variant in HAT_CONFIGS for seed in SEEDS[:2]]


def all_games() -> list[Played]:
    return [played(*game) for game in GAMES]


def event_of(game: Played, turn: int) -> Event:
    return game.states[turn + 1].history[-1]


# ------------------------------------------------------------------ H-player


@pytest.mark.checks("H-player", "H-common")
@pytest.mark.parametrize("game", GAMES)
def test_every_hint_is_a_clue_of_modulus_9_and_the_bookkeeping_is_common(game: tuple[int, str, str, int]) -> None:
    """[H-player] every hint the player gives sends, by the public code, the sum modulo 9
    of the one action encoded for each clued seat; every clued seat that acts learns one
    action; after every action all seats' bookkeeping is the same (H-common)."""
    play = played(*game)
    code = hat_code(play.config)
    hints = 0
    for clue in play.clues:
        event = event_of(play, clue.turn)
        number = decode_event(code, event, play.states[clue.turn].hands[event.action.target])  # type: ignore[union-attr]
        assert number in range(MODULUS)
        encoded = play.log.encoded.get(clue.turn)
        if clue.clued:
            assert encoded is not None and list(encoded) == list(clue.clued)
            assert number == hat_sum(list(encoded.values()), MODULUS)
            hints += 1
        for seat, value in play.log.decoded.get(clue.turn, {}).items():
            assert seat in clue.clued and value in range(MODULUS)
    assert hints > 0
    books = [seat.books for seat in play.seats]
    assert all(book == books[0] for book in books) and len(books[0]) == len(play.actions)


# ------------------------------------------------------------------ H-clued


@pytest.mark.checks("H-clued")
def test_clues_skip_seats_holding_an_instruction_and_holders_follow_the_mover() -> None:
    """[H-clued] each clue clues exactly the other seats holding no instruction, in turn
    order after the cluer (as every seat records it); the seats holding instructions are
    always the ones right after the seat to move; the newly clued seats come after them.
    Some clue in these games does skip a seat."""
    skipped = 0
    for play in all_games():
        players = play.config.players
        for turn, holding in enumerate(play.holders):
            mover = play.states[turn].current_player
            others = [(mover + offset) % players for offset in range(1, players)]
            held = [holding[seat] is not None for seat in others]
            assert held == sorted(held, reverse=True), (turn, held)
        for clue in play.clues:
            for seat in play.seats:
                recorded = seat.books[clue.turn]
                if clue.clued:
                    assert recorded[clue.clued[0]][:3] == (clue.turn, clue.cluer, clue.clued)  # type: ignore[index]
            holding = play.holders[clue.turn]
            kept = sum(1 for seat in range(players) if seat != clue.cluer and holding[seat] is not None)
            expected = tuple((clue.cluer + offset) % players for offset in range(kept + 1, players))
            assert clue.clued == expected
            skipped += len(clue.clued) < players - 1
    assert skipped > 0


# ------------------------------------------------------------------ H-snapshot


def public_numbers(state: GameState) -> Snapshot:
    """[H-snapshot] field heights, copies discarded per identity, tokens, cards in the
    stack and errors, read off an engine state."""
    discarded = [0] * (state.config.values * len(state.fireworks))
    for card_id in state.discard:
        discarded[state.deck[card_id]] += 1
    return Snapshot(tuple(state.fireworks), tuple(discarded), state.clue_tokens, len(state.deck) - state.next_card, state.strikes)


@pytest.mark.checks("H-snapshot")
def test_the_snapshot_is_the_public_state_at_the_first_clued_seats_turn() -> None:
    """[H-snapshot] every seat records, for each clue, the public numbers of the state at
    the turn of the clue's first clued seat, no earlier and no later."""
    checked = 0
    for play in all_games():
        for clue in play.clues:
            if not clue.clued:
                continue
            first = clue.clued[0]
            turns = [t for t in range(clue.turn + 1, len(play.actions)) if play.states[t].current_player == first]
            if not turns:
                continue  # the game ended first
            moment = turns[0]
            expected = public_numbers(play.states[moment])
            for seat in play.seats:
                assert seat.books[moment - 1][first][4] == expected  # type: ignore[index]
                before = seat.books[moment - 2] if moment - 2 >= clue.turn else None
                if before is not None and moment - 1 > clue.turn:
                    assert before[first][4] is None  # type: ignore[index]
            checked += 1
    assert checked > 20


# ------------------------------------------------------------------ H-turn


def recovered(play: Played, clue: ModelClue, seat: int) -> int:
    return play.log.decoded[clue.turn][seat]


def newest_slot(state: GameState, seat: int) -> int:
    """[H-newest] the slot of the highest card id."""
    hand = state.hands[seat]
    return hand.index(max(hand))


def has_playable(state: GameState, seat: int) -> bool:
    n = state.config.values
    return any(state.fireworks[state.deck[c] // n] == state.deck[c] % n for c in state.hands[seat])


def may_discard(state: GameState) -> bool:
    return state.clue_tokens < state.config.max_hints or state.config.options.discard_at_max_hints


def expected_turn(play: Played, turn: int) -> tuple[int, str]:
    """[H-turn] the rule that applies at ``turn`` and the hat value it requires (CLUE for
    any hint)."""
    state, players = play.states[turn], play.config.players
    seat = state.current_player
    holding = play.holders[turn]
    clue = holding[seat]
    following = (seat + 1) % players
    if clue is not None:
        value = recovered(play, clue, seat)
        if (DISCARD <= value < CLUE and state.clue_tokens > 0 and clue.clued[-1] == seat
                and holding[following] is None and has_playable(state, following)):
            return CLUE, "rule 2"
        return value, "rule 1"
    if state.clue_tokens > 0 and any(holding[other] is None for other in range(players) if other != seat):
        return CLUE, "rule 3"
    newest = newest_slot(state, seat)
    if may_discard(state):
        return DISCARD + newest, "rule 4"
    return (CLUE, "rule 4") if state.clue_tokens > 0 else (PLAY + newest, "rule 4")


def hat_value(action: Action) -> int:
    if isinstance(action, Hint):
        return CLUE
    return (PLAY if isinstance(action, Play) else DISCARD) + action.slot


@pytest.mark.checks("H-turn")
def test_each_turn_follows_the_four_rules() -> None:
    """[H-turn] a clued seat carries out its recovered action, or clues instead of
    discarding when it is the last of its clue, a token is left and the next seat holds
    nothing and can play; an unclued seat clues when it has a token and someone to clue;
    else it discards its newest card (or clues at all tokens)."""
    fired: set[str] = set()
    for play in all_games():
        for turn, action in enumerate(play.actions):
            value, rule = expected_turn(play, turn)
            assert hat_value(action) == value, (turn, rule)
            fired.add(rule)
    assert fired == {"rule 1", "rule 2", "rule 3", "rule 4"}


# ------------------------------------------------------------------ H-modified


CONFIG = make_config(5, "hanab-live", "no-variant")
RED, YELLOW, GREEN, BLUE, PURPLE = range(5)


def snapshot(tokens: int, fields: dict[int, int] | None = None, discarded: tuple[tuple[int, int], ...] = ()) -> Snapshot:
    return hat_snapshot(CONFIG, tokens, fields, discarded)


def hand(*cards: tuple[int, int]) -> list[Identity]:
    return [card(CONFIG, value, suit) for value, suit in cards]


OTHER = hand((3, PURPLE), (3, PURPLE), (4, PURPLE), (4, PURPLE))


@pytest.mark.checks("H-modified")
def test_modified_rule_1_plays_a_five_when_a_clue_would_find_no_token() -> None:
    """[H-modified] rule 1 before rule 2: the standard action plays the green 1 (lowest
    value), which leaves the next clued seat's clue without a token, so the playable red
    5 comes first."""
    first = hand((5, RED), (1, GREEN), (3, BLUE), (3, YELLOW))
    candidates = modified_candidates(CONFIG, snapshot(0, {RED: 4}), first, [(CLUE, OTHER)])
    assert candidates[:2] == [PLAY + 0, PLAY + 1]


@pytest.mark.checks("H-modified")
def test_modified_rule_2_keeps_a_standard_play() -> None:
    """[H-modified] rule 2: with no clue starved, a standard play comes first."""
    first = hand((3, BLUE), (1, RED), (3, YELLOW), (4, GREEN))
    assert modified_candidates(CONFIG, snapshot(3), first, [(CLUE, OTHER)])[0] == PLAY + 1


@pytest.mark.checks("H-modified")
def test_modified_rule_3_clues_when_a_later_discard_would_meet_all_tokens() -> None:
    """[H-modified] rule 3: the first seat's standard discard (the red 1 already played)
    and two later discards would bring 5 tokens to 8, where the third discard is refused
    (hanab-live); so a clue comes first, then the standard action (rule 4)."""
    first = hand((3, BLUE), (1, RED), (3, YELLOW), (4, GREEN))
    rest = [(DISCARD + 0, OTHER), (DISCARD + 0, OTHER), (DISCARD + 0, OTHER)]
    assert modified_candidates(CONFIG, snapshot(5, {RED: 1}), first, rest)[:2] == [CLUE, DISCARD + 1]


@pytest.mark.checks("H-modified")
def test_modified_rules_4_to_7_when_everybody_would_clue() -> None:
    """[H-modified] with every clued seat cluing, rule 4 does not give the standard clue:
    rule 5's card (the red 1, already played), then rule 6's safe cards (two copies left
    elsewhere: the blue 4 and the green 2, not the yellow 5), then rule 7's clue.  Once a
    blue 4 is discarded the other one is no longer safe."""
    first = hand((4, BLUE), (1, RED), (2, GREEN), (5, YELLOW))
    candidates = modified_candidates(CONFIG, snapshot(7, {RED: 1}), first, [(CLUE, OTHER)])
    assert candidates[:4] == [DISCARD + 1, DISCARD + 0, DISCARD + 2, CLUE]
    unsafe = modified_candidates(CONFIG, snapshot(7, {RED: 1}, ((4, BLUE),)), first, [(CLUE, OTHER)])
    assert unsafe[:3] == [DISCARD + 1, DISCARD + 2, CLUE]
    someone_plays = modified_candidates(CONFIG, snapshot(7, {RED: 1}), first, [(PLAY + 0, hand((1, GREEN), (3, PURPLE), (3, PURPLE), (4, PURPLE)))])
    assert someone_plays[0] == CLUE  # rule 4: the standard clue
