"""Machine check of Part 2 of proofs/hat_decoding.md [H-reclue-pins, H-reclue-infer,
H-reclue-endgame, H-reclue-decode].

Each lemma is checked by calling the functions of
:mod:`~hanabi_ref.players.strategies.hat.reclue_rules` that carry it out, on clues built by hand
(a :class:`Round` over hands the check chooses, with the earlier clues that pin seats),
exhaustively over small hands:

* Lemma 4 (turn order): ``pins_of`` over every pattern of earlier clues a seat can hold
  (a play, a discard or clue, modified or not, one or two of them), against the pins and
  the modified seat the lemma names; and in real games, every seat that moves between a
  clue and its modified seat's turn is pinned in it and plays.
* Lemma 5 (the inference is exact): ``inferred_value`` on every first action a free seat
  can take after a clue (its value if that is a play; otherwise a discard, a clue, or any
  value a later clue's ``standard_action`` or ``choose_modified`` can give it), for every
  hand of a grid,
  every set of cards the later seats play and every pin.
* Lemma 6 (the gamble is read right): whenever ``is_gamble_readable`` allows a gamble,
  ``inferred_value`` reads every card the gambled slot may hold as the seat's value.
* Theorem 2: ``resolved_values`` by every clued seat, with the seats before it having acted,
  gives every seat the value the cluer put in the sum.

``test_planted_bugs_are_caught`` plants a bug in each function and expects its check to
fail.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator, Sequence
from typing import cast

import pytest

from hanabi_ref.players.strategies.adapt import ForeignMove
from hanabi_ref.engine.actions import Hint, Play
from hanabi_ref.players.runner import play_game
from hanabi_ref.engine.config import GameConfig
from hanabi_ref.engine.configs import make_config
from hanabi_ref.engine.state import Event
from hanabi_ref.players.strategies.knowledge import composition_counts
from hanabi_ref.players.strategies.hat.core import hat_sum
from hanabi_ref.players.strategies.hat.player import DecodeLog, Snapshot
from hanabi_ref.players.strategies.hat import reclue_rules as rules
from hanabi_ref.players.strategies.hat.reclue import ReclueHatPlayer
from hanabi_ref.players.strategies.hat.reclue_rules import Pins, Round, card_facts
from hanabi_ref.players.strategies.hat.values import HAT_VALUES, MODULUS, HatValue
from hanabi_ref.engine.view import PlayerView

CONFIG = make_config(4, preset="hanab-live")
N = CONFIG.values
FACTS = card_facts(CONFIG)
NO_DISCARDS = (0,) * 25
ALL_SENDABLE = (1 << MODULUS) - 1


class SeenCards:
    """What a :class:`Round` reads of a view: the hands a seat sees (its own unknown)."""

    def __init__(self, cards: Sequence[Sequence[int | None]]) -> None:
        self.cards = tuple(tuple(hand) for hand in cards)


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
    the clued seats, ``pins_of`` pins exactly the seats holding a play (the first one),
    makes the first free seat the modified one, and refuses a pattern in which a seat
    still holds an earlier clue's modified non-play (the lemma says an honest team makes
    none, so its reading raises ForeignMove)."""
    config = make_config(players, preset="hanab-live")
    facts = card_facts(config)
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
            pins = rules.pins_of(facts, clue)
        except ForeignMove:  # [S-foreign-detect] the refusal
            assert refused, pattern
            continue
        assert not refused, pattern
        pinned = [seat for seat, held in zip(order, pattern) if "play" in held]
        assert sorted(pins.pins) == pinned and all(pins.pins[seat] == HatValue.play(0) for seat in pinned), pattern
        free = [seat for seat in order if seat not in pinned]
        assert pins.modified == (free[0] if free else None), pattern
        if pins.modified is not None:  # the seats acting before the modified one are pinned: they play first
            assert all(seat in pins.pins for seat in order[: order.index(pins.modified)]), pattern
        cases += 1
    return cases


@pytest.mark.checks("H-reclue-pins")
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


