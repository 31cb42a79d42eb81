"""The lookup tables of a configuration, built once, and the one cache the kernel keeps
[2.16-actions, 2.16-2a-value, 2.16-2a-suit, 2.16-2a-empty, VAR-engine-masks].

A :class:`Tables` holds what is derived from a
:class:`~hanabi_ref.engine.config.GameConfig`: N, Cards(H) as a mask, the identities each
hint touches, the touch bits of a hand's key, every action object (the
:class:`ActionCatalogue`), the canonical deck, the rule set of the variant family and
its complete stacks, the maximum score.  Each table is computed when first asked for.
It is not a value: it owns a bounded memo (:meth:`Tables.hints_touching`), so it is a
plain object that a game's states and views carry (``state.tables``, ``view.tables``),
never part of a configuration's equality.

Code that holds only a configuration gets its tables from :func:`tables_for`.
"""

from __future__ import annotations

import functools
from typing import Final, Literal

import attrs

from hanabi_ref.engine.actions import Discard, Hint, Play
from hanabi_ref.engine.cards import CardId, Identity, canonical_deck, identity, rank_table, suit_table
from hanabi_ref.engine.config import GameConfig
from hanabi_ref.engine.legality import is_hint_target_allowed
from hanabi_ref.engine.validation import card_count, is_literal_empty_deal, variant_model
from hanabi_ref.engine.variants import engine as variant_engine
from hanabi_ref.engine.variants.model import Variant
from hanabi_ref.engine.variants.ruleset import THESIS, RuleSet


@attrs.frozen
class ActionCatalogue:
    """Every action object of a configuration, made once [2.16-actions].

    ``hints[target]`` pairs each hint to that seat (colours, then values) with the
    identities it touches; ``hint_actions[target]`` is the same without the masks;
    ``discards[slot]`` and ``plays[slot]`` for slots 0..h-1."""

    hints: tuple[tuple[tuple[Hint, int], ...], ...]
    discards: tuple[Discard, ...]
    plays: tuple[Play, ...]
    hint_targets: tuple[tuple[int, ...], ...]
    """``hint_targets[current]``: the seats the player at ``current`` may hint, in order
    (:func:`hanabi_ref.engine.legality.is_hint_target_allowed`, decided once per configuration)."""
    hint_actions: tuple[tuple[Hint, ...], ...]


MEMO_LIMIT: Final = 4096
"""Entries a :meth:`Tables.hints_touching` memo holds per target before it starts
again, so that long runs keep a bounded table."""


