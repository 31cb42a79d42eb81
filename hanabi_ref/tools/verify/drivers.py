"""Skilled drivers for the random games of ``verify`` [EP-random, EP-skilled].

Uniformly random moves strike out early and almost never complete a suit; *careful*
games reach the end of the stack but seldom play a 5.  A skilled driver sees the whole
state, its own cards included, as our side of a compared game does, and steers the game
into the situations where engines go wrong: suits completed, the maximum score reached
with cards left, a 5 played with every hint token, the last round, the last allowed error
(in the last round too) and, under hanab-live, the early end when no more points are
possible (R-1).

A driver only ever returns one of the legal actions it is given.  It takes its decisions
from the state and draws every remaining choice (a tie, a plan such as when to make
errors) through a ``draw(n)`` callable returning an index below n; in ``verify`` that is
the game's recorded seeded choice, which Hypothesis replays and shrinks [EP-shrink].
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final

from hanabi_ref.engine.actions import Action, Discard, Hint, Play
from hanabi_ref.engine.cards import suit_of, value_of
from hanabi_ref.engine.config import GameConfig
from hanabi_ref.engine.state import GameState, fireworks_sum, deck_size
from hanabi_ref.tools.protocol.choosing import Chooser
from hanabi_ref.engine.tables import tables_for

Draw = Callable[[int], int]
"""``draw(n)``: an index in ``range(n)`` (n >= 1)."""

KINDS: Final = ("uniform", "careful", "finisher", "hoarder", "striker", "spoiler")
"""The kinds of random games [EP-random], simplest first (shrinking prefers earlier ones):
uniformly random moves, careful moves, and the skilled drivers of :data:`DRIVERS`."""


def kinds_for(config: GameConfig) -> tuple[str, ...]:
    """The kinds a game of ``config`` draws from, each entry equally likely [EP-random,
    EP-skilled]: every kind but the spoiler, and, where the game ends when no more points
    are possible (R-1), the spoiler as often as all of them together: a default run (200
    games over 20 configurations, 4 of them hanab-live) expects 20 spoiled hanab-live games
    rather than 7."""
    kinds = tuple(kind for kind in KINDS if kind != "spoiler")
    if config.options.end_when_no_points_possible:
        kinds += ("spoiler",) * len(kinds)
    return kinds


class Table:
    """What a driver sees of ``state`` [EP-skilled]: every card's identity, and for each
    identity whether it is playable now, can never be played, or is the last copy left."""

    def __init__(self, state: GameState) -> None:
        config = self.config = state.config
        self.state = state
        n = self.n = config.values
        discarded = [0] * (n * config.suit_count)
        for card_id in state.discard:
            discarded[state.deck[card_id]] += 1
        self.discarded = discarded
        self.reach: list[int] = []  # the height each suit can still reach
        for index, suit in enumerate(config.suits):
            height = state.fireworks[index]
            while height < n and discarded[index * n + height] < suit.counts[height]:
                height += 1
            self.reach.append(height)
        self.hand = state.hands[state.current_player]

    def suit_value(self, card_id: int) -> tuple[int, int]:
        card = self.state.deck[card_id]
        return suit_of(card, self.n), value_of(card, self.n)

    def playable(self, card_id: int) -> bool:
        suit, value = self.suit_value(card_id)
        return self.state.fireworks[suit] == value - 1

    def useless(self, card_id: int) -> bool:
        """The card can never be played: its value is on the field, or a lower value is gone."""
        suit, value = self.suit_value(card_id)
        return value <= self.state.fireworks[suit] or value > self.reach[suit]

    def critical(self, card_id: int) -> bool:
        """Discarding the card lowers the score still reachable (it is the last copy)."""
        suit, value = self.suit_value(card_id)
        left = self.config.suits[suit].counts[value - 1] - self.discarded[self.state.deck[card_id]]
        return not self.useless(card_id) and left == 1

    def distance(self, card_id: int) -> int:
        """How many plays the card's suit needs before the card is playable."""
        suit, value = self.suit_value(card_id)
        return value - 1 - self.state.fireworks[suit]

    def slots(self, test: Callable[[int], bool], seat: int | None = None) -> list[int]:
        hand = self.hand if seat is None else self.state.hands[seat]
        return [slot for slot, card_id in enumerate(hand) if test(card_id)]

    def holds_playable(self, seat: int) -> bool:
        return bool(self.slots(self.playable, seat))

    def holds_playable_five(self, seat: int) -> bool:
        return bool(self.slots(lambda c: self.playable(c) and self.suit_value(c)[1] == self.n, seat))

    @property
    def tokens(self) -> int:
        return self.state.clue_tokens

    @property
    def at_max(self) -> bool:
        return self.state.clue_tokens == self.config.max_hints


