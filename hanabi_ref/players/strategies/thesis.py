"""The thesis' rule-of-thumb strategy, Algorithm 4.6 with its decision rule
omega = (omega_p, omega_s, omega_d, omega_h, rho_h, rho_d) [4.6].

Every turn the player to move:

  (a) plays a random one of the cards it marks playable (P(playable) >= omega_p, or
      certain when omega_s = 1 and one more error would end the game) [4.6-a];
  (b) else discards a random one of the cards it marks worthless (P >= omega_d) [4.6-b];
  (c) else, if a hint token is left, with probability omega_h gives the hint chosen by
      the hint rule rho_h [4.6-c];
  (d) else discards the card chosen by the discard rule rho_d [4.6-d].

Probabilities are exact and use only the view (knowledge.py, S-know).  Every choice the
thesis leaves open is a clause of spec/strategies.md and is cited where it is made.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import cast

from hanabi_ref.engine.actions import Action, Discard, Hint, Play
from hanabi_ref.engine.cards import Identity, rank_of, rank_table, suit_of, suit_table, value_of
from hanabi_ref.engine.dealing import SplitMix64
from hanabi_ref.engine.legality import is_discard_allowed
from hanabi_ref.engine.config import GameConfig
from hanabi_ref.players.strategy import BaseStrategy, StrategyFactory
from hanabi_ref.players.strategies.knowledge import CardWeights, clue_table, composition_counts, slot_ratio, upward_stacks_problem
from hanabi_ref.players.strategies.params import Param, StrategySpec, Value
from hanabi_ref.engine.view import PlayerView, view_legal_actions
from hanabi_ref.engine.tables import tables_for

HINT_RULES = {1: "random", 2: "most voluminous", 3: "first playable, then most voluminous",
              4: "first playable, then first worthless, then most voluminous"}
DISCARD_RULES = {1: "random", 2: "most worthless", 3: "oldest", 4: "least unique"}

THESIS_PARAMS = (
    Param("omega_p", "real", 0.6, "play a card when P(playable) >= omega_p [4.6-omega-p]", 0.0, 1.0),
    Param("omega_s", "int", 1, "1: play only certain cards when one more error ends the game [4.6-omega-s]", choices=(0, 1)),
    Param("omega_d", "real", 1.0, "discard a card when P(worthless) >= omega_d [4.6-omega-d]", 0.0, 1.0),
    Param("omega_h", "real", 1.0, "give a hint (when one is left) with probability omega_h [4.6-omega-h]", 0.0, 1.0),
    Param("rho_h", "int", 3, "hint rule: " + "; ".join(f"{k} {v}" for k, v in HINT_RULES.items()) + " [4.6-hint]", choices=(1, 2, 3, 4)),
    Param("rho_d", "int", 2, "discard rule: " + "; ".join(f"{k} {v}" for k, v in DISCARD_RULES.items()) + " [4.6-discard]", choices=(1, 2, 3, 4)),
    Param(
        "volume",
        "word",
        "new",
        "what 'most voluminous' counts: cards the hint touches, or cards whose K_c it changes [S-volume]",
        choices=("touched", "new", "informed", "unknown"),
    ),
    Param(
        "ties",
        "word",
        "first",
        "rule 2's ties: the first hint in turn order (values before colours) or a random one [S-hint-order]",
        choices=("first", "random"),
    ),
    Param(
        "rehint",
        "word",
        "never",
        "rule 3/4 'if not yet given': hint a card's unknown attribute, or pass over any card an earlier hint touched [S-first-card]",
        choices=("attribute", "never"),
    ),
    Param(
        "knowledge",
        "word",
        "view",
        "what the probabilities condition on: the whole view, or only D, F and the knowledge sets (Definition 2.17) [S-know-public]",
        choices=("view", "public"),
    ),
)
"""The parameters; defaults are the thesis' best rule (rho_h = 3, rho_d = 2, omega_p = 0.6,
omega_s = omega_d = omega_h = 1, section 4.3)."""


@functools.lru_cache(maxsize=256)
def _exact(value: Value) -> Fraction:
    """A parameter as an exact fraction: 0.1 is 1/10, not the nearest binary float (made
    once per value: every seat of every game reads the same parameters)."""
    return Fraction(repr(value)) if isinstance(value, float) else Fraction(int(value))


def _ratio(value: Value) -> tuple[int, int]:
    """A parameter as an exact (numerator, denominator) pair."""
    exact = _exact(value)
    return exact.numerator, exact.denominator


class Tables:
    """Identity sets that depend only on the public part of the view: Definitions 4.2-4.4;
    and the weights of the identities outside D and F (S-know-public), from which a seat
    takes away the other hands it sees (S-know).  Built by :meth:`TableMemo.build`."""

    __slots__ = ("playable", "worthless", "unique", "unseen")

    def __init__(self, playable: int, worthless: int, unique: int, unseen: CardWeights) -> None:
        """The playable, worthless and unique sets (identity bitmasks) and the weights."""
        self.playable, self.worthless, self.unique, self.unseen = playable, worthless, unique, unseen


def _suit_row(copies: tuple[int, ...], height: int, discarded: tuple[int, ...]) -> tuple[int, int, int, int, int, int]:
    """One suit's part of :class:`Tables`, bit v - 1 standing for value v: (playable,
    worthless, unique, low plane, high plane, most copies outside D and F), for the
    suit's copies per value, its field height and its discarded copies per value."""
    n = len(copies)
    playable = 1 << height if height < n else 0  # [4.2] value = #F[y] + 1
    worthless = unique = low = high = most = 0
    dead = False
    for value in range(1, n + 1):
        bit = 1 << (value - 1)
        left = copies[value - 1] - discarded[value - 1]  # copies not in D
        # [4.3] on the field already, or some z with #F[y] < z < value has no copy left
        # in the stack or the hands (all its copies discarded).
        if value <= height or dead:
            worthless |= bit
        elif left == 0:
            dead = True
        if value <= height:
            left -= 1  # the field holds exactly one copy of each value up to its height
        if left == 1:
            unique |= bit  # [4.4] exactly one copy in the stack and the hands
        if left & 1:
            low |= bit  # bit planes of the copies outside D and F (S-know-public)
        if left & 2:
            high |= bit
        most = max(most, left)
    return playable, worthless, unique, low, high, most


