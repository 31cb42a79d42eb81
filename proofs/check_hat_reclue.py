"""Machine check of Part 2 of proofs/hat_decoding.md [H-reclue-pins, H-reclue-infer,
H-reclue-endgame, H-reclue-decode].

Each lemma is checked by calling the methods of :class:`ReclueHatPlayer` that carry it
out, on clues built by hand (a :class:`Round` over hands the check chooses, with the
earlier clues that pin seats), exhaustively over small hands:

* Lemma 4 (turn order): ``prepare`` over every pattern of earlier clues a seat can hold
  (a play, a discard or clue, modified or not, one or two of them), against the pins and
  the modified seat the lemma names; and in real games, every seat that moves between a
  clue and its modified seat's turn is pinned in it and plays.
* Lemma 5 (the inference is exact): ``infer`` on every first action a free seat can take
  after a clue (its value if that is a play; otherwise a discard, a clue, or any value a
  later clue's ``standard`` or ``choose_modified`` can give it), for every hand of a grid,
  every set of cards the later seats play and every pin.
* Lemma 6 (the gamble is read right): whenever ``gamble_is_readable`` allows a gamble,
  ``infer`` reads every card the gambled slot may hold as the seat's value.
* Theorem 2: ``resolve`` by every clued seat, with the seats before it having acted,
  gives every seat the value the cluer put in the sum.

``test_planted_bugs_are_caught`` plants a bug in each method and expects its check to
fail.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator, Sequence
from typing import cast

import pytest

from hanabi_ref.actions import Hint, Play
from hanabi_ref.game import play_game
from hanabi_ref.rules import GameConfig, make_config
from hanabi_ref.state import Event
from hanabi_ref.strategies.hat import reclue
from hanabi_ref.strategies.hat.core import hat_sum
from hanabi_ref.strategies.hat.player import MODULUS, DecodeLog, Snapshot
from hanabi_ref.strategies.hat.reclue import HAT_VALUES, HatValue, ReclueHatPlayer, Round
from hanabi_ref.view import PlayerView

CONFIG = make_config(4, preset="hanab-live")
N = CONFIG.values
NO_DISCARDS = (0,) * 25
ALL_SENDABLE = (1 << MODULUS) - 1


class SeenCards:
    """What a :class:`Round` and the gamble read of a view: the hands a seat sees (its own
    unknown), its knowledge of its own slots and the fields."""

    def __init__(self, cards: Sequence[Sequence[int | None]], knowledge: Sequence[int] = (), fields: Sequence[int] = ()) -> None:
        self.cards = tuple(tuple(hand) for hand in cards)
        self.own_knowledge = tuple(knowledge)
        self.fields = tuple(fields)


def as_view(seen: SeenCards) -> PlayerView:
    return cast(PlayerView, seen)


def earlier_clue(seat: int, value: HatValue, modified: int | None) -> Round:
    """A resolved earlier clue that gave ``seat`` ``value`` (its modified seat ``modified``)."""
    clue = Round(0, (seat + 1) % CONFIG.players, (), 0, as_view(SeenCards([()] * CONFIG.players)), {}, Snapshot((0,) * 5, NO_DISCARDS, 0, 0, 0))
    clue.values = {seat: value}
    clue.modified = modified
    return clue


def make_clue(cluer: int, cards: Sequence[Sequence[int | None]], prior: dict[int, list[Round]], fields: tuple[int, ...],
              discarded: tuple[int, ...] = NO_DISCARDS, turn: int = 10) -> Round:
    order = tuple((cluer + offset) % CONFIG.players for offset in range(1, CONFIG.players))
    prior = {seat: prior.get(seat, []) for seat in order}
    return Round(turn, cluer, order, 0, as_view(SeenCards(cards)), prior, Snapshot(fields, discarded, 4, 20, 0))


# ------------------------------------------------------------------ Lemma 4


def check_prepare(players: int = 4) -> int:
    """[H-reclue-pins] Lemma 4's bookkeeping: for every pattern of earlier clues held by
    the clued seats, ``prepare`` pins exactly the seats holding a play (the first one),
    makes the first free seat the modified one, and refuses a pattern in which a seat
    still holds an earlier clue's modified non-play (the lemma says none occurs)."""
    config = make_config(players, preset="hanab-live")
    resolver = ReclueHatPlayer(config, 0)
    order = tuple(range(1, players))
    kinds = [(), ("play",), ("other",), ("modified other",), ("other", "play"), ("play", "other")]
    cases = 0
    for pattern in itertools.product(kinds, repeat=len(order)):
        prior = {seat: [earlier_clue(seat, HatValue.play(0) if kind == "play" else HatValue.CLUE, seat if kind == "modified other" else None)
                        for kind in held] for seat, held in zip(order, pattern)}
        hands = [(seat * 5,) * 4 if seat else () for seat in range(players)]  # a distinct one of each suit per seat
        clue = Round(10, 0, order, 0, as_view(SeenCards(hands)), prior, Snapshot((0,) * 5, NO_DISCARDS, 4, 20, 0))
        refused = any("modified other" in held and "play" not in held[: held.index("modified other")] for held in pattern)
        try:
            resolver.prepare(clue)
        except AssertionError:
            assert refused, pattern
            continue
        assert not refused, pattern
        pinned = [seat for seat, held in zip(order, pattern) if "play" in held]
        assert sorted(clue.pins) == pinned and all(clue.pins[seat] == HatValue.play(0) for seat in pinned), pattern
        free = [seat for seat in order if seat not in pinned]
        assert clue.modified == (free[0] if free else None), pattern
        if clue.modified is not None:  # the seats acting before the modified one are pinned: they play first
            assert all(seat in clue.pins for seat in order[: order.index(clue.modified)]), pattern
        cases += 1
    return cases