class Driver(Chooser):
    """A skilled driver [EP-skilled]: ``choose`` returns one of the legal actions (it
    offers no probe: the game's chooser draws those)."""

    def __init__(self, draw: Draw) -> None:
        self.draw = draw

    def choose(self, state: GameState, legal: list[Action]) -> Action:
        table = Table(state)
        action = self.decide(table, [a for a in legal if isinstance(a, Hint)], [a for a in legal if isinstance(a, Discard)])
        return action if action in legal else self.pick(legal)

    def decide(self, table: Table, hints: list[Hint], discards: list[Discard]) -> Action:
        raise NotImplementedError

    def pick(self, actions: Sequence[Action]) -> Action:
        return actions[self.draw(len(actions))] if len(actions) > 1 else actions[0]

    def play(self, slots: list[int]) -> Action:
        return Play(slots[self.draw(len(slots))] if len(slots) > 1 else slots[0])

    def safe_discard(self, table: Table, discards: list[Discard]) -> Action | None:
        """A discard that loses nothing: a useless card, else a card with another copy
        left, farthest from playable; None if every card is the last of its kind."""
        useless = [d for d in discards if table.useless(table.hand[d.slot])]
        if useless:
            return self.pick(useless)
        spare = [d for d in discards if not table.critical(table.hand[d.slot])]
        if not spare:
            return None
        far = max(table.distance(table.hand[d.slot]) for d in spare)
        return self.pick([d for d in spare if table.distance(table.hand[d.slot]) == far])

    def least_loss(self, table: Table, discards: list[Discard]) -> Action:
        """Some discard: a safe one, else the last copy farthest from playable."""
        safe = self.safe_discard(table, discards)
        if safe is not None:
            return safe
        far = max(table.distance(table.hand[d.slot]) for d in discards)
        return self.pick([d for d in discards if table.distance(table.hand[d.slot]) == far])

    def misplay(self, table: Table) -> Action:
        """A play that fails (an error), of a card that can never be played if there is one."""
        useless = table.slots(table.useless)
        failing = useless or table.slots(lambda c: not table.playable(c))
        return self.play(failing or list(range(len(table.hand))))

    def spoil(self, table: Table, hints: list[Hint], discards: list[Discard]) -> Action:
        """The move of :class:`Spoiler`."""
        last = [d for d in discards if table.critical(table.hand[d.slot])]
        if last:
            return self.pick(last)
        playable = table.slots(table.playable)
        if playable:
            return self.play(playable)
        live = [d for d in discards if not table.useless(table.hand[d.slot])]
        if live:

            def left(d: Discard) -> int:
                card = table.state.deck[table.hand[d.slot]]
                suit, value = table.suit_value(table.hand[d.slot])
                return table.config.suits[suit].counts[value - 1] - table.discarded[card]

            fewest = min(left(d) for d in live)
            return self.pick([d for d in live if left(d) == fewest])
        return self.fallback(table, hints, discards)

    def fallback(self, table: Table, hints: list[Hint], discards: list[Discard]) -> Action:
        """No plan applies: a safe discard, a hint, any discard, else a misplay."""
        safe = self.safe_discard(table, discards)
        if safe is not None:
            return safe
        if hints:
            return self.pick(hints)
        if discards:
            return self.least_loss(table, discards)
        return self.misplay(table)


class Finisher(Driver):
    """Aims at the maximum score with cards left [EP-skilled]: plays a playable card;
    else passes time with a hint while a teammate holds a playable card (a hint draws no
    card, so the stack lasts); else discards a card that loses nothing to draw a new one;
    never plays a card that fails unless nothing else is legal."""

    def decide(self, table: Table, hints: list[Hint], discards: list[Discard]) -> Action:
        playable = table.slots(table.playable)
        if playable:
            return self.play(playable)
        others = [seat for seat in range(table.config.players) if seat != table.state.current_player]
        if hints and any(table.holds_playable(seat) for seat in others):
            return self.pick(hints)
        return self.fallback(table, hints, discards)


