"""The decisions of the information strategy's turn [I-turn, I-weights, I-hint-map,
I-hint-choice, I-options, I-endgame, I-risky, I-hint-above, I-discard-weight,
I-critical-hint].

A turn is read once into a :class:`Turn` record (what the seat knows at its start); each
step of I-turn is a function of that record and the seat's public knowledge, which it
reads and never changes.  A move that carries numbers (a hint, the discard of
I-useless-hat) comes back with the numbers it encodes for the other seats, which the
seat may log (I-decode-check).
"""

from __future__ import annotations

import functools
from collections.abc import Collection, Sequence
from fractions import Fraction
from typing import NamedTuple

from hanabi_ref.engine.actions import Action, Discard, Hint, Play
from hanabi_ref.engine.config import GameConfig
from hanabi_ref.players.strategies.adapt import ForeignMove
from hanabi_ref.players.strategies.info.codes import goodness, hint_type, hints_of_type
from hanabi_ref.players.strategies.info.knowledge import Board, Moment, PublicKnowledge, Weights, identities, ratio
from hanabi_ref.players.strategies.info.questions import encode
from hanabi_ref.players.strategies.info.reading import (Code, InfoError, code_total, codes_of, needs_a_hint, nobody_needed_a_hint,
                                                public_sets, seats_after, seen_hand, useless)
from hanabi_ref.engine.view import PlayerView
from hanabi_ref.engine.tables import tables_for

RISKY = Fraction(3, 4)
"""[I-turn] (step 2) a card surely playable or dead is played when more likely playable than this."""
HELD_SCALE = 60
"""[I-turn] (step 1) a multiple of every 1 + (seats holding a copy) up to 5 players, so
that the play score's terms are integers."""

Numbers = dict[int, int]
"""The number a move encodes for each other seat, by seat [I-decode-check]."""


class Options(NamedTuple):
    """The strategy's options [I-options]; the defaults play the source's games."""

    endgame: int = 0
    """[I-endgame] once the stack is empty, play the card most likely playable (1), unless a
    hint may tell a seat still to act that it holds a playable card (2)."""
    dispensable_weight: int = 10
    """[I-discard-weight] the weight of P(dispensable) in the discard score."""
    critical_hint: Fraction = Fraction(1)
    """[I-critical-hint] hint rather than discard a card more likely critical than this."""
    risky: Fraction = RISKY
    """[I-risky] the playable probability a risky play must exceed."""
    hint_above: int = -1
    """[I-hint-above] hint when more tokens than this are left (-1: half the maximum)."""
    search: int = 0
    """[I-search] the worlds on which moves are compared near the end (0: no search)."""
    search_stack: int = 6
    """[I-search] the search runs while the stack holds at most this many cards."""


class Turn(NamedTuple):
    """What a seat knows at the start of its turn [I-turn]: the moment, its private weights
    [I-weights], the public sets of its cards [I-public] and their private sets (the
    public sets less the identities of which it sees every copy).  A named tuple, as
    :class:`Moment` is: immutable, and read by field index in the compiled build."""

    config: GameConfig
    seat: int
    options: Options
    moment: Moment
    weights: Weights
    public: tuple[int, ...]
    own: tuple[int, ...]
    stack_size: int
    errors: int
    discarded: int
    remaining: int | None


def private_weights(board: Board, cards: Sequence[Sequence[int | None]], seat: int) -> Weights:
    """[I-weights] public weights less the copies ``seat`` sees in other hands."""
    weights = list(board.weights.counts)
    for other, hand in enumerate(cards):
        if other != seat:
            for card in hand:
                if card is not None and weights[card] > 0:
                    weights[card] -= 1
    return Weights(weights)


def turn_of(view: PlayerView, board: Board, public: PublicKnowledge, options: Options) -> Turn:
    """The turn of ``view`` (whose board is ``board``) for a seat with ``public`` knowledge."""
    moment = Moment.of(view, board)
    weights = private_weights(board, view.cards, view.seat)
    sets = tuple(public_sets(public, moment, view.seat))
    return Turn(view.config, view.seat, options, moment, weights, sets,
                tuple(mask & weights.positive for mask in sets), view.deck_size, view.strikes, len(view.discard),
                view.remaining)


def decide(turn: Turn, public: PublicKnowledge) -> tuple[Action, Numbers | None]:
    """[I-turn] the move of the strategy without the search, and the numbers it encodes."""
    config, options = turn.config, turn.options
    play = sure_play(turn)
    if play is not None:
        return play, None
    may_err = config.max_errors is None or config.max_errors - turn.errors > 1
    if may_err and options.endgame and turn.stack_size == 0 and not hint_helps_later(turn, public):
        gamble = endgame_play(turn)
        if gamble is not None:
            return gamble, None
    slack_left = turn.discarded <= slack(config)
    if may_err and slack_left:
        risky = risky_play(turn)
        if risky is not None:
            return risky, None
    if wants_to_hint(turn, public, slack_left):
        return hint_of(turn, public)
    return discard_of(turn, public)


