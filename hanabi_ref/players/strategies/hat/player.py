"""The classic hat player: hat-guessing with nine actions, clues that skip players still holding
an instruction, the standard action evaluated last-to-first and a modified action for
the first clued player [H-player].

Every hint is a *clue*: a number in range(9) (:mod:`~hanabi_ref.players.strategies.hat.codes`)
that tells each *clued* player one action (its hat value, H-values).  A clue clues every
other player that does not hold an instruction yet, in turn order (H-clued).  The
cluer gives each clued player its *standard action* (H-standard), computed from the
last clued player to the first on the public state at the first clued player's turn
(H-snapshot), except the first clued player, who gets a *modified action* (H-modified);
it sends the sum (H-sum).  A clued player recovers its own action at its turn from the
number, the standard actions of the clued players after it (it sees their hands) and
the observed actions of those before it (H-decode).

All bookkeeping is public and the same for every seat (H-common): who holds an
instruction from which clue, the clue numbers, the snapshots and the observed actions.
Each seat keeps it up to date in :meth:`HatPlayer.observe`, which the game calls after
every action ("thinking out of turn").
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence

from hanabi_ref.engine.actions import Action, Discard, Hint, Play
from hanabi_ref.base.errors import ConfigError, HanabiError
from hanabi_ref.players.strategy import BaseStrategy, StrategyFactory
from hanabi_ref.players.strategies.adapt import ForeignMove, adaptive
from hanabi_ref.engine.cards import Identity, rank_of, suit_of
from hanabi_ref.engine.config import GameConfig
from hanabi_ref.engine.state import Event, attainable_from_counts
from hanabi_ref.engine.tables import Tables, tables_for
from hanabi_ref.players.strategies.hat.codes import ClueCode, SeenHandsMemo, check_choice, decode_event, hat_code
from hanabi_ref.players.strategies.hat.core import hat_sum, recover
from hanabi_ref.players.strategies.knowledge import classic_touch_problem, composition_counts
from hanabi_ref.players.strategies.hat.values import (
    CLUE,
    DISCARD_VALUES,
    IS_DISCARD,
    IS_PLAY,
    MODULUS,
    PLAY_VALUES,
    SLOT_OF,
    SLOTS,
    describe_value,
    value_of_action,
)
from hanabi_ref.players.strategies.params import Param, StrategySpec, Value
from hanabi_ref.engine.view import PlayerView

PLAYERS = (4, 5)


class HatDecodingError(HanabiError):
    """[H-decode-check] With ``check=1``: a clued player recovered another action than the
    cluer encoded for it."""


# ------------------------------------------------------------------ the public state


class Snapshot:
    """The public numbers the standard action reads [H-snapshot]: field heights, copies
    discarded per identity, hint tokens, cards in the stack, errors.

    A plain class, not a named tuple: the compiled build makes it a native class, whose
    construction (several per turn of every seat) costs a fraction of a named tuple's
    interpreted constructor.  Equal when the five numbers are; :meth:`_replace` as a
    named tuple's.  Nothing changes one once made."""

    __slots__ = ("fields", "discarded", "tokens", "stack", "errors")

    def __init__(self, fields: tuple[int, ...], discarded: tuple[int, ...], tokens: int, stack: int, errors: int) -> None:
        self.fields = fields
        self.discarded = discarded
        self.tokens = tokens
        self.stack = stack
        self.errors = errors

    def _replace(self, *, tokens: int | None = None, stack: int | None = None, errors: int | None = None) -> Snapshot:
        """A copy with the given numbers changed."""
        return Snapshot(
            self.fields,
            self.discarded,
            self.tokens if tokens is None else tokens,
            self.stack if stack is None else stack,
            self.errors if errors is None else errors,
        )

    def numbers(self) -> tuple[tuple[int, ...], tuple[int, ...], int, int, int]:
        """The five numbers in order."""
        return self.fields, self.discarded, self.tokens, self.stack, self.errors

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Snapshot) and self.numbers() == other.numbers()

    def __hash__(self) -> int:
        return hash(self.numbers())

    def __repr__(self) -> str:
        return (f"Snapshot(fields={self.fields!r}, discarded={self.discarded!r}, tokens={self.tokens!r}, "
                f"stack={self.stack!r}, errors={self.errors!r})")


