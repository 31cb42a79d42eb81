"""Machine check of Part 1 of proofs/hat_decoding.md [H-budget, H-feasible, H-last-to-first,
H-predict, H-decode].

Each lemma is checked by calling the function of the classic hat player that carries it
out (:mod:`hanabi_ref.players.strategies.hat.player`), against an oracle written from the proof:

* Lemma 1 (H-last-to-first): ``standard_values`` on random clues over real deals.
* Lemma 2 (H-budget, H-feasible): every hint count and every sequence of actions the
  budgets allow; ``is_feasible`` must agree with a token count written from the rules,
  at least four first actions must keep the clue executable, and ``choose_first`` must
  pick one of them whichever three sums cannot be sent.
* Lemma 3 (H-predict): ``after`` against the engine's own transition in every state of
  tiny games, and ``predict`` against the snapshot recorded at the first clued seat's
  turn in real games.
* The theorem (H-decode): ``HatPlayer.decode`` over every tuple of small hands, every
  first value and every snapshot of a grid; and in real games, every recovered value
  against the encoded one.

``test_planted_bugs_are_caught`` plants a bug in each of these functions and expects the
check of its lemma to fail.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Sequence
from typing import cast

import pytest

from hanabi_ref.engine.actions import Hint
from hanabi_ref.engine.cards import Identity, as_identities
from hanabi_ref.players.runner import play_game
from hanabi_ref.engine.dealing import deck_from_seed
from hanabi_ref.engine.legality import legal_actions
from hanabi_ref.engine.config import GameConfig
from hanabi_ref.engine.configs import make_config
from hanabi_ref.engine.state import Event, GameState
from hanabi_ref.players.strategies.hat import player
from hanabi_ref.players.strategies.hat.core import hat_sum
from hanabi_ref.players.strategies.hat import values as hat_values
from hanabi_ref.players.strategies.hat.player import Clue, DecodeLog, HatPlayer, Snapshot
from hanabi_ref.players.strategies.hat.values import CLUE, DISCARD, PLAY
from hanabi_ref.engine.transition import apply
from hanabi_ref.engine.view import PlayerView, make_view

from hanabi_search import PRESET_OPTIONS, explore, tiny_config

T0 = 8
KINDS = ("play", "play5", "discard", "clue")


# ------------------------------------------------------------------ Lemma 2, the oracle


def _delta(kind: str, tokens: int) -> int | None:
    """Tokens after an action of ``kind`` with ``tokens`` before, or None if the action
    cannot be carried out (a clue without a token, a discard with all tokens: hanab-live
    forbids discards at t0)."""
    if kind == "clue":
        return tokens - 1 if tokens >= 1 else None
    if kind == "discard":
        return tokens + 1 if tokens < T0 else None
    if kind == "play5":
        return min(tokens + 1, T0)
    return tokens


def _allowed_sequences(h: int, members: int) -> list[tuple[str, ...]]:
    """Every sequence of kinds for j_2 .. j_k that H-budget allows, chosen last to first:
    a clue only while the clues after it leave a token of h, a discard only while
    h + (its position) < t0 (positions counted from j_1 = 0)."""
    result = []
    for kinds in itertools.product(KINDS, repeat=members):
        clues_after = 0
        ok = True
        for index in range(members - 1, -1, -1):
            kind = kinds[index]
            if kind == "clue" and not clues_after + 1 <= h:
                ok = False
            if kind == "discard" and not h + index + 1 < T0:
                ok = False
            clues_after += kind == "clue"
        if ok:
            result.append(kinds)
    return result


def _executable(h: int, kinds: Sequence[str]) -> bool:
    tokens: int | None = h
    for kind in kinds:
        assert tokens is not None
        tokens = _delta(kind, tokens)
        if tokens is None:
            return False
    return True


# ------------------------------------------------------------------ Lemma 2, concrete clues

FIELDS = (4, 4, 4, 4, 4)
"""Every field at 4: the five of each suit (5 s + 4) is playable, every other card misplays
(a misplay leaves the tokens as they are, like a play that is not a five)."""
FILLER: tuple[Identity, ...] = tuple(as_identities((20, 21, 22, 23)))


def _realize(kind: str, index: int) -> tuple[int, tuple[Identity, ...]]:
    """A (value, hand) of the clued seat j_{index+2} carrying out ``kind``; its five is of
    suit index + 1, so the fives of one clue are distinct and j_1's is of suit 0."""
    if kind == "clue":
        return CLUE, FILLER
    if kind == "discard":
        return DISCARD, FILLER
    if kind == "play5":
        return PLAY, (Identity(5 * (index + 1) + 4), *FILLER[1:])
    return PLAY, FILLER