_Row = tuple[int, int, int, int, int, int]


class TableMemo:
    """The :class:`Tables` of one deck composition, by (fields, discard pile); every seat
    of a game, and many games, share them, and the suits' rows (:func:`_suit_row`) by
    suit, height and discarded copies.

    The discarded copies are counted in one integer, ``width`` bits per identity (enough
    for the most copies of any identity), so that a suit's counts are one shift away."""

    __slots__ = ("values", "composition", "suit_of", "rank_of", "tables", "rows", "copies", "width", "units")

    def __init__(self, values: int, composition: tuple[int, ...]) -> None:
        self.values, self.composition = values, composition
        self.suit_of, self.rank_of = suit_table(values, len(composition)), rank_table(values, len(composition))
        self.tables: dict[tuple[tuple[int, ...], int], Tables] = {}
        self.rows: dict[tuple[int, int, int], _Row] = {}
        self.copies = tuple(composition[base : base + values] for base in range(0, len(composition), values))
        self.width = width = max(max(composition, default=0).bit_length(), 1)
        self.units = tuple(1 << (card * width) for card in range(len(composition)))

    def of(self, view: PlayerView) -> Tables:
        """The tables of ``view``'s fields and discard pile."""
        units = self.units
        packed = 0  # the discarded copies of identity x in bits x * width and up
        for _, card in view.discard:
            packed += units[card]
        key = (view.fireworks, packed)
        tables = self.tables.get(key)
        if tables is None:
            if len(self.tables) >= 1 << 14:
                self.tables.clear()
            tables = self.tables[key] = self.build(view.fireworks, packed)
        return tables

    def build(self, fields: Sequence[int], packed: int) -> Tables:
        """The tables for the field heights ``fields`` and the discarded copies ``packed``
        (``width`` bits per identity) [4.2, 4.3, 4.4, S-know-public]."""
        n, width = self.values, self.width
        span = n * width
        field = (1 << span) - 1
        rows = self.rows
        playable = worthless = unique = low = high = most = 0
        for suit, height in enumerate(fields):
            key = (suit, height, packed >> (suit * span) & field)
            row = rows.get(key)
            if row is None:
                row = self._row(key)
            suit_playable, suit_worthless, suit_unique, suit_low, suit_high, suit_most = row
            playable |= suit_playable
            worthless |= suit_worthless
            unique |= suit_unique
            low |= suit_low
            high |= suit_high
            if suit_most > most:
                most = suit_most
        if most <= 3:
            return Tables(playable, worthless, unique, CardWeights(low=low, high=high))
        composition, mask, suits, ranks = self.composition, (1 << width) - 1, self.suit_of, self.rank_of
        unseen = [composition[x] - (packed >> (x * width) & mask) - int(ranks[x] < fields[suits[x]]) for x in range(len(composition))]
        return Tables(playable, worthless, unique, CardWeights(unseen))

    def _row(self, key: tuple[int, int, int]) -> _Row:
        """:func:`_suit_row` of (suit, height, discarded copies of the suit, ``width`` bits
        per value), its sets shifted to the suit's identities."""
        if len(self.rows) >= 1 << 14:
            self.rows.clear()
        suit, height, code = key
        width, n = self.width, self.values
        mask = (1 << width) - 1
        discarded = tuple(code >> (value * width) & mask for value in range(n))
        playable, worthless, unique, low, high, most = _suit_row(self.copies[suit], height, discarded)
        base = suit * n
        row = self.rows[key] = (playable << base, worthless << base, unique << base, low << base, high << base, most)
        return row