class Tables:
    """The lookup tables of one configuration [2.16-actions], each built when first
    asked for, and the memo of the hints touching a hand (:meth:`hints_touching`).

    A game's states carry one (``state.tables``, set by
    :func:`~hanabi_ref.engine.transition.initial_state` and copied to every successor);
    a seat's views carry that seat's own copy (:meth:`for_seat`, ISO-views)."""

    def __init__(self, config: GameConfig) -> None:
        self.config: Final = config
        self.touching_memo: tuple[dict[int, tuple[Hint, ...]], ...] = tuple({} for _ in range(config.players))
        """Per target, the hints touching a hand, by the hand's touch key (see
        :attr:`touch_bits`): filled by :meth:`hints_touching`.  A key says only which
        hints touch the hand, so there are at most 2^(hints) of them (1,024 with five
        suits and five values) however many hands there are, and each memo starts
        again at :data:`MEMO_LIMIT` entries."""

    def for_seat(self) -> Tables:
        """A copy for one seat's views [ISO-views]: the same immutable tables (tuples,
        integers, frozen slotted records), with an attribute dictionary and hint memos
        of its own, so that what a seat writes into them reaches no other seat."""
        copy: Tables = object.__new__(Tables)
        copy.__dict__.update((name, value) for name, value in self.__dict__.items() if name not in _MUTABLE)
        copy.__dict__["touching_memo"] = tuple({} for _ in self.touching_memo)
        return copy

    def hints_touching(self, target: int, touch_key: int) -> tuple[Hint, ...]:
        """The hints to ``target`` that touch a card of a hand with touch key
        ``touch_key`` (bit i: the i-th hint of ``action_catalogue.hints[target]``
        touches one of its cards), in catalogue order [2.16-2a-empty, 2.16-actions]."""
        memo = self.touching_memo[target]
        found = memo.get(touch_key)
        if found is None:
            if len(memo) >= MEMO_LIMIT:
                memo.clear()
            found = memo[touch_key] = tuple(
                hint for index, (hint, _) in enumerate(self.action_catalogue.hints[target]) if touch_key >> index & 1
            )
        return found

    @functools.cached_property
    def deck_size(self) -> int:
        """N, the number of cards in S0, always finite [2.9-S0, E-17]."""
        return card_count(self.config)

    @functools.cached_property
    def all_cards_mask(self) -> int:
        """Cards(H) as a bitmask: every (value, suit), whatever the composition [2.14-initial]."""
        return (1 << (self.config.values * self.config.suit_count)) - 1

    @functools.cached_property
    def model(self) -> Variant | None:
        """The variant model of a hanab.live variant name (spec/variants.md VAR-model,
        VAR-existing), or None for "Custom" and the thesis' Dutch Rainbow."""
        return variant_model(self.config.variant)

    @functools.cached_property
    def rank_masks(self) -> tuple[int, ...]:
        """For each value a, the identities {(a, y)} of that value, whatever touches them."""
        n, k = self.config.values, self.config.suit_count
        return tuple(
            sum(1 << identity(a, y, n) for y in range(k)) for a in range(1, n + 1)
        )

    @functools.cached_property
    def value_masks(self) -> tuple[int, ...]:
        """For each value a, the identities a value hint on a touches [2.16-2a-value]:
        {(a, y)}, or under a modelled variant those its rank clue a touches, 0 where the
        variant offers no such clue [VAR-engine-masks]."""
        if self.model is not None:
            return _model_masks(self.config.variant)[1]
        return self.rank_masks

    @functools.cached_property
    def colour_masks(self) -> tuple[int, ...]:
        """For each clue colour, the identities of every suit it touches [2.16-2a-suit];
        under a modelled variant, the identities it touches [VAR-engine-masks]."""
        if self.model is not None:
            return _model_masks(self.config.variant)[0]
        n = self.config.values
        masks = []
        for colour in range(len(self.config.colours)):
            mask = 0
            for suit_index, suit in enumerate(self.config.suits):
                if colour in suit.touched_by:
                    mask |= sum(1 << identity(a, suit_index, n) for a in range(1, n + 1))
            masks.append(mask)
        return tuple(masks)

    @functools.cached_property
    def clue_values(self) -> tuple[int, ...]:
        """The values a value hint may name: 1..n, or the rank clues of a modelled
        variant (VAR-clue-ranks: Pink-Ones has 2-5, Odds and Evens 1 and 2, Number Mute
        none)."""
        if self.model is not None:
            return self.model.clue_ranks
        return tuple(range(1, self.config.values + 1))

    @functools.cached_property
    def hint_order(self) -> tuple[tuple[Literal["colour", "value"], int, int], ...]:
        """(kind, subject, mask) of every hint to one target in catalogue order: clue
        colours, then the values of :attr:`clue_values` [2.16-actions]."""
        colours: tuple[tuple[Literal["colour", "value"], int, int], ...] = tuple(
            ("colour", c, mask) for c, mask in enumerate(self.colour_masks))
        return colours + tuple(("value", v, self.value_masks[v - 1]) for v in self.clue_values)

    @functools.cached_property
    def hint_bits(self) -> dict[tuple[str, int], int]:
        """The bit of each hint (kind, subject) in a touch key: 1 << its place in
        :attr:`hint_order`."""
        return {(kind, subject): 1 << index for index, (kind, subject, _) in enumerate(self.hint_order)}

    @functools.cached_property
    def inverted_mask(self) -> int:
        """The identities whose play and discard are swapped: the orange suits of a
        modelled variant (VAR-engine-orange); 0 otherwise."""
        return _model_masks(self.config.variant)[2] if self.model is not None else 0

    @functools.cached_property
    def free_hint_bits(self) -> int:
        """The bits of the hints that are legal even when they touch no card: colour
        clues under Color Blind, rank clues under Number Blind (VAR-blind)."""
        rules = self.model.rules if self.model is not None else None
        if rules is None:
            return 0
        blind = {"colour": rules.colour_blind, "value": rules.number_blind}
        return sum(bit for (kind, _), bit in self.hint_bits.items() if blind[kind])

    @functools.cached_property
    def touch_bits(self) -> tuple[int, ...]:
        """For each identity, which hints touch it, as bits in the order of a target's
        hints in :attr:`action_catalogue` (:attr:`hint_order`: clue colours, then
        values; with values 1..n, bit c for colour c and bit (number of colours) + a - 1
        for value a) [2.16-2a-value, 2.16-2a-suit].  A hand's touch key, the OR of its
        cards' bits, says which hints touch a card of it [2.16-2a-empty]."""
        masks = tuple(mask for _, _, mask in self.hint_order)
        return tuple(
            sum(1 << index for index, mask in enumerate(masks) if mask >> card & 1)
            for card in range(self.config.values * self.config.suit_count)
        )

    @functools.cached_property
    def is_literal_empty_deal(self) -> bool:
        """[E-6] the literal reading applies: step 3 is not checked after the deal and the
        deal takes the whole stack, so the first player moves twice."""
        return is_literal_empty_deal(self.config)

    @functools.cached_property
    def action_catalogue(self) -> ActionCatalogue:
        """All action objects, so that listing legal actions creates none [2.16-actions]."""
        hints = tuple(
            tuple((Hint(target, kind, subject), mask) for kind, subject, mask in self.hint_order)
            for target in range(self.config.players)
        )
        seats = range(self.config.players)
        targets = tuple(tuple(t for t in seats if is_hint_target_allowed(self.config, current, t)) for current in seats)
        slots = range(self.config.hand_size)
        # plays[h]: the play of the stack's last card after a hand of h cards (R-deck-plays).
        plays = tuple(Play(s) for s in range(self.config.hand_size + 1))
        actions = tuple(tuple(hint for hint, _ in target_hints) for target_hints in hints)
        return ActionCatalogue(hints, tuple(Discard(s) for s in slots), plays, targets, actions)

    @functools.cached_property
    def dealt_hands(self) -> tuple[tuple[CardId, ...], ...]:
        """[2.16-1-deal] the card ids each seat is dealt: consecutive blocks of h, seat 0
        first (erratum E-1), or one card at a time round the table (option ``deal``);
        under ``draw_position = "newest-first"`` [R-2] slot 0 holds the newest card, from
        the deal on.  Step 1 reads it for every game of the configuration."""
        config = self.config
        p, h = config.players, config.hand_size
        if config.options.deal == "round-robin":
            hands = [tuple(range(seat, p * h, p)) for seat in range(p)]
        else:
            hands = [tuple(range(seat * h, (seat + 1) * h)) for seat in range(p)]
        if config.options.draw_position == "newest-first":
            hands = [hand[::-1] for hand in hands]
        return tuple(tuple(CardId(card_id) for card_id in hand) for hand in hands)

    @functools.cached_property
    def dealt_knowledge(self) -> tuple[tuple[int, ...], ...]:
        """[2.14-initial] every dealt card's K_c = Cards(H), seat by seat, slot by slot
        (:attr:`dealt_hands`)."""
        return tuple((self.all_cards_mask,) * len(hand) for hand in self.dealt_hands)

    @functools.cached_property
    def canonical_deck(self) -> tuple[Identity, ...]:
        """S0's multiset in canonical order [D-canonical]."""
        return canonical_deck(self.config.suits, self.config.values)

    @functools.cached_property
    def suit_of(self) -> tuple[int, ...]:
        """``suit_of[x]``: the suit (0-based) of identity x, for x in Cards(H): the decoder
        :func:`~hanabi_ref.engine.cards.suit_of` as a table, for hot loops [2.9-cards]."""
        return suit_table(self.config.values, self.config.values * self.config.suit_count)

    @functools.cached_property
    def rank_of(self) -> tuple[int, ...]:
        """``rank_of[x]``: the rank (value less one) of identity x, for x in Cards(H): the
        decoder :func:`~hanabi_ref.engine.cards.rank_of` as a table, for hot loops
        [2.9-cards]."""
        return rank_table(self.config.values, self.config.values * self.config.suit_count)

    @functools.cached_property
    def sorted_deck(self) -> list[int]:
        """S0's multiset as a sorted list, to check a deck against [2.9-S0]."""
        return sorted(self.canonical_deck)

    @functools.cached_property
    def max_score(self) -> int:
        """n * k, the score of a perfect game [2.16-3-max]; 5 per suit under Up or Down,
        whose sixth value is the START card (VAR-max-score, VAR-engine-up-or-down)."""
        return self.stack_height * self.config.suit_count

    @functools.cached_property
    def rule_set(self) -> RuleSet:
        """What the steps of Algorithm 2.16 ask of the rules, answered for this game's
        variant family: the thesis' rules, or those of a modelled variant's family
        (:func:`hanabi_ref.engine.variants.engine.rule_set`, VAR-engine)."""
        return variant_engine.rule_set(self.model) if self.model is not None else THESIS

    @functools.cached_property
    def stack_ways(self) -> tuple[tuple[int, ...], ...]:
        """Every complete field stack of the rule set, its values in play order [2.13-4]:
        (1, ..., n) under the thesis (:meth:`RuleSet.ways`, asked once per configuration)."""
        return self.rule_set.ways(self.config.values)

    @functools.cached_property
    def stack_height(self) -> int:
        """The cards of a complete field stack: n, or what the variant family says (5
        under Up or Down) [2.16-2c-five]."""
        return self.rule_set.stack_height(self.config.values)


_MUTABLE: Final = frozenset({"touching_memo", "sorted_deck"})
"""The attributes of a :class:`Tables` that hold mutable objects (memo dicts, a list): a
seat's copy has its own."""


@functools.lru_cache(maxsize=512)
def _model_masks(variant: str) -> tuple[tuple[int, ...], tuple[int, ...], int]:
    """[VAR-engine-masks, VAR-engine-orange] the colour masks, rank-clue masks and orange
    identities of a hanab.live name the engine plays, once per name (a string key and
    tuples of integers, at most 512 names)."""
    model = variant_engine.engine_variant(variant)
    return variant_engine.colour_masks(model), variant_engine.value_masks(model), variant_engine.inverted_mask(model)


@functools.lru_cache(maxsize=32)
def tables_for(config: GameConfig) -> Tables:
    """The tables of ``config``, for code that holds only a configuration (a game's
    states and views carry theirs).

    This is the kernel's one cache keyed by configuration: building the tables (the
    action catalogue above all) costs far more than a move, and a run plays game after
    game of one configuration.  It is bounded (32 configurations, more than a sweep over
    presets, variants and player counts uses at once), and what it keeps is derived from
    immutable configurations, so nothing of a game is reachable through it."""
    return Tables(config)
