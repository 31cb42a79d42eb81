"""Convention bots beside partners who do not keep their convention [S-foreign].

The hat and information strategies read every hint as a number of their code.  A
partner who does not play the code (a person, another bot) gives hints that decode to
numbers nobody meant, and a seat that trusts them plays cards nobody told it to play.
:class:`Adaptive` wraps one seat of a convention bot so that it never raises on a
partner's move and stops trusting the code once the code is seen broken:

* the convention's own reading raises :class:`ForeignMove` for a move that no honest
  player of the code could have made [S-foreign-detect]; the wrapper catches it and
  the seat leaves the convention;
* a failed play while the deck still holds cards is such a move, unless the convention
  itself takes risks whose public conditions held (the information strategy's risky
  play); every seat sees it at the same event, so the whole team leaves together
  [S-foreign-team];
* a seat that has left plays the fallback strategy (Algorithm 4.6, ``thesis``) from
  its view, whose knowledge sets hold the literal content of every hint, so nothing it
  knows is lost and nothing it believes rests on the code [S-foreign-fallback], and
  leaves a reckless next seat a token to spend [S-foreign-keep];
* whatever the code says, a seat never plays a card that its knowledge set shows
  cannot be played now when the miss can cost anything (a card drawn or the last
  strike): that move is replaced by the fallback's [S-foreign-guard].

In self-play none of this fires: the trigger and the guard change no game
[S-foreign-selfplay] (tests/test_foreign.py compares the self-play games with the
unwrapped bots').
"""

from __future__ import annotations

from collections.abc import Callable

from hanabi_ref.base.errors import HanabiError
from hanabi_ref.engine.actions import Action, Discard, Hint, Play
from hanabi_ref.engine.cards import Identity
from hanabi_ref.engine.config import GameConfig
from hanabi_ref.engine.state import Event
from hanabi_ref.engine.view import PlayerView
from hanabi_ref.players.strategy import BaseStrategy, Strategy, StrategyFactory


class ForeignMove(HanabiError):
    """[S-foreign-detect] A partner's move that no honest player of the seat's code could
    have made, found by the code's own reading; the message names the clause."""

    def __init__(self, clause: str, message: str) -> None:
        super().__init__(f"{clause}: {message}")
        self.clause = clause


def next_identities(view: PlayerView) -> int:
    """The identities some field stack takes next, as a bitmask [R-4], from what every
    seat sees (the rule set of the view's variant family)."""
    played = view.played
    deck: list[Identity] = [Identity(0)] * (max((card_id for card_id, _ in played), default=-1) + 1)
    for card_id, identity in played:
        deck[card_id] = identity
    ids = view.tables.rule_set.next_identities(view.config, deck, view.fireworks, [card_id for card_id, _ in played])
    mask = 0
    for x in ids:
        mask |= 1 << x
    return mask


def is_guarded(view: PlayerView, slot: int) -> bool:
    """[S-foreign-guard] whether a play of ``slot`` is refused: the seat's own knowledge set
    of it holds no identity a stack takes next (:func:`is_surely_unplayable`), and the miss
    can cost something: the deck still holds cards, or it would be the last strike."""
    config = view.config
    harmless = view.deck_size == 0 and (config.max_errors is None or view.strikes + 1 < config.max_errors)
    return not harmless and is_surely_unplayable(view, slot)


def is_surely_unplayable(view: PlayerView, slot: int) -> bool:
    """Whether the seat's own knowledge set of ``slot`` holds no identity a stack takes
    next (a card of a family that plays some identities as discards, such as Orange, is
    never judged so)."""
    known = view.own_knowledge[slot]
    if known & next_identities(view):  # it may be playable: not surely unplayable, swapped or not
        return False
    rule_set = view.tables.rule_set
    config = view.config
    return not any(rule_set.is_swapped(config, x) for x in range(known.bit_length()) if known >> x & 1)  # type: ignore[arg-type]


MayFail = Callable[[PlayerView, Event], bool]
"""Whether an honest player of a convention may have made a failed play, from public
information: the view right after it and its event [S-foreign-team]."""


def never_fails(view: PlayerView, event: Event) -> bool:
    """[S-foreign-team] the hat codes: a seat plays only cards its clues said are playable
    while the deck holds cards."""
    return False


def may_always_fail(view: PlayerView, event: Event) -> bool:
    """[S-foreign-team] a convention whose honest players may miss while the deck holds
    cards (a learned recommender errs): no failed play tells the code is broken."""
    return True


def is_public_break(view: PlayerView, event: Event, may_fail: MayFail = never_fails) -> bool:
    """[S-foreign-team] a failed play while the deck still held cards (the player drew
    after it) that no honest player of the convention makes (``may_fail``): a move every
    seat sees the same."""
    return (isinstance(event.action, Play) and event.success is False and event.drawn is not None
            and not may_fail(view, event))


def is_off_rule(move: Action, play: int | None, stands: bool, discard: int | None, may_hint: bool,
                last_play: int | None = None) -> bool:
    """[S-foreign-order] whether ``move`` is one a recommendation rule cannot give to a seat
    whose recommendation every other seat knows: ``play`` is the slot of its recommended
    play (None: none), which ``stands`` surely (no card played since, so the rule plays
    it and nothing else); ``discard`` the slot the rule would discard (None: no discard
    is allowed); ``may_hint`` whether it holds a token; ``last_play`` the slot the rule
    plays when nothing else is left (None: never)."""
    if play is not None and stands:
        return not (isinstance(move, Play) and move.slot == play)
    if isinstance(move, Hint):
        return not may_hint
    if isinstance(move, Play):
        return move.slot not in (play, last_play)
    if isinstance(move, Discard):
        return move.slot != discard
    return True