def test_prepare_pins_the_playing_seats_and_modifies_the_first_free_one() -> None:
    """[H-reclue-pins] Lemma 4, every pattern of held clues for 4 and 5 players."""
    assert check_prepare(4) > 100 and check_prepare(5) > 500


class TurnOrderCheck(ReclueHatPlayer):
    """The hat player with re-cluing, checking Lemma 4 in a real game: after each clue it
    gives, every seat that moves before the clue's modified seat is pinned and plays."""

    def __init__(self, config: GameConfig, seat: int, log: DecodeLog, watch: dict[str, object]) -> None:
        super().__init__(config, seat, log)
        self.watch = watch

    def give_clue(self, view: PlayerView) -> Hint:
        previous = self.watch.get("clue")
        if isinstance(previous, Round) and previous.modified not in (None, self.seat):  # m itself may clue
            raise AssertionError(f"seat {self.seat} clues before the modified seat of the clue of turn {previous.turn} moved")
        hint = super().give_clue(view)
        clue = self.outgoing
        assert clue is not None
        self.watch["clue"] = clue
        return hint

    def observe(self, view: PlayerView, event: Event) -> None:
        clue = self.watch.get("clue")
        if self.seat == 0 and isinstance(clue, Round) and event.turn > clue.turn and clue.modified is not None:
            if event.player == clue.modified:
                self.watch["clue"] = None
                self.watch["checked"] = cast(int, self.watch.get("checked", 0)) + 1
            else:
                assert event.player in clue.pins and isinstance(event.action, Play), (clue.turn, event)
                self.watch["moves"] = cast(int, self.watch.get("moves", 0)) + 1
        super().observe(view, event)


def check_turn_order(games: int = 6) -> tuple[int, int]:
    """[H-reclue-pins] Lemma 4 on real games: returns the clues followed to their modified
    seat's turn and the pinned moves seen on the way."""
    checked = moves = 0
    for players, variant in itertools.product((4, 5), ("no-variant", "rainbow")):
        config = make_config(players, preset="hanab-live", variant=variant)
        for seed in range(games):
            log = DecodeLog(strict=True)
            watch: dict[str, object] = {}
            play_game(config, lambda config, seat, seed: TurnOrderCheck(config, seat, log, watch), seed=seed)
            checked += cast(int, watch.get("checked", 0))
            moves += cast(int, watch.get("moves", 0))
    return checked, moves


def test_only_pinned_seats_move_before_the_modified_seat() -> None:
    """[H-reclue-pins] Lemma 4 in real games."""
    checked, moves = check_turn_order()
    assert checked > 200 and moves > 50, (checked, moves)


# ------------------------------------------------------------------ the grid of clues

IDENTITIES = (0, 1, 2, 5, 6)
"""Cards of suits 0 and 1, ranks 1 to 3 (0-based 0 to 2)."""
FIELDS = ((0, 0, 0, 0, 0), (1, 0, 0, 0, 0), (1, 1, 0, 0, 0), (2, 0, 0, 0, 0))
PIN_CARDS = (0, 1)
"""A pinned seat plays the card next on suit 0 (rank 1 or 2, by the fields)."""