def snapshot_of(view: PlayerView) -> Snapshot:
    """The public numbers of a view [H-snapshot]."""
    discarded = [0] * (view.config.values * len(view.fireworks))
    for _, card in view.discard:
        discarded[card] += 1
    return Snapshot(view.fireworks, tuple(discarded), view.clue_tokens, view.deck_size, view.strikes)


def reachable_score(config: GameConfig, snap: Snapshot) -> int:
    """The highest score still possible: each field can grow up to the first value all
    of whose copies are discarded [H-standard rule 3], as the engine's R-1 counts it."""
    return attainable_from_counts(config, snap.fields, snap.discarded)


def after(config: GameConfig, snap: Snapshot, value: int, hand: Sequence[Identity]) -> Snapshot:
    """The public numbers after a seat holding identities ``hand`` carries out ``value``
    (as 2.16-2a/b/c change them; the drawn card is not public) [H-predict]."""
    fields, discarded, tokens, stack, errors = snap.fields, snap.discarded, snap.tokens, snap.stack, snap.errors
    if value == CLUE:
        return Snapshot(fields, discarded, tokens - 1, stack, errors)
    card = hand[SLOT_OF[value]]
    n = config.values
    suit, rank = suit_of(card, n), rank_of(card, n)
    stack = max(stack - 1, 0)
    if IS_PLAY[value] and fields[suit] == rank:
        grown = list(fields)
        grown[suit] += 1
        bonus = 1 if rank == n - 1 and tokens < config.max_hints else 0
        return Snapshot(tuple(grown), discarded, tokens + bonus, stack, errors)
    lost = list(discarded)
    lost[card] += 1
    if IS_PLAY[value]:
        return Snapshot(fields, tuple(lost), tokens, stack, errors + 1)
    return Snapshot(fields, tuple(lost), min(tokens + 1, config.max_hints), stack, errors)


# ------------------------------------------------------------------ the standard action


def standard_action(
    config: GameConfig,
    snap: Snapshot,
    hand: Sequence[Identity],
    later_plays: frozenset[Identity],
    may_clue: bool = True,
    may_discard: bool = True,
    *,
    tables: Tables | None = None,
) -> int:
    """The standard action of a clued player holding ``hand`` (identities by slot), when
    the clued players after it will play the identities ``later_plays`` [H-standard];
    ``may_clue`` and ``may_discard`` are the budgets of H-budget.  ``tables``: the
    configuration's tables (:func:`tables_for`), when the caller has read them once for
    several hands."""
    tables = tables_for(config) if tables is None else tables
    suit_of, rank_of, fields = tables.suit_of, tables.rank_of, snap.fields
    best: tuple[int, int] | None = None
    for slot, card in enumerate(hand):  # [H-standard rule 1] lowest value, then lowest slot
        rank = rank_of[card]
        if fields[suit_of[card]] == rank and card not in later_plays and (best is None or rank < best[0]):  # [4.2]
            best = (rank, slot)
    if best is not None:
        return PLAY_VALUES[best[1]]
    if may_clue and snap.tokens >= 6:  # [H-standard rule 2]
        return CLUE
    missing = reachable_score(config, snap) - sum(snap.fields)
    if may_clue and 3 * (snap.stack - missing) < snap.tokens - 1:  # [H-standard rule 3] d - u < (h - 1) / 3
        return CLUE
    easy = easy_discard(config, snap, hand, later_plays, tables=tables) if may_discard else None
    if easy is not None:  # [H-standard rule 4, H-standard rule 5, H-standard rule 6]
        return DISCARD_VALUES[easy]
    if may_clue or not may_discard:  # [H-standard rule 7]
        return CLUE
    safe = hard_discards(config, snap, hand, tables=tables)  # [H-budget] no token for a clue
    return DISCARD_VALUES[safe[0] if safe else len(hand) - 1]


def easy_discard(
    config: GameConfig, snap: Snapshot, hand: Sequence[Identity], later_plays: frozenset[Identity], *, tables: Tables | None = None
) -> int | None:
    """[H-standard rule 4, H-standard rule 5, H-standard rule 6] the lowest slot holding a card already
    played, else one of two equal cards, else a card a later clued player will play."""
    tables = tables_for(config) if tables is None else tables
    suit_of, rank_of = tables.suit_of, tables.rank_of
    for slot, card in enumerate(hand):
        if rank_of[card] < snap.fields[suit_of[card]]:
            return slot
    for slot, card in enumerate(hand):
        if card in hand[slot + 1 :]:
            return slot
    for slot, card in enumerate(hand):
        if card in later_plays:
            return slot
    return None