@pytest.mark.checks("H-reclue-pins")
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
    later seats play, ``inferred_value`` reads q's value in the clue from every first action q can
    take. Returns the inferences checked."""
    checked = 0
    for fields, pinned, card in pin_scenarios():
        for discarded in (NO_DISCARDS, tuple(1 if identity == 2 else 0 for identity in range(25))):
            clue = build_clue(fields, pinned, card, {}, discarded)
            clue.set_pins(rules.pins_of(FACTS, clue))
            for q in clue.order:
                if q in clue.pins or q == clue.modified:
                    continue
                for hand in itertools.product(IDENTITIES, repeat=hand_size):
                    checked += _check_hand(clue, q, hand)
    return checked


def _check_hand(clue: Round, q: int, hand: tuple[int, ...]) -> int:
    wanted = [card for slot, card in enumerate(hand) if slot in rules.wanted_slots(FACTS, clue, q, hand)]
    checked = 0
    for later_plays in subsets(wanted):
        value = rules.standard_action(FACTS, clue, q, hand, later_plays)
        for action in first_actions(clue, q, hand, value):
            clue.acted[q] = (action, hand)
            assert rules.inferred_value(FACTS, clue, q) == value, (clue.progress, q, hand, later_plays, value, action)
            checked += 1
        del clue.acted[q]
    return checked


def first_actions(clue: Round, q: int, hand: tuple[int, ...], value: HatValue) -> Iterator[HatValue]:
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
    later.set_pins(rules.pins_of(FACTS, later))
    assert later.modified == q
    wanted = [hand[slot] for slot in rules.wanted_slots(FACTS, later, q, hand)]
    for later_plays in subsets(wanted):
        yield rules.standard_action(FACTS, later, q, hand, later_plays)
    for preferred in HAT_VALUES:
        if preferred.is_play and preferred.slot >= len(hand):
            continue
        yield rules.choose_modified(FACTS, later, {}, preferred, 4, ALL_SENDABLE)
    clue.values = None


@pytest.mark.checks("H-reclue-infer")
def test_the_inference_from_a_free_seats_action_is_exact() -> None:
    """[H-reclue-infer, H-reclue-standard] Lemma 5, every hand of 3 cards of the grid."""
    assert check_inference(3) > 10000


@pytest.mark.checks("H-reclue-infer")
@pytest.mark.deep
def test_the_inference_from_a_free_seats_action_is_exact_with_full_hands() -> None:
    """[H-reclue-infer, H-reclue-standard] Lemma 5, every hand of 4 cards of the grid."""
    assert check_inference(4) > 100000


# ------------------------------------------------------------------ Lemma 6

FILLERS = {1: (14, 13, 12), 2: (19, 18, 17), 3: (24, 23, 22)}
"""Each seat's other cards: high cards of suits 2 to 4, which no clue of the grid wants
(their fields stay at 0), one copy of each in all."""


def check_gamble(players: int = 4) -> tuple[int, int]:
    """[H-reclue-endgame] Lemma 6: a free seat q other than the modified one, without a
    play in the clue, holding x in its oldest slot, with any knowledge of that slot that
    allows x: when ``is_gamble_readable`` lets it play the slot, ``inferred_value`` reads
    the play as q's value. Returns the gambles allowed and the misreads the rule prevented."""
    allowed = prevented = 0
    for fields, q, x, c, m_value, discarded in itertools.product(
            FIELDS, (2, 3), IDENTITIES, IDENTITIES, (HatValue.play(0), HatValue.CLUE), (NO_DISCARDS, _one_discarded(1))):
        other = 5 - q  # the other free seat: 2 or 3
        hands: dict[int, Sequence[int | None]] = {1: (c, *FILLERS[1]), other: (c, *FILLERS[other]), q: (x, *FILLERS[q])}
        if not is_dealable(hands, fields, discarded):
            continue
        clue = build_clue(fields, None, None, hands, discarded)
        clue.set_pins(rules.pins_of(FACTS, clue))
        values = {1: m_value, **rules.standard_values(FACTS, clue, [2, 3])}
        if values[q].is_play:
            continue  # q holds a play: it plays, it does not gamble
        clue.values = values
        clue.acted[q] = (HatValue.play(0), tuple(hands[q]))
        misread = rules.inferred_value(FACTS, clue, q) != values[q]
        seen = [card for seat in clue.order if seat != q for card in clue.hand(seat)]
        for mask in _masks_with(x):  # q's knowledge of the gambled slot
            if rules.is_gamble_readable(FACTS, [clue], q, mask, fields, seen, discarded):
                assert not misread, (fields, q, x, c, m_value, bin(mask))
                allowed += 1
            else:
                prevented += misread
    return allowed, prevented


def is_dealable(hands: dict[int, Sequence[int | None]], fields: Sequence[int], discarded: Sequence[int]) -> bool:
    """No identity has more copies in the hands, on the fields and in the discard pile
    than the deck holds (the grid of Lemma 6 counts copies, so it needs real deals)."""
    composition = composition_counts(CONFIG)
    used = list(discarded)
    for hand in hands.values():
        for card in hand:
            assert card is not None
            used[card] += 1
    for suit, height in enumerate(fields):
        for rank in range(height):
            used[suit * N + rank] += 1
    return all(count <= limit for count, limit in zip(used, composition))


def _one_discarded(identity: int) -> tuple[int, ...]:
    return tuple(1 if card == identity else 0 for card in range(25))


def _masks_with(card: int) -> Iterator[int]:
    """Every knowledge of a slot over :data:`IDENTITIES` that allows ``card``."""
    others = [identity for identity in IDENTITIES if identity != card]
    for size in range(len(others) + 1):
        for chosen in itertools.combinations(others, size):
            yield sum(1 << identity for identity in (card, *chosen))