def public_tables(config: GameConfig, view: PlayerView) -> Tables:
    """:class:`Tables` of the view's fields and discard pile [4.2, 4.3, 4.4]."""
    return table_memo(config.values, composition_counts(config)).of(view)


@functools.lru_cache(maxsize=64)
def table_memo(values: int, composition: tuple[int, ...]) -> TableMemo:
    """The one :class:`TableMemo` of a deck composition."""
    return TableMemo(values, composition)


@functools.lru_cache(maxsize=64)
def hint_options(config: GameConfig) -> tuple[tuple[tuple[Hint, int], ...], ...]:
    """Every hint to each seat with the identities it touches, values 1..n first (a
    variant's rank clues, S-variants), then colours [S-hint-order]; made once per
    configuration."""
    catalogue = tables_for(config).action_catalogue.hints
    return tuple(
        tuple(option for option in catalogue[target] if option[0].kind == "value")
        + tuple(option for option in catalogue[target] if option[0].kind == "colour")
        for target in range(config.players)
    )


def is_playable(config: GameConfig, fields: Sequence[int], card: Identity) -> bool:
    """[4.2] (x, y) is playable: #F[y] = x - 1."""
    return fields[suit_of(card, config.values)] == rank_of(card, config.values)


def is_worthless(config: GameConfig, composition: Sequence[int], fields: Sequence[int], discarded: Sequence[int], card: int) -> bool:
    """[4.3] (x, y) is worthless: #F[y] >= x, or some (z, y) with #F[y] < z < x has no copy in
    the stack or the hands.  ``card`` is an identity."""
    n = config.values
    known = cast(Identity, card)
    return is_worthless_at(composition, fields, discarded, n, suit_of(known, n), rank_of(known, n))