class Hoarder(Driver):
    """Plays 5s with every hint token [EP-skilled]: a playable 5 waits until the tokens
    are at their maximum (discarding to regain them), and the player before its holder
    leaves the tokens at the maximum: it plays, discards at the maximum where that is
    legal, or, where it is not, makes an error while one more error does not end the
    game.  Otherwise it plays like :class:`Finisher` but passes time by discarding, not
    by hinting, so that the tokens stay high."""

    def decide(self, table: Table, hints: list[Hint], discards: list[Discard]) -> Action:
        state, config = table.state, table.config
        fives = table.slots(lambda c: table.playable(c) and table.suit_value(c)[1] == table.n)
        others = table.slots(lambda c: table.playable(c) and table.suit_value(c)[1] != table.n)
        if fives and table.at_max:
            return self.play(fives)
        following = (state.current_player + 1) % config.players
        if following != state.current_player and table.holds_playable_five(following):
            # Leave the tokens at the maximum for the next player's 5.
            if table.at_max:
                if others:
                    return self.play(others)
                if discards:
                    return self.least_loss(table, discards)
                if config.max_errors is None or state.strikes + 1 < config.max_errors:
                    return self.misplay(table)
            elif table.tokens == config.max_hints - 1 and discards:
                return self.least_loss(table, discards)
        if others:
            return self.play(others)
        if fives:
            safe = self.safe_discard(table, discards)
            return safe if safe is not None else self.play(fives)
        safe = self.safe_discard(table, discards)
        if safe is not None:
            return safe
        return self.fallback(table, hints, discards)


class Striker(Driver):
    """Makes the errors that end a game, at chosen moments [EP-skilled].  It burns the
    stack (plays what is playable, else discards what loses nothing, else hints) and makes
    its errors by playing a card that fails: all but the last once the score reaches a
    drawn threshold or the stack runs low; the last one, as drawn, at a second threshold
    or in the last round (mostly at its first move there, else at the game's final
    move), so that the strikeout score (2.16-3-strikeout) and a strikeout in the last
    round both arise.
    When its last error is due in the last round, it never scores the last point, which
    would end the game at the maximum first."""

    def __init__(self, draw: Draw) -> None:
        super().__init__(draw)
        self.early = draw(13)  # the score from which the errors but the last are made
        self.late = draw(26)  # the score at which the last error is made ...
        self.when = draw(4)  # ... 0: at self.late; 3: at the game's final move; else: first move of the last round

    def decide(self, table: Table, hints: list[Hint], discards: list[Discard]) -> Action:
        state, config = table.state, table.config
        score = fireworks_sum(state)
        if config.max_errors is not None and any(not table.playable(c) for c in table.hand):
            if state.strikes + 1 < config.max_errors:
                if score >= self.early or deck_size(state) <= 2 * config.players:
                    return self.misplay(table)
            elif self._last_error_now(table, score):
                return self.misplay(table)
        playable = table.slots(table.playable)
        if playable and not (self.when != 0 and score + 1 == tables_for(config).max_score):
            return self.play(playable)
        return self.fallback(table, hints, discards)

    def _last_error_now(self, table: Table, score: int) -> bool:
        remaining = table.state.remaining
        if self.when == 0:
            return score >= self.late or remaining is not None
        if self.when == 3:
            return remaining == 1
        return remaining is not None


class Spoiler(Driver):
    """Makes points impossible, so that a hanab-live game ends early (R-1) [EP-skilled]:
    discards the last copy of a card still needed, else plays a playable card, else
    discards the card whose kind has the fewest copies left (so that the next one becomes
    a last copy), hinting only where it may not discard.  It never makes an error on
    purpose."""

    def decide(self, table: Table, hints: list[Hint], discards: list[Discard]) -> Action:
        return self.spoil(table, hints, discards)


DRIVERS: Final[dict[str, type[Driver]]] = {
    "finisher": Finisher,
    "hoarder": Hoarder,
    "striker": Striker,
    "spoiler": Spoiler,
}
"""The skilled drivers by kind [EP-skilled]."""


def make_driver(kind: str, draw: Draw) -> Driver:
    """The skilled driver of ``kind`` (a key of :data:`DRIVERS`) [EP-skilled]."""
    return DRIVERS[kind](draw)