def _kind_of(value: int, hand: Sequence[int]) -> str:
    if value == CLUE:
        return "clue"
    if value >= DISCARD:
        return "discard"
    return "play5" if hand[value] % 5 == 4 else "play"


FIRST_HANDS: tuple[tuple[Identity, ...], ...] = tuple(
    tuple(as_identities(hand)) for hand in ((4, 20, 21, 22), (20, 21, 22, 4), (20, 21, 22, 23))
)
"""The first seat's hands: a playable five in the first or the last slot, or none; the
check also takes each with its last card gone (the hands of 3 at the end of a game)."""


def check_lemma_2(players: int) -> int:
    """[H-budget, H-feasible] for every h, every allowed sequence of the other seats'
    actions and every first hand: ``is_feasible`` agrees with the token count; at least
    four first values keep the clue executable; and ``choose_first`` returns one of them
    when the first three of them in its order cannot be sent. Returns the cases."""
    config = make_config(players, preset="hanab-live")
    cluer = HatPlayer(config, 0)
    cases = 0
    for h in range(T0 + 1):
        snap = Snapshot(FIELDS, (0,) * 25, h, 20, 0)
        for members in range(players - 1):
            for kinds in _allowed_sequences(h, members):
                rest: list[tuple[int, Sequence[Identity]]] = [_realize(kind, index) for index, kind in enumerate(kinds)]
                for full in FIRST_HANDS:
                    for hand in (full, full[:3]):
                        _check_first_values(config, cluer, snap, hand, rest, kinds)
                        cases += 1
    return cases


def _check_first_values(
    config: GameConfig, cluer: HatPlayer, snap: Snapshot, hand: tuple[Identity, ...],
    rest: list[tuple[int, Sequence[Identity]]], kinds: tuple[str, ...],
) -> None:
    good = []
    for value in range(hat_values.MODULUS):
        if value != CLUE and value % hat_values.SLOTS >= len(hand):
            assert not player.is_executable(config, value, snap.tokens, len(hand))
            continue
        modelled = _executable(snap.tokens, (_kind_of(value, hand), *kinds))
        plan = [(value, hand), *rest]
        feasible = player.is_executable(config, value, snap.tokens, len(hand)) and player.is_feasible(config, snap, plan)
        assert feasible == modelled, (snap.tokens, value, hand, kinds)
        if feasible:
            good.append(value)
    assert len(good) >= 4, (snap.tokens, hand, kinds, good)  # Lemma 2: at most 3 sums cannot be sent
    total = sum(value for value, _ in rest)
    order = [value for value in player.modified_candidates(config, snap, hand, rest) if value in good]
    for blocked in range(4):
        mask = sum(1 << ((total + value) % hat_values.MODULUS) for value in range(hat_values.MODULUS) if value not in order[:blocked])
        first = cluer.choose_first(snap, hand, rest, total, mask)
        assert first in good and mask >> ((total + first) % hat_values.MODULUS) & 1, (snap.tokens, hand, kinds, blocked, first)


@pytest.mark.checks("H-budget", "H-feasible")
@pytest.mark.parametrize("players", [4, pytest.param(5, marks=pytest.mark.deep)])
def test_budgets_make_every_clue_executable(players: int) -> None:
    """[H-budget, H-feasible] Lemma 2, exhaustively over h, k and the allowed sequences."""
    assert check_lemma_2(players) > 500


# ------------------------------------------------------------------ Lemma 1