def is_worthless_at(composition: Sequence[int], fields: Sequence[int], discarded: Sequence[int], n: int,
                    suit: int, rank: int) -> bool:
    """[4.3] :func:`is_worthless` of the card (rank + 1, suit) of a game of ``n`` values,
    for callers that decoded it already (the re-cluing rules, per card, from their
    decoders' tables)."""
    height = fields[suit]
    if height > rank:
        return True
    base = suit * n  # identity base + z - 1 is (z, suit)
    for identity in range(base + height, base + rank):  # z = height + 1 .. rank
        if composition[identity] == discarded[identity]:
            return True
    return False


def is_unique(composition: Sequence[int], discarded: Sequence[int], played: Sequence[int], card: int) -> bool:
    """[4.4] exactly one copy of (x, y) is in the stack or the hands."""
    return composition[card] - discarded[card] - played[card] == 1


class ThesisStrategy(BaseStrategy):
    """Algorithm 4.6 for one seat [4.6]."""

    def __init__(self, config: GameConfig, seat: int, seed: int, params: Mapping[str, Value]) -> None:
        self.config = config
        self.seat = seat
        self.rng = SplitMix64(seed)
        self.composition = composition_counts(config)
        self._tables = table_memo(config.values, self.composition)
        self.omega_p = _ratio(params["omega_p"])
        self.omega_s = int(params["omega_s"])
        self.omega_d = _ratio(params["omega_d"])
        self.omega_h = _exact(params["omega_h"])
        self.rho_h = int(params["rho_h"])
        self.rho_d = int(params["rho_d"])
        self.volume = params["volume"]
        self.public = params["knowledge"] == "public"
        self.random_ties = params["ties"] == "random"
        self._seen_history: tuple[int, object, set[int]] = (0, None, set())
        self._options = hint_options(config)
        self._clues = clue_table(config)
        self._other_seats = tuple((seat + offset) % config.players for offset in range(1, config.players))
        self.rehint = params["rehint"] == "attribute"

    # ------------------------------------------------------------------ the turn

    def act(self, view: PlayerView) -> Action:
        """The first applicable step of (a)-(d) [4.6, 4.6-a, 4.6-b, 4.6-c, 4.6-d]: a card
        is marked playable at P >= omega_p, or only when certain if omega_s = 1 and one
        more error ends the game [4.6-omega-p, 4.6-omega-s]; marked worthless at
        P >= omega_d [4.6-omega-d]; the hint is given with probability omega_h, or always
        when discarding is illegal [4.6-omega-h]; if no step applies, the first legal
        action [S-fallback]."""
        tables = self._tables.of(view)
        weight = tables.unseen
        if not self.public:  # [S-know] the other hands are seen; [S-know-public] or not
            weight = weight.without_hands(view.cards, view.seat)
        hand = _OwnHand(view.own_knowledge, weight)
        # [4.6-a] play a random card marked playable.
        errors_left = None if self.config.max_errors is None else self.config.max_errors - view.strikes
        if self.omega_s == 1 and errors_left == 1:
            marked = hand.marked(tables.playable, 1, 1)
        else:
            marked = hand.marked(tables.playable, *self.omega_p)
        if marked:
            return Play(self._pick(marked))
        # [E-2] the seat holds a card, so a discard is legal exactly when the rule allows one.
        can_discard = is_discard_allowed(view.tables, view.clue_tokens) if hand.size else False
        # [4.6-b] discard a random card marked worthless.
        if can_discard:
            marked = hand.marked(tables.worthless, *self.omega_d)
            if marked:
                return Discard(self._pick(marked))
        # [4.6-c] a hint, with probability omega_h, chosen by rho_h.
        if view.clue_tokens > 0 and (not can_discard or self._chance(self.omega_h)):
            hint = self._hint(view, tables)
            if hint is not None:
                return hint
        # [4.6-d] discard the card chosen by rho_d.
        if can_discard:
            return Discard(self._discard_slot(view, hand, tables))
        return view_legal_actions(view)[0]  # [S-fallback] nothing above is legal

    # ------------------------------------------------------------------ randomness

    def _pick(self, items: Sequence[int]) -> int:
        """A uniform choice from the seat's own stream; one item draws nothing [S-random]."""
        return items[0] if len(items) == 1 else items[self.rng.below(len(items))]

    def _chance(self, probability: Fraction) -> bool:
        """True with probability ``probability``, exactly; draws nothing at 0 or 1."""
        if probability >= 1:
            return True
        if probability <= 0:
            return False
        return self.rng.below(probability.denominator) < probability.numerator

    # ------------------------------------------------------------------ discard rules

    def _discard_slot(self, view: PlayerView, hand: "_OwnHand", tables: Tables) -> int:
        """The slot the discard rule rho_d chooses for step (d) [4.6-discard, 4.6-discard-1,
        4.6-discard-2, 4.6-discard-3, 4.6-discard-4]."""
        size = hand.size
        if self.rho_d == 1:  # [4.6-discard-1] a uniformly random card
            return self.rng.below(size)
        if self.rho_d == 3:  # [4.6-discard-3] the oldest card: the lowest card id
            own = view.own_hand
            return min(range(size), key=own.__getitem__)
        if self.rho_d == 2:  # [4.6-discard-2] highest P(worthless), ties at random
            return self._pick(hand.extreme(tables.worthless, highest=True))
        return self._pick(hand.extreme(tables.unique, highest=False))  # [4.6-discard-4]

    # ------------------------------------------------------------------ hint rules

    def _hint(self, view: PlayerView, tables: Tables) -> Hint | None:
        """The hint the hint rule rho_h chooses for step (c), among legal hints only
        [4.6-hint]; rule 4 searches for a playable card, then a worthless one [4.6-hint-4]."""
        if self.rho_h == 1:
            return self._random_hint(view)
        if self.rho_h >= 3:
            hint = self._first_hint(view, tables.playable)
            if hint is None and self.rho_h == 4:  # [4.6-hint-4] then the first worthless card
                hint = self._first_hint(view, tables.worthless)
            if hint is not None:
                return hint
        return self._voluminous_hint(view)

    def _touched(self, view: PlayerView) -> set[int]:
        """The card ids any hint so far has touched, from the public history; extended
        from the last call when the history continues the one seen then."""
        history = view.history
        done, last, touched = self._seen_history
        if not (done <= len(history) and (done == 0 or history[done - 1] is last)):
            done, touched = 0, set()
        for event in history[done:]:
            if event.touched:
                touched.update(event.touched)
        self._seen_history = (len(history), history[-1] if history else None, touched)
        return touched

    def _others(self, view: PlayerView) -> tuple[int, ...]:
        """The other seats in turn order, starting with the next one [S-turn-order]."""
        if view.seat != self.seat:
            players = self.config.players
            return tuple((view.seat + offset) % players for offset in range(1, players))
        return self._other_seats

    def _hint_options(self, view: PlayerView, target: int) -> list[tuple[Hint, int]] | tuple[tuple[Hint, int], ...]:
        """The legal hints to ``target``, values 1..n first, then colours [S-hint-order]:
        with empty hints refused, those touching a card of the target (a blind clue,
        VAR-blind, is legal too but tells nothing and is not offered) [S-variants]."""
        config = self.config
        options = self._options[target]
        if config.options.empty_hints:
            return options
        held = 0
        for card in _visible(view, target):
            held |= 1 << card
        return [(hint, mask) for hint, mask in options if held & mask]

    def _random_hint(self, view: PlayerView) -> Hint | None:
        """[4.6-hint-1] a random other player, then a random legal value or colour hint."""
        per_target = [options for options in (self._hint_options(view, t) for t in self._others(view) if view.cards[t]) if options]
        if not per_target:
            return None
        options = per_target[self.rng.below(len(per_target))]
        return options[self.rng.below(len(options))][0]

    def _voluminous_hint(self, view: PlayerView) -> Hint | None:
        """[4.6-hint-2] the hint about the most cards; of several, the first in turn order,
        values before colours, or a random one (``ties``) [S-hint-order]; counted as
        S-volume says."""
        best: Hint | None = None
        best_volume = -1
        ties: list[Hint] = []
        mode = self.volume
        for target in self._others(view):
            pairs = list(zip(_visible(view, target), view.knowledge[target]))
            if len(pairs) < best_volume or (len(pairs) == best_volume and not self.random_ties):
                continue  # no hint to this player can tell more cards (or as many, for ties)
            for hint, mask in self._hint_options(view, target):
                volume = 0
                if mode == "new":
                    for card, known in pairs:
                        if mask >> card & 1 and known & ~mask:
                            volume += 1
                elif mode == "unknown":
                    for card, known in pairs:
                        if mask >> card & 1 and known & (known - 1):
                            volume += 1
                elif mode == "informed":
                    for card, known in pairs:
                        if (known & mask if mask >> card & 1 else known & ~mask) != known:
                            volume += 1
                else:
                    for card, _ in pairs:
                        if mask >> card & 1:
                            volume += 1
                if volume > best_volume:
                    best, best_volume = hint, volume
                    ties = [hint]
                elif volume == best_volume:
                    ties.append(hint)
        if self.random_ties and len(ties) > 1:
            return ties[self.rng.below(len(ties))]
        return best

    def _first_hint(self, view: PlayerView, wanted: int) -> Hint | None:
        """[4.6-hint-3] in turn order, the first player holding a card of ``wanted`` whose
        value or colour its holder does not know yet; among its cards the lowest value
        (then the oldest); a value hint if the value is not known, else a colour hint
        [S-first-card], each only if it touches the card [S-variants]."""
        ranks = view.tables.rank_of
        touched: set[int] | None = None if not self.rehint else set()  # read when a card is wanted
        for target in self._others(view):
            cards = _visible(view, target)
            slots = [slot for slot, card in enumerate(cards) if wanted >> card & 1]
            if not slots:
                continue
            if touched is None:
                touched = self._touched(view)
            knowledge, ids = view.knowledge[target], view.hands[target]
            candidates = sorted((ranks[cards[slot]], slot, cards[slot], knowledge[slot]) for slot in slots if ids[slot] not in touched)
            for _, _, card, known in candidates:
                hint = self._telling_hint(target, card, known)
                if hint is not None:
                    return hint
        return None

    def _telling_hint(self, target: int, card: Identity, known: int) -> Hint | None:
        """The hint rule 3 gives on ``card`` (knowledge set ``known``) [4.6-hint-3,
        S-variants]: the rank clue of its value if that clue touches it and shrinks
        ``known``; else, if its suit is not known, the first clue colour touching it; else
        the first touching hint that shrinks ``known`` (S-hint-order); else None.  Under
        classic touch the last case never finds a hint, so the rule is the thesis' one."""
        clues = self._clues
        mask = clues.own_value[card]
        if mask and known & ~mask:
            return Hint(target, "value", value_of(card, self.config.values))
        colour = clues.first_colour[card]
        if colour >= 0 and known & ~clues.suit_masks[card]:
            return Hint(target, "colour", colour)
        found = clues.narrowing(card, known)
        return None if found is None else Hint(target, found[0], found[1])