def test_a_readable_gamble_is_read_right() -> None:
    """[H-reclue-endgame] Lemma 6 over every card, knowledge and play of the grid."""
    allowed, prevented = check_gamble()
    assert allowed > 1000 and prevented > 0, (allowed, prevented)


# ------------------------------------------------------------------ Theorem 2


def check_resolve(hand_size: int = 2) -> int:
    """[H-reclue-decode] Theorem 2: for every pin scenario, every hand of the free seats
    other than the modified one (``hand_size`` cards of :data:`IDENTITIES`) and a value
    of each kind for the modified seat, every clued seat resolves, at its turn (the
    seats before it having acted), the values the cluer put in the sum. Returns the
    resolutions checked."""
    checked = 0
    for fields, pinned, card in pin_scenarios():
        shape = build_clue(fields, pinned, card, {})
        shape.set_pins(rules.pins_of(FACTS, shape))
        free = [seat for seat in shape.order if seat not in shape.pins and seat != shape.modified]
        for chosen in itertools.product(itertools.product(IDENTITIES, repeat=hand_size), repeat=len(free)):
            hands: dict[int, Sequence[int | None]] = dict(zip(free, chosen))
            clue = build_clue(fields, pinned, card, hands)
            clue.set_pins(rules.pins_of(FACTS, clue))
            values = dict(clue.pins)
            values.update(rules.standard_values(FACTS, clue, free))
            for m_value in (HatValue.play(1), HatValue.discard(2), HatValue.CLUE):
                if clue.modified is not None:
                    values[clue.modified] = m_value
                checked += _check_every_seat_resolves(fields, pinned, card, hands, clue, values)
    return checked


def _check_every_seat_resolves(fields: tuple[int, ...], pinned: int | None, card: int | None,
                               hands: dict[int, Sequence[int | None]], given: Round, values: dict[int, HatValue]) -> int:
    number = hat_sum([values[seat] for seat in given.order], MODULUS)
    for index, seat in enumerate(given.order):
        unseen = dict(hands)
        unseen[seat] = (None,) * len(given.hand(seat))
        clue = build_clue(fields, pinned, card, unseen)
        clue.number = number
        for earlier in given.order[:index]:
            clue.acted[earlier] = (values[earlier], given.hand(earlier))
        if seat in given.pins:  # it played its pin first: the others are resolved once the card is shown
            clue.acted[seat] = (values[seat], given.hand(seat))
        clue.set_pins(rules.pins_of(FACTS, clue))
        resolved = rules.resolved_values(FACTS, clue, seat)
        assert resolved == values, (fields, pinned, hands, seat, resolved, values)
    return len(given.order)


@pytest.mark.checks("H-reclue-decode")
def test_every_clued_seat_resolves_every_value() -> None:
    """[H-reclue-decode] Theorem 2 over every hand of 2 cards of the grid."""
    assert check_resolve(2) > 10000


@pytest.mark.checks("H-reclue-decode")
@pytest.mark.deep
def test_every_clued_seat_resolves_every_value_with_larger_hands() -> None:
    """[H-reclue-decode] Theorem 2 over every hand of 3 cards of the grid."""
    assert check_resolve(3) > 100000


# ------------------------------------------------------------------ planted bugs


def _pins_modifying_the_last_free_seat(facts: rules.CardFacts, clue: Round) -> Pins:
    pins = ORIGINAL_PINS_OF(facts, clue)
    free = [seat for seat in clue.order if seat not in pins.pins]
    return pins._replace(modified=free[-1] if free else None)


def _standard_values_first_to_last(facts: rules.CardFacts, clue: Round, seats: Sequence[int]) -> dict[int, HatValue]:
    values: dict[int, HatValue] = {}
    dont_play: set[int] = set()
    for seat in seats:  # first to last: a seat's value reads the seats before it
        hand = clue.hand(seat)
        value = rules.standard_action(facts, clue, seat, hand, dont_play)
        values[seat] = value
        if value.is_play:
            played = hand[value.slot]
            assert played is not None
            dont_play.add(played)
    return values


ORIGINAL_PINS_OF = rules.pins_of
PLANTS: dict[str, tuple[str, Callable[..., object], Callable[[], object]]] = {
    "lemma 4: the last free seat modified": ("pins_of", _pins_modifying_the_last_free_seat, check_prepare),
    "lemma 5: no card excluded": ("excluded_cards", lambda facts, clue, seat, hand: set(), check_inference),
    "lemma 6: every gamble readable": ("is_gamble_readable", lambda facts, held, seat, possible, fields, seen, discarded: True, check_gamble),
    "theorem 2: first to last": ("standard_values", _standard_values_first_to_last, check_resolve),
}


@pytest.mark.parametrize("plant", sorted(PLANTS))
def test_planted_bugs_are_caught(plant: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each lemma's check fails when the function it checks is broken as named."""
    name, broken, check = PLANTS[plant]
    monkeypatch.setattr(rules, name, broken)
    with pytest.raises(AssertionError):
        check()