def standard_values(config: GameConfig, snap: Snapshot, hands: Sequence[Sequence[Identity]], position: int = 0) -> list[int]:
    """The standard actions of clued players holding ``hands`` (in acting order, the first
    at ``position`` in its clue), computed from the last to the first
    [H-standard, H-last-to-first], within the budgets of H-budget: a clue only while the
    clues of the players after it leave a token, a discard only while the players before
    it cannot have filled the tokens."""
    values = [CLUE] * len(hands)
    plays: frozenset[Identity] = frozenset()
    clues = 0
    tables = tables_for(config)
    for index in range(len(hands) - 1, -1, -1):
        may_clue = clues + 1 <= snap.tokens
        may_discard = config.options.discard_at_max_hints or snap.tokens + position + index < config.max_hints
        value = standard_action(config, snap, hands[index], plays, may_clue, may_discard, tables=tables)
        values[index] = value
        if IS_PLAY[value]:
            plays = plays | {hands[index][SLOT_OF[value]]}
        elif value == CLUE:
            clues += 1
    return values


# ------------------------------------------------------------------ the modified action


def tokens_before(config: GameConfig, snap: Snapshot, plan: Sequence[tuple[int, Sequence[Identity]]]) -> list[int]:
    """The hint tokens before each action of ``plan`` ((value, hand) in acting order)."""
    result = []
    for value, hand in plan:
        result.append(snap.tokens)
        snap = after(config, snap, value, hand)
    return result


def is_executable(config: GameConfig, value: int, tokens: int, hand_size: int) -> bool:
    """Whether a seat with ``tokens`` tokens and ``hand_size`` cards may carry out ``value``
    [H-feasible]."""
    if value == CLUE:
        return tokens >= 1
    if SLOT_OF[value] >= hand_size:
        return False
    return IS_PLAY[value] or tokens < config.max_hints or config.options.discard_at_max_hints


def is_feasible(config: GameConfig, snap: Snapshot, plan: Sequence[tuple[int, Sequence[Identity]]]) -> bool:
    """[H-feasible] every action of the plan can be carried out at its turn."""
    return all(
        is_executable(config, value, tokens, len(hand))
        for (value, hand), tokens in zip(plan, tokens_before(config, snap, plan))
    )


def modified_candidates(
    config: GameConfig, snap: Snapshot, hand: Sequence[Identity], rest: Sequence[tuple[int, Sequence[Identity]]]
) -> list[int]:
    """The actions the first clued player may be given, best first [H-modified]: the
    source's list, then every other action, safe ones before risky plays."""
    tables = tables_for(config)
    later_plays = frozenset(h[SLOT_OF[v]] for v, h in rest if IS_PLAY[v])
    standard = standard_action(config, snap, hand, later_plays, tables=tables)
    plan = [(standard, hand), *rest]
    tokens = tokens_before(config, snap, plan)[1:]
    clue_starved = any(v == CLUE and t < 1 for (v, _), t in zip(rest, tokens))
    discard_blocked = any(IS_DISCARD[v] and t >= config.max_hints for (v, _), t in zip(rest, tokens))
    playable = [snap.fields[tables.suit_of[card]] == tables.rank_of[card] for card in hand]  # [4.2] by slot
    top = config.values - 1
    fives = [slot for slot, card in enumerate(hand) if tables.rank_of[card] == top and playable[slot] and card not in later_plays]
    ordered: list[int] = []
    if fives and clue_starved:  # [H-modified rule 1]
        ordered.append(PLAY_VALUES[fives[0]])
    if IS_PLAY[standard]:  # [H-modified rule 2]
        ordered.append(standard)
    if discard_blocked:  # [H-modified rule 3]
        ordered.append(CLUE)
    idle = standard == CLUE and all(v == CLUE for v, _ in rest)
    if not clue_starved and not idle:  # [H-modified rule 4]
        ordered.append(standard)
    easy = easy_discard(config, snap, hand, later_plays, tables=tables)
    if easy is not None:  # [H-modified rule 5]
        ordered.append(DISCARD_VALUES[easy])
    ordered.extend(DISCARD_VALUES[slot] for slot in hard_discards(config, snap, hand, tables=tables))  # [H-modified rule 6]
    ordered.append(CLUE)  # [H-modified rule 7]
    safe_plays = [PLAY_VALUES[slot] for slot in range(len(hand)) if playable[slot]]
    ordered.extend(safe_plays + [DISCARD_VALUES[slot] for slot in range(len(hand))] + [PLAY_VALUES[slot] for slot in range(len(hand))])
    seen: list[int] = []
    for value in ordered:
        if value not in seen:
            seen.append(value)
    return seen