def pin_scenarios() -> Iterator[tuple[tuple[int, ...], int | None, int | None]]:
    """(fields, pinned seat, pinned card) for a clue by seat 0 over seats 1, 2, 3: no pin,
    a pin on seat 1 (before the free seats) or on seat 3 (after seat 2)."""
    for fields in FIELDS:
        yield fields, None, None
        for seat in (1, 3):
            yield fields, seat, fields[0]  # the card next on suit 0


def build_clue(fields: tuple[int, ...], pinned: int | None, card: int | None, hands: dict[int, Sequence[int | None]],
               discarded: tuple[int, ...] = NO_DISCARDS) -> Round:
    cards: list[Sequence[int | None]] = [hands.get(seat, (24, 23, 22, 21)) for seat in range(CONFIG.players)]
    prior: dict[int, list[Round]] = {}
    if pinned is not None and card is not None:
        cards[pinned] = (card, 24, 23, 22)
        prior[pinned] = [earlier_clue(pinned, HatValue.play(0), None)]
    return make_clue(0, cards, prior, fields, discarded)


def subsets(cards: Sequence[int]) -> Iterator[set[int]]:
    distinct = sorted(set(cards))
    for size in range(len(distinct) + 1):
        for chosen in itertools.combinations(distinct, size):
            yield set(chosen)


# ------------------------------------------------------------------ Lemma 5


def check_inference(hand_size: int = 3) -> int:
    """[H-reclue-infer] Lemma 5: for every pin scenario, every free seat q other than the
    modified one, every hand of q over :data:`IDENTITIES` and every set of cards the
    later seats play, ``infer`` reads q's value in the clue from every first action q can
    take. Returns the inferences checked."""
    resolver = ReclueHatPlayer(CONFIG, 0)
    checked = 0
    for fields, pinned, card in pin_scenarios():
        for discarded in (NO_DISCARDS, tuple(1 if identity == 2 else 0 for identity in range(25))):
            clue = build_clue(fields, pinned, card, {}, discarded)
            resolver.prepare(clue)
            for q in clue.order:
                if q in clue.pins or q == clue.modified:
                    continue
                for hand in itertools.product(IDENTITIES, repeat=hand_size):
                    checked += _check_hand(resolver, clue, q, hand)
    return checked


def _check_hand(resolver: ReclueHatPlayer, clue: Round, q: int, hand: tuple[int, ...]) -> int:
    wanted = [card for slot, card in enumerate(hand) if slot in resolver.wanted(clue, q, hand)]
    checked = 0
    for later_plays in subsets(wanted):
        value = resolver.standard(clue, q, hand, later_plays)
        for action in first_actions(resolver, clue, q, hand, value):
            clue.acted[q] = (action, hand)
            assert resolver.infer(clue, q) == value, (clue.progress, q, hand, later_plays, value, action)
            checked += 1
        del clue.acted[q]
    return checked


def first_actions(resolver: ReclueHatPlayer, clue: Round, q: int, hand: tuple[int, ...], value: HatValue) -> Iterator[HatValue]:
    """What q may do first after the clue [H-reclue-turn]: its value if it plays; else a
    discard or a clue (H-reclue-discard), or a play that a later clue gives it, as its
    standard action or as its modified one (the later clue is by the seat before q, so q
    is its first free seat)."""
    if value.is_play:
        yield value
        return
    yield HatValue.CLUE
    yield from (HatValue.discard(slot) for slot in range(len(hand)))
    clue.values = {seat: value if seat == q else HatValue.CLUE for seat in clue.order}
    cards = [tuple(clue.hand(seat)) for seat in range(CONFIG.players)]
    cards[q] = hand
    later = make_clue((q - 1) % CONFIG.players, cards, {q: [clue]}, clue.fields, clue.discarded, turn=clue.turn + 1)
    resolver.prepare(later)
    assert later.modified == q
    wanted = [hand[slot] for slot in resolver.wanted(later, q, hand)]
    for later_plays in subsets(wanted):
        yield resolver.standard(later, q, hand, later_plays)
    for preferred in HAT_VALUES:
        if preferred.is_play and preferred.slot >= len(hand):
            continue
        yield resolver.choose_modified(later, {}, preferred, 4, ALL_SENDABLE)
    clue.values = None


def test_the_inference_from_a_free_seats_action_is_exact() -> None:
    """[H-reclue-infer, H-reclue-standard] Lemma 5, every hand of 3 cards of the grid."""
    assert check_inference(3) > 10000


@pytest.mark.deep
def test_the_inference_from_a_free_seats_action_is_exact_with_full_hands() -> None:
    """[H-reclue-infer, H-reclue-standard] Lemma 5, every hand of 4 cards of the grid."""
    assert check_inference(4) > 100000