def _visible(view: PlayerView, seat: int) -> tuple[Identity, ...]:
    """The identities of another seat's cards (all visible to the viewer: only the
    viewer's own cards are None [2.17-view])."""
    return cast("tuple[Identity, ...]", view.cards[seat])


class _OwnHand:
    """The seat's own slots with their unseen sets, deciding thresholds exactly and
    cheaply: a slot's own set settles most questions (S-bounds); otherwise the exact
    posterior of the slots that share cards with it (S-posterior, S-components).

    Probabilities are unreduced integer ratios (num, den) with den > 0, compared by
    cross-multiplication."""

    __slots__ = ("masks", "weight", "size", "_exact", "_sharing", "_covering")

    def __init__(self, knowledge: Sequence[int], weight: CardWeights) -> None:
        self.weight = weight
        unseen = weight.support  # identities with r_x > 0
        self.masks = [known & unseen for known in knowledge]
        self.size = len(self.masks)
        self._exact: dict[tuple[int, int], tuple[int, int]] = {}
        self._sharing: dict[int, tuple[int, ...] | None] = {}
        """:meth:`sharing` by slot set."""
        self._covering = -1

    @property
    def covering(self) -> int:
        """The slots whose set contains every other slot's set (a bitmask); they never
        change another slot's probability (S-peel)."""
        if self._covering < 0:
            union = 0
            for mask in self.masks:
                union |= mask
            covering = 0
            for slot, mask in enumerate(self.masks):
                if mask == union:  # it contains the others' sets exactly when it is their union
                    covering |= 1 << slot
            self._covering = covering
        return self._covering

    def sharing(self, slot: int) -> tuple[int, ...] | None:
        """The sets of the other slots that share an identity with ``slot``, leaving out
        covering slots (S-peel); None when all of them equal ``slot``'s set, so that its
        probability is a/(a + b) exactly.  Slots with equal sets have the same sets
        around them (in another order, which :meth:`_lows` does not read): one
        computation per set."""
        mask = self.masks[slot]
        if mask in self._sharing:
            return self._sharing[mask]
        covering = self.covering
        near = []
        alike = True
        for other, other_mask in enumerate(self.masks):
            if other != slot and other_mask & mask and not covering >> other & 1:
                near.append(other_mask)
                if other_mask != mask:
                    alike = False
        found = self._sharing[mask] = None if alike else tuple(near)
        return found

    def exact(self, slot: int, event: int) -> Fraction:
        """P(slot's card in ``event``), exactly [S-posterior]."""
        num, den = self.ratio(slot, event)
        return Fraction(num, den)

    def ratio(self, slot: int, event: int) -> tuple[int, int]:
        """P(slot's card in ``event``) as (num, den) [S-posterior].  Slots with equal sets
        are exchangeable, so they share one computation [S-peel]."""
        key = (self.masks[slot], event)
        found = self._exact.get(key)
        if found is None:
            found = self._exact[key] = slot_ratio(self.masks, slot, event, self.weight)
        return found

    def bounds(self, slot: int, event: int) -> tuple[int, int, int, int]:
        """(a, b, low_a, low_b) of S-bounds: P lies in [low_a/(low_a + b), a/(a + low_b)];
        when the slots sharing identities with this one all have its set, P = a/(a + b)
        and the interval is that point."""
        mask = self.masks[slot]
        inside, outside = mask & event, mask & ~event
        a, b = self.weight(inside), self.weight(outside)
        low_a, low_b = self._lows(slot, inside, outside, a, b)
        return a, b, low_a, low_b

    def _lows(self, slot: int, inside: int, outside: int, a: int, b: int) -> tuple[int, int]:
        near = self.sharing(slot)
        if near is None:
            return a, b
        d_a = d_b = 0
        for other_mask in near:
            if other_mask & inside:
                d_a += 1
            if other_mask & outside:
                d_b += 1
        return (a - d_a if a > d_a else 0), (b - d_b if b > d_b else 0)

    def marked(self, event: int, num: int, den: int) -> list[int]:
        """The slots whose P(card in ``event``) >= num/den, decided exactly [S-bounds].

        A slot's own unseen set gives a (inside the event) and b (outside); given the
        other slots, its probability is a'/(a'+b') with a - d_a <= a' <= a and
        b - d_b <= b' <= b, where d_a (d_b) counts the other slots that could take a
        card inside (outside).  Only when these bounds straddle the threshold is the
        exact posterior consulted."""
        masks = self.masks
        weight = self.weight
        # Copies per identity are at most 3 in every deck but custom ones: two bit planes.
        fast = len(weight.planes) <= 2
        low, high = weight.low, weight.high
        result = []
        decided: dict[int, bool] = {}
        for slot, mask in enumerate(masks):
            known = decided.get(mask)
            if known is not None:
                if known:
                    result.append(slot)
                continue
            # Every identity of a slot's set has r_x > 0: a part of it weighs 0 only if empty.
            outside = mask & ~event
            if not outside:
                verdict = True  # P = 1
            else:
                inside = mask & event
                if not inside:
                    verdict = num <= 0  # P = 0
                else:
                    b = (outside & low).bit_count() + ((outside & high).bit_count() << 1) if fast else weight(outside)
                    a = (inside & low).bit_count() + ((inside & high).bit_count() << 1) if fast else weight(inside)
                    crude = b - self.size + 1  # at most size - 1 other slots take cards
                    if crude > 0 and a * den < num * (a + crude):
                        decided[mask] = False  # even the crude upper bound stays below
                        continue
                    low_a, low_b = self._lows(slot, inside, outside, a, b)
                    if low_a * den >= num * (low_a + b):
                        verdict = True  # the lower bound reaches the threshold
                    elif a * den < num * (a + low_b):
                        verdict = False  # the upper bound stays below it
                    else:
                        p_num, p_den = self.ratio(slot, event)
                        verdict = p_num * den >= num * p_den
            decided[mask] = verdict
            if verdict:
                result.append(slot)
        return result

    def extreme(self, event: int, highest: bool) -> list[int]:
        """The slots with the highest (or lowest) P(card in ``event``), exactly.

        Bounds (S-bounds) rule out slots that cannot reach the extreme; the others are
        compared by their exact probabilities."""
        # Each slot's interval as integer fractions (num, den) [S-bounds].
        lows: list[tuple[int, int]] = []
        highs: list[tuple[int, int]] = []
        for slot in range(self.size):
            a, b, low_a, low_b = self.bounds(slot, event)
            if a == 0:
                lows.append((0, 1))
                highs.append((0, 1))
            elif b == 0:
                lows.append((1, 1))
                highs.append((1, 1))
            else:
                lows.append((low_a, low_a + b))
                highs.append((a, a + low_b))
        # The best value some slot surely reaches, and the slots whose interval reaches it.
        sure, reach = (lows, highs) if highest else (highs, lows)
        bound = sure[0]
        for value in sure[1:]:
            if _is_better(value, bound, highest):
                bound = value
        candidates = [slot for slot in range(self.size) if not _is_better(bound, reach[slot], highest)]
        if len(candidates) == 1:
            return candidates
        # Exact values, point intervals first; a slot whose interval falls short of a
        # value already found cannot be extreme and needs none.
        values: dict[int, tuple[int, int]] = {}
        for slot in candidates:
            if lows[slot][0] * highs[slot][1] == highs[slot][0] * lows[slot][1]:
                values[slot] = lows[slot]
                if _is_better(lows[slot], bound, highest):
                    bound = lows[slot]
        for slot in candidates:
            if slot not in values and not _is_better(bound, reach[slot], highest):
                values[slot] = self.ratio(slot, event)
                if _is_better(values[slot], bound, highest):
                    bound = values[slot]
        num, den = bound  # the extreme value: every slot reaching it has it exactly
        return [slot for slot in candidates if slot in values and values[slot][0] * den == num * values[slot][1]]


def _is_better(p: tuple[int, int], q: tuple[int, int], highest: bool) -> bool:
    """Whether the probability p = (num, den) is strictly higher (``highest``) or lower
    than q, den > 0."""
    return p[0] * q[1] > q[0] * p[1] if highest else p[0] * q[1] < q[0] * p[1]


def build(params: Mapping[str, Value]) -> StrategyFactory:
    """The factory of :class:`ThesisStrategy` with resolved ``params``."""
    frozen = dict(params)

    def factory(config: GameConfig, seat: int, seed: int) -> ThesisStrategy:
        return ThesisStrategy(config, seat, seed, frozen)

    return factory


THESIS_SPEC = StrategySpec(
    "thesis",
    "Algorithm 4.6: play if P(playable) >= omega_p, discard worthless, hint by rho_h, discard by rho_d",
    THESIS_PARAMS,
    build,
    upward_stacks_problem,
)