def hard_discards(config: GameConfig, snap: Snapshot, hand: Sequence[Identity], *, tables: Tables | None = None) -> list[int]:
    """[H-modified rule 6] slots whose card is not unsafe to discard: another copy of it is
    neither discarded nor on its field."""
    composition = composition_counts(config)
    tables = tables_for(config) if tables is None else tables
    suit_of, rank_of = tables.suit_of, tables.rank_of
    slots = []
    for slot, card in enumerate(hand):
        on_field = 1 if rank_of[card] < snap.fields[suit_of[card]] else 0
        if composition[card] - snap.discarded[card] - on_field >= 2:
            slots.append(slot)
    return slots


# ------------------------------------------------------------------ common knowledge


class Clue:
    """One clue as every seat records it [H-common]: the cluer, the clued seats in acting
    order, the number, the snapshot at the first clued player's turn and the observed
    actions of the clued players who have acted."""

    __slots__ = ("turn", "cluer", "clued", "number", "snapshot", "observed")

    def __init__(self, turn: int, cluer: int, clued: tuple[int, ...], number: int) -> None:
        self.turn, self.cluer, self.clued, self.number = turn, cluer, clued, number
        self.snapshot: Snapshot | None = None
        self.observed: dict[int, int] = {}


class DecodeLog:
    """[H-decode-check] What the cluers of one game encoded and what the clued players
    recovered, by clue turn; shared by the seats of one game in check mode and by tests."""

    def __init__(self, strict: bool) -> None:
        self.strict = strict
        self.encoded: dict[int, dict[int, int]] = {}
        self.decoded: dict[int, dict[int, int]] = {}
        self.compared = 0
        """How many resolved values were compared with an encoded one (record_round)."""

    def record_decoded(self, turn: int, seat: int, value: int) -> None:
        self.decoded.setdefault(turn, {})[seat] = value
        intended = self.encoded.get(turn, {}).get(seat)
        if self.strict and intended is not None and intended != value:
            raise HatDecodingError(
                f"H-decode-check: seat {seat} recovered {describe_value(value)} from the clue of turn {turn}, "
                f"which encoded {describe_value(intended)}"
            )

    def record_round(self, turn: int, seat: int, values: Mapping[int, int]) -> None:
        """Seat ``seat`` resolved the value of every seat the clue of ``turn`` clued."""
        intended = self.encoded.get(turn, {})
        for clued, value in values.items():
            if clued == seat:
                self.decoded.setdefault(turn, {})[seat] = value
            if clued in intended:
                self.compared += 1
            if self.strict and clued in intended and intended[clued] != value:
                raise HatDecodingError(
                    f"H-decode-check: seat {seat} resolved {describe_value(value)} for seat {clued} from the clue "
                    f"of turn {turn}, which encoded {describe_value(intended[clued])}"
                )