def mover_before(view: PlayerView, event: Event) -> tuple[tuple[int, ...], int]:
    """[S-foreign-order] the mover's card ids and the clue tokens before the game's first
    move, from the view after it (no seat has a view before it): a play or discard's card
    back at its slot and the card drawn taken out, the tokens the game starts with; a
    hint moves no card and spent one token."""
    hand = [card for card in view.hands[event.player] if card != event.drawn]
    if isinstance(event.action, (Play, Discard)) and event.card_id is not None:
        hand.insert(event.action.slot, event.card_id)
    return tuple(hand), view.config.max_hints


class Adaptive(BaseStrategy):
    """One seat of a convention bot that plays on beside anyone [S-foreign].

    ``convention`` is the seat's convention strategy, ``fallback`` builds the strategy it
    plays once it has left the convention.  :attr:`left` says why and when it left (None
    while it keeps the convention); :attr:`guarded` counts the plays the guard replaced."""

    def __init__(self, convention: Strategy, fallback: Callable[[], Strategy], may_fail: MayFail = never_fails) -> None:
        self.convention = convention
        self.may_fail = may_fail
        self._make_fallback = fallback
        self._fallback: Strategy | None = None
        self.left: str | None = None
        self.guarded = 0

    def leave(self, turn: int, why: str) -> None:
        """Leave the convention for the rest of the game [S-foreign-fallback]."""
        if self.left is None:
            self.left = f"turn {turn}: {why}"

    def fallback(self) -> Strategy:
        """The fallback strategy, built when first needed (it reads only its views)."""
        if self._fallback is None:
            self._fallback = self._make_fallback()
        return self._fallback

    def observe(self, view: PlayerView, event: Event) -> None:
        if self.left is not None:
            return
        if is_public_break(view, event, self.may_fail):
            self.leave(event.turn, f"S-foreign-team: seat {event.player}'s play failed while the deck held cards")
            return
        try:
            self.convention.observe(view, event)
        except ForeignMove as why:
            self.leave(event.turn, str(why))

    def act(self, view: PlayerView) -> Action:
        if self.left is None:
            try:
                action = self.convention.act(view)
            except ForeignMove as why:
                self.leave(view.turns, str(why))
            else:
                if not (isinstance(action, Play) and is_guarded(view, action.slot)):
                    return action
                self.guarded += 1  # [S-foreign-guard] this move only
        return self.fallback().act(view)


CAREFUL_OMEGA_P = 1.0
"""[S-foreign-fallback] omega_p of the fallback once a strike has been made: only cards
surely playable are played."""


KEPT_TOKENS = 2
"""[S-foreign-keep] the tokens a seat keeps in hand when its next seat is reckless."""


def reckless_seats(view: PlayerView) -> set[int]:
    """[S-foreign-keep] the seats that have missed a play of a card no clue had touched,
    from the public history."""
    touched: set[int] = set()
    reckless: set[int] = set()
    for event in view.history:
        if isinstance(event.action, Play) and event.success is False and event.card_id not in touched:
            reckless.add(event.player)
        touched.update(event.touched)
    return reckless


class Careful(BaseStrategy):
    """[S-foreign-fallback] Algorithm 4.6 as a seat plays it beside a partner outside its
    code: with its default parameters while no strike has been made, and after the first
    strike with omega_p = :data:`CAREFUL_OMEGA_P` (4.6-omega-p): it plays only cards surely
    playable, keeping the strikes left for the partner's misses.  [S-foreign-keep] With
    :data:`KEPT_TOKENS` tokens or fewer and a reckless next seat it plays as ``thrifty``
    (omega_p = 1, omega_h = 0): no clue, so that seat finds a token to spend.  All three
    read only the view."""

    def __init__(self, bold: Strategy, sure: Strategy, thrifty: Strategy) -> None:
        self.bold, self.sure, self.thrifty = bold, sure, thrifty

    def observe(self, view: PlayerView, event: Event) -> None:
        for strategy in (self.bold, self.sure, self.thrifty):
            strategy.observe(view, event)

    def act(self, view: PlayerView) -> Action:
        if view.clue_tokens <= KEPT_TOKENS and (view.seat + 1) % view.config.players in reckless_seats(view):
            return self.thrifty.act(view)
        return (self.bold if view.strikes == 0 else self.sure).act(view)


def thesis_fallback(config: GameConfig, seat: int, seed: int) -> Callable[[], Strategy]:
    """[S-foreign-fallback] the fallback of every convention bot we ship: :class:`Careful`
    ``thesis``, seeded as the seat."""

    def make() -> Strategy:
        from hanabi_ref.players.strategies.thesis import THESIS_SPEC

        return Careful(THESIS_SPEC.factory()(config, seat, seed), THESIS_SPEC.factory({"omega_p": CAREFUL_OMEGA_P})(config, seat, seed),
                       THESIS_SPEC.factory({"omega_p": CAREFUL_OMEGA_P, "omega_h": 0})(config, seat, seed))

    return make


def adaptive(factory: StrategyFactory, may_fail: MayFail = never_fails) -> StrategyFactory:
    """``factory``'s seats, each wrapped in :class:`Adaptive` with the thesis fallback."""

    def build(config: GameConfig, seat: int, seed: int) -> Adaptive:
        return Adaptive(factory(config, seat, seed), thesis_fallback(config, seat, seed), may_fail)

    return build


__all__ = [
    "Adaptive", "Careful", "ForeignMove", "KEPT_TOKENS", "MayFail", "reckless_seats", "adaptive", "is_guarded", "is_off_rule", "mover_before", "is_public_break", "is_surely_unplayable",
    "may_always_fail", "never_fails", "next_identities", "thesis_fallback",
]