def slack(config: GameConfig) -> int:
    """D of steps 2 and 3 of I-turn: the discards the source allows before caring."""
    tables = tables_for(config)
    return tables.deck_size - tables.max_score - config.players * config.hand_size


def sure_play(turn: Turn) -> Play | None:
    """[I-turn] (step 1) the card known playable that matters most."""
    board, weights = turn.moment.board, turn.weights
    playable = board.playable
    sure = [slot for slot, mask in enumerate(turn.own) if board.surely(mask, playable, weights)]
    if not sure:  # most turns: nothing to weigh, so the other hands are not counted
        return None
    held: dict[int, int] = {}
    if turn.stack_size > 0:
        for seat, cards in enumerate(turn.moment.cards):
            if seat != turn.seat:
                for card in set(cards):
                    if card is not None:
                        held[card] = held.get(card, 0) + 1
    best: tuple[float, int] | None = None
    rank_of = tables_for(turn.config).rank_of
    for slot in sure:
        mask = turn.own[slot]
        total = board.weight(mask, weights)
        score = ratio(sum(weights[card] * (10 - (rank_of[card] + 1)) * (HELD_SCALE // (1 + held.get(card, 0)))
                          for card in identities(mask)), HELD_SCALE * total)
        if best is None or score > best[0]:
            best = (score, slot)
    return None if best is None else Play(best[1])


def risky_play(turn: Turn) -> Play | None:
    """[I-turn] (step 2) a card surely playable or dead, if likely enough playable (the
    bound is the option of I-risky)."""
    board, weights = turn.moment.board, turn.weights
    best: tuple[float, int, int, int] | None = None
    for slot, mask in enumerate(turn.own):
        if not board.surely(mask, board.playable | board.dead, weights):
            continue
        on_play, whole = weights.total(mask & board.playable), weights.total(mask)
        chance = ratio(on_play, whole)
        if best is None or chance > best[0]:
            best = (chance, on_play, whole, slot)
    risky = turn.options.risky
    if best is None or best[1] * risky.denominator <= risky.numerator * best[2]:
        return None
    return Play(best[3])


def hint_helps_later(turn: Turn, public: PublicKnowledge) -> bool:
    """[I-endgame] (option 2) a token is left and a seat that still has a turn holds a
    playable card that it does not know playable by public knowledge."""
    if turn.options.endgame < 2 or turn.moment.hints == 0 or turn.remaining is None:
        return False
    return any(needs_a_hint(public, turn.moment, seat)
               for seat in seats_after(turn.config.players, turn.seat)[: turn.remaining - 1])


def endgame_play(turn: Turn) -> Play | None:
    """[I-endgame] *(ours)* with the stack empty, every seat has at most one turn left:
    the card most likely playable (the oldest on ties), if it may be playable at all."""
    board, weights = turn.moment.board, turn.weights
    best: tuple[float, int] | None = None
    for slot, mask in enumerate(turn.own):
        whole = weights.total(mask)
        chance = ratio(weights.total(mask & board.playable), whole) if whole else 0.0
        if best is None or chance > best[0]:
            best = (chance, slot)
    return Play(best[1]) if best is not None and best[0] > 0 else None


def someone_needs_a_hint(turn: Turn, public: PublicKnowledge) -> bool:
    """[I-turn] (step 3) another seat holds a playable card it does not know playable."""
    return any(needs_a_hint(public, turn.moment, seat) for seat in seats_after(turn.config.players, turn.seat))


def wants_to_hint(turn: Turn, public: PublicKnowledge, slack_left: bool) -> bool:
    """[I-turn] (step 3) whether to hint (the last rule's bound is the option of I-hint-above)."""
    moment, config = turn.moment, turn.config
    tokens = moment.hints
    if tokens == 0:
        return False
    if tokens == config.max_hints or someone_needs_a_hint(turn, public):
        return True
    if slack_left and useless(turn.own, moment.board, turn.weights):
        return False
    playable = moment.board.playable
    if any(playable >> card & 1 for seat in seats_after(config.players, turn.seat) for card in moment.cards[seat]
           if card is not None):
        return True
    above = turn.options.hint_above
    return tokens > (config.max_hints // 2 if above < 0 else above)


def hint_of(turn: Turn, public: PublicKnowledge) -> tuple[Hint, Numbers]:
    """[I-hint-map, I-hint-choice] the hint carrying every other seat's answers, and the
    numbers it encodes."""
    moment = turn.moment
    codes = codes_of(public, moment, turn.seat)
    total = code_total(codes)
    numbers = {seat: encode(public_sets(public, moment, seat), total, moment.board, seen_hand(moment, seat))
               for seat, _, _ in codes}
    number = sum(numbers.values()) % total
    for seat, slot, k in codes:
        if number < k:
            return best_hint(public, moment, seat, slot, k, number), numbers
        number -= k
    raise InfoError(f"I-hint-map: number {number} beyond the codes {codes}")


def best_hint(public: PublicKnowledge, moment: Moment, seat: int, slot: int, k: int, kind: int) -> Hint:
    """[I-hint-choice] the hint of type ``kind`` to ``seat`` (focus ``slot``, code size
    ``k``) that tells it most beyond its number, the first in catalogue order of the best."""
    return _best_hint(tuple(public_sets(public, moment, seat)), tuple(seen_hand(moment, seat)), seat, slot, k, kind,
                      moment.board)


@functools.lru_cache(maxsize=1024)
def _best_hint(sets: tuple[int, ...], hand: tuple[int, ...], seat: int, slot: int, k: int, kind: int, board: Board) -> Hint:
    """:func:`best_hint` of the target's public sets and identities: chosen once for the
    hinter and every seat that checks the choice (S-foreign-detect) of the same hint."""
    choices = hints_of_type(kind, k, seat, hand, slot, board.config)
    if not choices:
        raise InfoError(f"I-k-exists: seat {seat} has no hint of type {kind} (k = {k}, hand {list(hand)})")
    return max(choices, key=lambda hint: (goodness(hint, sets, hand, board), -choices.index(hint)))


def check_choice(public: PublicKnowledge, moment: Moment, codes: Sequence[Code], hint: Hint, touched: Collection[int]) -> None:
    """[I-hint-choice, S-foreign-detect] ForeignMove if ``hint`` (given at ``moment``, to a
    seat the reader sees) is not the one an honest hinter chooses for its type: the best
    by I-hint-choice.  Every seat but the target can tell; the target cannot (the choice
    depends on its own cards)."""
    for seat, slot, k in codes:
        if seat == hint.target and k:
            kind = hint_type(hint, moment.hands[seat][slot] in touched, k)
            expected = best_hint(public, moment, seat, slot, k, kind)
            if expected != hint:
                raise ForeignMove("I-hint-choice", f"seat {hint.target} was given {hint.kind} {hint.subject}, where the "
                                  f"code's choice for its type is {expected.kind} {expected.subject}")


def discard_of(turn: Turn, public: PublicKnowledge) -> tuple[Discard | Hint, Numbers | None]:
    """[I-turn] (step 4) which card to discard, and the numbers of a discard that carries
    answers (I-useless-hat); a hint instead of the card of highest score when that card is
    too likely critical (I-critical-hint)."""
    moment, board = turn.moment, turn.moment.board
    public_useless = useless(turn.public, board)
    if len(public_useless) >= 2:
        return useless_hat_discard(turn, public, public_useless)
    private_useless = useless(turn.own, board, turn.weights)
    if private_useless:
        return Discard(private_useless[0]), None
    slot = least_valuable(turn)
    if moment.hints > 0 and too_critical(turn, turn.own[slot]):
        return hint_of(turn, public)
    return Discard(slot), None


def useless_hat_discard(turn: Turn, public: PublicKnowledge, public_useless: Sequence[int]) -> tuple[Discard, Numbers]:
    """[I-useless-hat] the discard among the ``public_useless`` slots whose index carries
    every other seat's answers, read (as every seat reads it) after the discard's
    I-no-hint-needed restrictions."""
    moment = turn.moment
    scratch = public.copy()
    if moment.hints > 0:
        scratch.apply(nobody_needed_a_hint(public, moment, turn.seat))
    total = len(public_useless)
    numbers = {seat: encode(public_sets(scratch, moment, seat), total, moment.board, seen_hand(moment, seat))
               for seat in seats_after(turn.config.players, turn.seat)}
    return Discard(public_useless[sum(numbers.values()) % total]), numbers


def too_critical(turn: Turn, mask: int) -> bool:
    """[I-critical-hint] *(ours)* whether the card of set ``mask`` that step 4 would
    discard by its score is critical with private probability above the option's bound."""
    bound = turn.options.critical_hint
    board = turn.moment.board
    return bound < 1 and 1 - board.probability(mask, board.dispensable, turn.weights) > bound


def least_valuable(turn: Turn) -> int:
    """[I-turn] (step 4) the card of highest 20 P(seen elsewhere) + 10 P(dispensable) + E[value]
    (the weight 10 is the option of I-discard-weight)."""
    moment, weights = turn.moment, turn.weights
    board = moment.board
    seen = 0
    for seat in seats_after(turn.config.players, turn.seat):
        for card in moment.cards[seat]:
            if card is not None:
                seen |= 1 << card
    dispensable = board.dispensable
    keep = turn.options.dispensable_weight
    rank_of = tables_for(turn.config).rank_of
    best: tuple[float, int] | None = None
    for slot, mask in enumerate(turn.own):
        total = weights.total(mask)
        if not total:
            continue
        value = sum(weights[card] * (rank_of[card] + 1) for card in identities(mask))
        score = ratio(20 * weights.total(mask & seen) + keep * weights.total(mask & dispensable) + value, total)
        if best is None or score > best[0]:
            best = (score, slot)
    return 0 if best is None else best[1]