class HatPlayer(BaseStrategy):
    """The hat player for one seat [H-player, H-configs]."""

    def __init__(self, config: GameConfig, seat: int, log: DecodeLog | None = None) -> None:
        CLASSIC_HAT_SPEC.check_config(config)  # also when built outside the command line
        self.config = config
        self.seat = seat
        self.code: ClueCode = hat_code(config)
        self.sight = SeenHandsMemo()
        """What this seat sees of every hand, kept from turn to turn [H-code-local]."""
        self.holding: list[Clue | None] = [None] * config.players
        self.log = log
        self.infeasible = 0

    # ------------------------------------------------------------------ bookkeeping

    def observe(self, view: PlayerView, event: Event) -> None:
        """[H-common] record the action: a clued player's observed value, a new clue; and
        the snapshot of a clue whose first clued player moves next."""
        actor = event.player
        clue = self.holding[actor]
        if clue is not None:
            clue.observed[actor] = value_of_action(event.action)
            self.holding[actor] = None
        if isinstance(event.action, Hint):
            clued = self.clueable(actor)
            number = decode_event(self.code, event, view.hands[event.action.target])
            if actor != self.seat and event.action.target != self.seat:
                check_choice(self.code, event, number, self.sight.of(view))  # [S-foreign-detect]
            new = Clue(event.turn, actor, clued, number)
            for seat in clued:
                self.holding[seat] = new
        if not view.terminal:
            upcoming = self.holding[view.current_player]
            if upcoming is not None and upcoming.snapshot is None and upcoming.clued[0] == view.current_player:
                upcoming.snapshot = snapshot_of(view)

    def clueable(self, cluer: int) -> tuple[int, ...]:
        """[H-clued] the other seats without an instruction, in turn order after the cluer."""
        players = self.config.players
        seats = ((cluer + offset) % players for offset in range(1, players))
        return tuple(seat for seat in seats if self.holding[seat] is None)

    # ------------------------------------------------------------------ the turn

    def act(self, view: PlayerView) -> Action:
        """[H-turn] carry out the recovered action, or clue, or discard the newest card."""
        clue = self.holding[self.seat]
        if clue is not None:
            value = self.decode(view, clue)
            following = (self.seat + 1) % self.config.players
            suit_of, rank_of = view.tables.suit_of, view.tables.rank_of
            if (
                IS_DISCARD[value]
                and view.clue_tokens > 0
                and clue.clued[-1] == self.seat
                and self.holding[following] is None
                and any(view.fireworks[suit_of[card]] == rank_of[card] for card in view.cards[following])  # type: ignore[index]
            ):
                return self.give_clue(view)  # [H-turn rule 2] the next player can play: clue instead
            return self.carry_out(view, value)
        if view.clue_tokens > 0 and self.clueable(self.seat):
            return self.give_clue(view)  # [H-turn rule 3]
        return self.fallback(view)

    def carry_out(self, view: PlayerView, value: int) -> Action:
        """[H-turn rule 1, H-feasible] the recovered action, or what replaces it when it
        cannot be carried out."""
        size = len(view.own_hand)
        if not is_executable(self.config, value, view.clue_tokens, size):
            self.infeasible += 1
            return self.fallback(view)
        if value == CLUE:
            return self.give_clue(view)
        slot = SLOT_OF[value]
        return Play(slot) if IS_PLAY[value] else Discard(slot)

    def fallback(self, view: PlayerView) -> Action:
        """[H-turn rule 4] discard the newest card; with all tokens, clue."""
        newest = max(range(len(view.own_hand)), key=view.own_hand.__getitem__)
        if is_executable(self.config, DISCARD_VALUES[newest], view.clue_tokens, len(view.own_hand)):
            return Discard(newest)
        if view.clue_tokens > 0:
            return self.give_clue(view)
        return Play(newest)  # neither a discard nor a clue is allowed

    # ------------------------------------------------------------------ decoding

    def decode(self, view: PlayerView, clue: Clue) -> int:
        """[H-decode] this seat's action: the number minus the observed actions of the
        clued players before it and the standard actions of those after it."""
        if clue.snapshot is None:  # set before the first clued seat moves, in an honest team
            raise ForeignMove("H-decode", f"the clue of turn {clue.turn} has no snapshot when this seat decodes it")
        index = clue.clued.index(self.seat)
        later = clue.clued[index + 1 :]
        hands = [view.cards[seat] for seat in later]
        others = standard_values(self.config, clue.snapshot, hands, index + 1)  # type: ignore[arg-type]
        others += [clue.observed[seat] for seat in clue.clued[:index]]
        value = recover(clue.number, others, MODULUS)  # [H-recover]
        if self.log is not None:
            self.log.record_decoded(clue.turn, self.seat, value)
        return value

    # ------------------------------------------------------------------ cluing

    def give_clue(self, view: PlayerView) -> Hint:
        """[H-cluing] a clue for every clueable seat: predict the public state at the first
        clued player's turn, give standard actions from the last to the second and the
        modified action to the first, send the sum."""
        config = self.config
        clued = self.clueable(self.seat)
        seen = self.sight.of(view)
        if not clued:  # [H-clued] nobody to clue: any sendable number
            return self.code.encode(self.seat, seen, _lowest(self.code.sendable(self.seat, seen)))
        snap = self.predict(view)
        hands = [view.cards[seat] for seat in clued]
        values = standard_values(config, snap, hands[1:], 1)  # type: ignore[arg-type]
        rest = list(zip(values, hands[1:]))
        sendable = self.code.sendable(self.seat, seen)
        first = self.choose_first(snap, hands[0], rest, sum(values), sendable)  # type: ignore[arg-type]
        vector = [first, *values]
        if self.log is not None:
            self.log.encoded[view.turns] = dict(zip(clued, vector))
        return self.code.encode(self.seat, seen, hat_sum(vector, MODULUS))

    def choose_first(
        self, snap: Snapshot, hand: Sequence[Identity], rest: list[tuple[int, Sequence[Identity]]], total: int, sendable: int
    ) -> int:
        """[H-modified, H-feasible, H-code-rainbow] the first candidate action that the first
        clued player can carry out, that leaves every action of the clue executable, and
        whose sum can be sent; failing that, one that can be carried out and sent."""
        candidates = modified_candidates(self.config, snap, hand, rest)
        usable = [
            value for value in candidates
            if sendable >> ((total + value) % MODULUS) & 1 and is_executable(self.config, value, snap.tokens, len(hand))
        ]
        for value in usable:
            if is_feasible(self.config, snap, [(value, hand), *rest]):
                return value
        return usable[0]

    def predict(self, view: PlayerView) -> Snapshot:
        """[H-predict] the public numbers at the turn of the first seat this clue will
        clue: after this hint and the actions of every seat still holding an instruction
        (their order is turn order; every seat that holds none comes after them)."""
        config = self.config
        snap = snapshot_of(view)
        snap = Snapshot(snap.fields, snap.discarded, snap.tokens - 1, snap.stack, snap.errors)
        predicted: dict[int, Snapshot] = {}
        players = config.players
        for offset in range(1, players):
            seat = (self.seat + offset) % players
            clue = self.holding[seat]
            if clue is None:
                break
            start = clue.snapshot or predicted.setdefault(id(clue), snap)
            value = self.planned(view, clue, seat, start)
            snap = after(config, snap, value, view.cards[seat])  # type: ignore[arg-type]
        return snap

    def planned(self, view: PlayerView, clue: Clue, seat: int, start: Snapshot) -> int:
        """The action of another seat still holding an instruction [H-common]: the
        standard action of a clued player after the first, the number minus the others
        for the first."""
        config = self.config
        hands = [view.cards[s] for s in clue.clued]
        index = clue.clued.index(seat)
        if index > 0:
            return standard_values(config, start, hands[index:], index)[0]  # type: ignore[arg-type]
        values = standard_values(config, start, hands[1:], 1)  # type: ignore[arg-type]
        return recover(clue.number, values, MODULUS)