def _random_clue(rng: random.Random, config: GameConfig) -> tuple[Snapshot, list[list[Identity]]]:
    """A snapshot and k hands from a real deal: fields and discards from a prefix of the
    deck, hands from what follows."""
    deck = list(deck_from_seed(config, rng.randrange(2**32)))
    n = config.values
    fields = [0] * config.suit_count
    discarded = [0] * (n * config.suit_count)
    cursor = 0
    for _ in range(rng.randrange(0, 30)):
        card = deck[cursor]
        cursor += 1
        if fields[card // n] == card % n:
            fields[card // n] += 1
        else:
            discarded[card] += 1
    members = rng.randrange(1, config.players)
    hands = [deck[cursor + 4 * m : cursor + 4 * m + 4] for m in range(members)]
    snap = Snapshot(tuple(fields), tuple(discarded), rng.randrange(T0 + 1), rng.randrange(0, 20), 0)
    return snap, hands


def check_lemma_1(trials: int = 3000) -> None:
    """[H-last-to-first, H-budget] Lemma 1 on random clues: changing the hand of a seat
    before j_l never changes j_l's action, and changing a later one can; the actions
    keep the budgets."""
    rng = random.Random(20261122)
    configs = [make_config(p, preset="hanab-live", variant=v) for p in (4, 5) for v in ("no-variant", "rainbow", "black", "6-suits")]
    changed_later = 0
    for trial in range(trials):
        config = configs[trial % len(configs)]
        snap, hands = _random_clue(rng, config)
        position = 1  # the clued seats after the first, as the cluer computes them
        values = player.standard_values(config, snap, hands, position)
        assert sum(v == CLUE for v in values) <= snap.tokens
        for index, value in enumerate(values):
            if DISCARD <= value < CLUE:
                assert snap.tokens + position + index < T0
        if len(hands) < 2:
            continue
        victim = rng.randrange(len(hands))
        _, other_hands = _random_clue(rng, config)
        altered = [list(hand) for hand in hands]
        altered[victim] = other_hands[0]
        new_values = player.standard_values(config, snap, altered, position)
        assert new_values[victim + 1 :] == values[victim + 1 :]
        changed_later += new_values[:victim] != values[:victim]
    assert changed_later > 0  # later hands do steer earlier actions: the order matters


@pytest.mark.checks("H-last-to-first", "H-budget")
def test_standard_actions_never_depend_on_earlier_seats_and_keep_the_budgets() -> None:
    """[H-last-to-first, H-budget] Lemma 1."""
    check_lemma_1()


# ------------------------------------------------------------------ Lemma 3

TINY_GAMES = (
    ((1, 1, 1),),
    ((2, 1), (1, 1)),
)
"""Tiny decks (one suit of three values; two suits of two values) whose every state is
searched: every play, misplay, discard and clue, a completed suit, the last card drawn."""


def _public(state: GameState) -> Snapshot:
    return player.snapshot_of(make_view(state, state.current_player))


def check_after(compositions: Sequence[tuple[tuple[int, ...], ...]] = TINY_GAMES) -> int:
    """[H-predict] Lemma 3's last step: in every state of tiny games under the thesis' and
    hanab-live's options, ``after`` changes the public numbers exactly as the engine does
    for every legal action. Returns the actions compared."""
    compared = 0

    def visit(state: GameState) -> None:
        nonlocal compared
        if state.terminal:
            return
        hand = tuple(state.deck[card] for card in state.hands[state.current_player])
        before = _public(state)
        for action in legal_actions(state):
            predicted = player.after(state.config, before, hat_values.value_of_action(action), hand)
            assert predicted == _public(apply(state, action)), (state, action)
            compared += 1

    for composition in compositions:
        for preset in ("thesis", "hanab-live"):
            config = tiny_config(2, composition, 1, 1, 2, PRESET_OPTIONS[preset])
            explore(config, visit)
    return compared


@pytest.mark.checks("H-predict")
def test_after_counts_every_action_as_the_engine_does() -> None:
    """[H-predict] Lemma 3: plays, discards and clues change the public numbers exactly
    as H-predict counts them (every state of tiny games)."""
    assert check_after() > 1000


class PredictionCheck(HatPlayer):
    """The classic hat player, checking that the snapshot its ``predict`` gives when it
    clues is the snapshot every seat records at the first clued seat's turn [H-predict]."""

    def __init__(self, config: GameConfig, seat: int, log: DecodeLog, predicted: dict[int, Snapshot]) -> None:
        super().__init__(config, seat, log)
        self.predicted = predicted
        self.confirmed = 0

    def give_clue(self, view: PlayerView) -> Hint:
        if self.clueable(self.seat):
            self.predicted[view.turns] = self.predict(view)
        return super().give_clue(view)

    def observe(self, view: PlayerView, event: Event) -> None:
        super().observe(view, event)
        for clue in self.holding:
            if clue is not None and clue.snapshot is not None and clue.turn in self.predicted:
                assert self.predicted[clue.turn] == clue.snapshot, (clue.turn, self.predicted[clue.turn], clue.snapshot)
                self.confirmed += 1


GAME_SETUPS = [(p, "hanab-live", v) for p in (4, 5) for v in ("no-variant", "6-suits", "rainbow", "black")]


def check_games(games: int = 8) -> tuple[int, int]:
    """[H-predict, H-decode] real games: every prediction equals the recorded snapshot
    (Lemma 3) and every clued seat recovers the value its cluer encoded (the theorem).
    Returns the predictions confirmed and the values compared."""
    confirmed = compared = 0
    for players, preset, variant in GAME_SETUPS:
        config = make_config(players, preset=preset, variant=variant)
        for seed in range(games):
            log = DecodeLog(strict=True)
            predicted: dict[int, Snapshot] = {}
            seats: list[PredictionCheck] = []

            def factory(config: GameConfig, seat: int, seed: int) -> PredictionCheck:
                seats.append(PredictionCheck(config, seat, log, predicted))
                return seats[-1]

            play_game(config, factory, seed=seed)
            confirmed += sum(seat.confirmed for seat in seats)
            compared += sum(len(values) for values in log.decoded.values())
    return confirmed, compared


@pytest.mark.checks("H-predict", "H-decode")
@pytest.mark.parametrize("games", [4, pytest.param(8, marks=pytest.mark.deep)])
def test_predictions_and_decodes_in_real_games(games: int) -> None:
    """[H-predict, H-decode] Lemma 3 and the theorem on real games of eight
    configurations, ``games`` each (4 by default, 8 in the deep set)."""
    confirmed, compared = check_games(games)
    assert confirmed > 1000 and compared > 1000, (confirmed, compared)


# ------------------------------------------------------------------ the theorem


class SeenCards:
    """What ``HatPlayer.decode`` reads of a view: the identities of the hands it sees."""

    def __init__(self, cards: Sequence[Sequence[int | None]]) -> None:
        self.cards = tuple(tuple(hand) for hand in cards)


DECODE_IDENTITIES: tuple[Identity, ...] = tuple(as_identities((0, 5, 6, 10)))
"""Cards of the grid: with the fields of :data:`DECODE_FIELDS` each is playable, played
(useless), or neither; two of one in a hand give a duplicate, and one seat's playable card
held by another gives a card a later seat plays."""
DECODE_FIELDS = ((0, 0, 0, 0, 0), (1, 1, 0, 0, 0), (0, 1, 0, 0, 0))
DECODE_TOKENS = (0, 1, 2, 6, 8)
"""The token counts at which a budget or a rule of H-standard changes its answer: no
token, one or two for one or two clues, rule 2's six, all eight."""
DECODE_FIRSTS = (PLAY + 1, DISCARD + 2, CLUE)
"""First values of each kind (the first seat's value enters only the sum)."""


def check_decode(players: int, hand_size: int) -> int:
    """[H-decode] every clued seat's ``decode`` returns the value the cluer put in the
    sum, for every first value, every tuple of hands of ``hand_size`` cards from
    :data:`DECODE_IDENTITIES` for the seats after the first, every token count and a
    grid of fields and stack sizes. Returns the decodes compared."""
    config = make_config(players, preset="hanab-live")
    decoders = [HatPlayer(config, seat) for seat in range(players)]
    hands = list(itertools.product(DECODE_IDENTITIES, repeat=hand_size))
    clued = tuple(range(1, players))
    compared = 0
    for fields, tokens, stack in itertools.product(DECODE_FIELDS, DECODE_TOKENS, (0, 20)):
        snap = Snapshot(fields, (0,) * 25, tokens, stack, 0)
        for later in itertools.product(hands, repeat=len(clued) - 1):
            cards: list[Sequence[int | None]] = [(), hands[0], *later]
            values = player.standard_values(config, snap, list(later), 1)  # as give_clue computes them
            for first in DECODE_FIRSTS:
                compared += _check_each_decodes(decoders, snap, clued, cards, [first, *values])
    return compared


def _check_each_decodes(
    decoders: list[HatPlayer], snap: Snapshot, clued: tuple[int, ...], cards: list[Sequence[int | None]], vector: list[int],
) -> int:
    clue = Clue(0, 0, clued, hat_sum(vector, hat_values.MODULUS))
    clue.snapshot = snap
    for index, seat in enumerate(clued):
        seen = [hand if other != seat else (None,) * len(hand) for other, hand in enumerate(cards)]
        view = cast(PlayerView, SeenCards(seen))
        assert decoders[seat].decode(view, clue) == vector[index], (snap, cards, vector, seat)
        clue.observed[seat] = vector[index]  # j_i carries out its value (Lemma 2)
    return len(clued)


@pytest.mark.checks("H-decode", "H-last-to-first")
@pytest.mark.parametrize("players, hand_size", [(4, 2), pytest.param(4, 3, marks=pytest.mark.deep), pytest.param(5, 2, marks=pytest.mark.deep)])
def test_every_clued_seat_decodes_the_encoded_value(players: int, hand_size: int) -> None:
    """[H-decode, H-last-to-first] the theorem, exhaustively over small hands."""
    assert check_decode(players, hand_size) > 10000


# ------------------------------------------------------------------ planted bugs


def _standard_values_first_to_last(config: GameConfig, snap: Snapshot, hands: Sequence[Sequence[Identity]], position: int = 0) -> list[int]:
    values = []
    plays: frozenset[Identity] = frozenset()
    clues = 0
    for hand in hands:  # first to last: a seat's action reads the seats before it
        value = player.standard_action(config, snap, hand, plays, clues + 1 <= snap.tokens)
        values.append(value)
        if value < DISCARD:
            plays = plays | {hand[value % hat_values.SLOTS]}
        clues += value == CLUE
    return values


def _after_without_bonus(config: GameConfig, snap: Snapshot, value: int, hand: Sequence[Identity]) -> Snapshot:
    result = AFTER(config, snap, value, hand)
    return result._replace(tokens=min(result.tokens, snap.tokens)) if value < DISCARD else result


def _executable_discarding_at_t0(config: GameConfig, value: int, tokens: int, hand_size: int) -> bool:
    return value != CLUE and value % hat_values.SLOTS < hand_size or tokens >= 1


def _budget_blind_standard(config: GameConfig, snap: Snapshot, hands: Sequence[Sequence[Identity]], position: int = 0) -> list[int]:
    values: list[int] = []
    plays: frozenset[Identity] = frozenset()
    for hand in reversed(hands):  # no budget: every seat may clue and discard
        value = player.standard_action(config, snap, hand, plays)
        values.insert(0, value)
        if value < DISCARD:
            plays = plays | {hand[value % hat_values.SLOTS]}
    return values


AFTER = player.after
PLANTS: dict[str, tuple[str, object, Callable[[], object]]] = {
    "lemma 1: no budget": ("standard_values", _budget_blind_standard, lambda: check_lemma_1(600)),
    "lemma 2: discards at t0": ("is_executable", _executable_discarding_at_t0, lambda: check_lemma_2(4)),
    "lemma 3: a five adds no token": ("after", _after_without_bonus, check_after),
    "theorem: first to last": ("standard_values", _standard_values_first_to_last, lambda: check_decode(4, 2)),
}


@pytest.mark.parametrize("plant", sorted(PLANTS))
def test_planted_bugs_are_caught(plant: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each lemma's check fails when the function it checks is broken as named."""
    name, broken, check = PLANTS[plant]
    monkeypatch.setattr(player, name, broken)
    with pytest.raises(AssertionError):
        check()