def _lowest(mask: int) -> int:
    return (mask & -mask).bit_length() - 1


def unsupported_by(config: GameConfig, code_of: Callable[[GameConfig], object], gives: str) -> str | None:
    """Why a hat strategy whose clue code is ``code_of(config)`` and which gives ``gives``
    cannot play ``config``, or None [H-configs, S-variants]."""
    if config.players not in PLAYERS:
        return f"supports 4 or 5 players, got {config.players}"
    if config.hand_size != SLOTS:
        return f"supports hands of {SLOTS} cards (4 or 5 players), got {config.hand_size}"
    if config.max_hints < 1:
        return f"needs hint tokens to give {gives} (t0 >= 1)"
    problem = classic_touch_problem(config)  # [S-variants] the codes assume classic touch
    if problem is not None:
        return problem
    try:
        code_of(config)
    except ConfigError as error:
        return str(error)
    return None


@functools.lru_cache(maxsize=64)
def unsupported(config: GameConfig) -> str | None:
    """Why the hat player cannot play ``config``, or None [H-configs]; found once per
    configuration (every seat of every game checks it when it is built)."""
    return unsupported_by(config, hat_code, "clues")


def build(params: Mapping[str, Value]) -> StrategyFactory:
    """The factory of :class:`HatPlayer`; with ``check=1`` the seats of a game share a
    :class:`DecodeLog` that stops the game at the first wrongly recovered action."""
    check = bool(params.get("check", 0))
    logs: list[DecodeLog] = []

    def factory(config: GameConfig, seat: int, seed: int) -> HatPlayer:
        if not check:
            return HatPlayer(config, seat)
        if seat == 0 or not logs:  # play_game builds seat 0 first: a new game
            logs[:] = [DecodeLog(strict=True)]
        return HatPlayer(config, seat, logs[0])

    return factory if check else adaptive(factory)  # [S-foreign]; check mode reports, never adapts


HAT_PARAMS = (
    Param("check", "int", 0, "1: stop a game when a clued player recovers another action than encoded [H-decode-check]", choices=(0, 1)),
)

CLASSIC_HAT_SPEC = StrategySpec(
    "hat-classic",
    "the hat player as the source describes it before March 2019: clues skip seats holding an instruction",
    HAT_PARAMS,
    build,
    unsupported,
)
