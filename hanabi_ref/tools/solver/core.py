"""The solver's own model of the open game, on plain values [SV-core] (spec/solver.md).

:mod:`hanabi_ref.tools.solver.search` moves through the engine's states; that is the plain
search, kept as the reference.  This module makes the same moves on a position that is
nothing but its key (SV-key): the field heights, every hand as a sorted tuple of
identities, how much of the stack is drawn, tokens, errors, the seat to move and the
last round's count.  One move here is a few tuple operations where the engine's builds a
state with knowledge and history, so the search runs several times faster.  The rules it
applies are the engine's, option by option (Algorithm 2.16: the five's token, the token
cap, discards at the cap, which hints exist, when the last round starts and ends); the
tests compare every answer with the plain search and with the open-game model of
``hanabi_ref/tools/playability/opengame.py``, and a winning line found here is replayed by the
engine before anyone counts it.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Generator, Sequence

from hanabi_ref.engine.actions import Action, Discard, Hint, Play
from hanabi_ref.engine.legality import legal_actions
from hanabi_ref.engine.config import GameConfig
from hanabi_ref.engine.state import GameState, attainable_heights
from hanabi_ref.engine.transition import apply_legal, initial_state
from hanabi_ref.engine.tables import tables_for

Hands = tuple[tuple[int, ...], ...]
Position = tuple[tuple[int, ...], Hands, int, int, int, int, int]
"""(fields, hands, cards drawn, tokens, errors, seat to move, R) with R = -9 while the
last round has not begun: SV-key, which is the whole position."""

NOT_STARTED = -9
"""R before the last round (the engine's None)."""

Move = tuple[str, int]
"""("play" | "discard" | "misplay", identity) or ("hint", -1)."""


class OutOfBudget(Exception):
    """The node budget or the time limit ran out [SV-result]."""


class Stats:
    """What one search did: positions expanded, and how often each rule cut."""

    __slots__ = ("nodes", "cuts")

    def __init__(self) -> None:
        self.nodes = 0
        self.cuts: dict[str, int] = {}

    def cut(self, rule: str) -> None:
        self.cuts[rule] = self.cuts.get(rule, 0) + 1


class OpenGame:
    """One configuration and deck: the constants the moves read, computed once."""

    def __init__(self, config: GameConfig, deck: Sequence[int]) -> None:
        tables = tables_for(config)
        self.config = config
        self.deck = tuple(deck)
        state = initial_state(config, self.deck)
        self.players = config.players
        self.values = config.values
        self.suits = config.suit_count
        self.suit_of, self.rank_of = tables.suit_of, tables.rank_of
        """The suit and the rank (value less one) of each identity [2.9-cards]."""
        self.max_hints = config.max_hints
        self.max_errors = config.max_errors
        self.max_score = tables.max_score
        self.copies = tuple(count for suit in config.suits for count in suit.counts)
        self.discard_at_max = config.options.discard_at_max_hints
        self.empty_hints = config.options.empty_hints
        self.hint_targets = tables.action_catalogue.hint_targets
        self.touch_bits = tables.touch_bits
        self.all_touched = all(self.touch_bits)
        """every identity is touched by some hint (SV-dead needs it: a hint's target then
        only needs a card, whichever it is)"""
        self.start_terminal = state.terminal
        kinds = len(self.copies)
        self.in_stack: list[tuple[int, ...]] = []
        """``in_stack[d][x]``: the copies of identity x among the cards after the first d"""
        counts = [0] * kinds
        for card in reversed(self.deck):
            self.in_stack.append(tuple(counts))
            counts[card] += 1
        self.in_stack.append(tuple(counts))
        self.in_stack.reverse()
        self.first_draw: list[tuple[int, ...]] = []
        """``first_draw[d][x]``: the draw (1 for the top) that brings the first copy of x
        after the first d cards, or one more than the stack when none comes"""
        for drawn in range(len(self.deck) + 1):
            stack = len(self.deck) - drawn
            first = [stack + 1] * kinds
            for depth in range(stack, 0, -1):
                first[self.deck[drawn + depth - 1]] = depth
            self.first_draw.append(tuple(first))
        hands = tuple(tuple(sorted(self.deck[card] for card in hand)) for hand in state.hands)
        remaining = NOT_STARTED if state.remaining is None else state.remaining
        self.start: Position = (state.fireworks, hands, state.next_card, state.clue_tokens, state.strikes, state.current_player, remaining)

    # ------------------------------------------------------------------ moves
    def can_hint(self, hands: Hands, tokens: int, seat: int) -> bool:
        """[2.16-2a-token, 2.16-2a-target, 2.16-2a-empty] some hint is legal: a token
        and a seat to hint that, without empty hints, holds a card some hint touches."""
        if tokens < 1:
            return False
        if self.empty_hints:
            return bool(self.hint_targets[seat])
        bits = self.touch_bits
        return any(bits[card] for target in self.hint_targets[seat] for card in hands[target])

    def after(self, position: Position, move: Move) -> Position:
        """The position after a move (step 2, the end of the move and step 3 as the
        engine orders them; a move that stops the game leaves R at 0 or -1)."""
        fields, hands, drawn, tokens, errors, seat, remaining = position
        kind, card = move
        deck_size = len(self.deck)
        if kind == "hint":
            tokens -= 1
            hand = hands[seat]
        else:
            hand_list = list(hands[seat])
            hand_list.remove(card)
            suit, value = self.suit_of[card], self.rank_of[card]
            if kind == "play":
                fields = fields[:suit] + (value + 1,) + fields[suit + 1:]
                if value + 1 == self.values and tokens < self.max_hints:
                    tokens += 1
            elif kind == "discard":
                if tokens < self.max_hints:
                    tokens += 1
            else:
                errors += 1
                if self.max_errors is not None and errors == self.max_errors:
                    remaining = -1
            if drawn < deck_size:
                hand_list.append(self.deck[drawn])
                hand_list.sort()
                drawn += 1
            hand = tuple(hand_list)
        if remaining > 0:
            remaining -= 1
        if remaining == NOT_STARTED and drawn == deck_size:
            remaining = self.players
        hands = hands[:seat] + (hand,) + hands[seat + 1:]
        return (fields, hands, drawn, tokens, errors, (seat + 1) % self.players, remaining)

    def action_for(self, move: Move, state_hand: Sequence[int], deck: Sequence[int]) -> Action:
        """The engine's action for ``move`` in a state whose mover holds ``state_hand``."""
        kind, card = move
        if kind == "hint":
            raise AssertionError("hints are chosen from the engine's legal list")
        slot = next(slot for slot, card_id in enumerate(state_hand) if deck[card_id] == card)
        return Discard(slot) if kind == "discard" else Play(slot)


def _height(game: OpenGame, suit: int, height: int, discarded: Sequence[int]) -> int:
    """[R-1] the height one suit can still reach from ``height``."""
    values, copies = game.values, game.copies
    base = suit * values
    while height < values and discarded[base + height] < copies[base + height]:
        height += 1
    return height


def discarded_counts(game: OpenGame, position: Position) -> list[int]:
    """How many copies of each identity are gone (discarded or misplayed): those drawn
    that are neither in a hand nor on a field (SV-key: the pile is implied)."""
    fields, hands, drawn = position[0], position[1], position[2]
    counts = [0] * len(game.copies)
    for card in game.deck[:drawn]:
        counts[card] += 1
    for hand in hands:
        for card in hand:
            counts[card] -= 1
    for suit, height in enumerate(fields):
        for value in range(height):
            counts[suit * game.values + value] -= 1
    return counts


def to_engine_line(game: OpenGame, moves: Sequence[Move]) -> tuple[tuple[Action, ...], GameState]:
    """[SV-result] the engine's actions for a line of the model's moves, each checked
    against the engine's legal list as it is made (a hint becomes the first legal hint),
    and the engine's state at the end of the line: the line replayed."""
    state = initial_state(game.config, game.deck)
    actions: list[Action] = []
    for move in moves:
        legal = legal_actions(state)
        if move[0] == "hint":
            action: Action = next(action for action in legal if isinstance(action, Hint))
        else:
            action = game.action_for(move, state.hands[state.current_player], state.deck)
            if action not in legal:
                raise AssertionError(f"the model's move {move} is not legal in the engine")
        actions.append(action)
        state = apply_legal(state, action)
    return tuple(actions), state


class Memo:
    """The positions proven unable to reach one target [SV-key, SV-relax]: kept across
    restarts, since a position is lost whatever order the moves are tried in."""

    __slots__ = ("lost", "lost_tokens")

    def __init__(self) -> None:
        self.lost: set[Position] = set()
        self.lost_tokens: dict[tuple[object, ...], int] = {}


def search(game: OpenGame, target: int, max_nodes: int, deadline: float | None, stats: Stats,
           relaxed: bool = False, shuffle: Callable[[list[Move]], None] | None = None,
           memo: Memo | None = None, relaxed_memo: Memo | None = None,
           without: frozenset[str] = frozenset()) -> list[Move] | None:
    """[SV-result, SV-dead] a line of moves from the deal to a score of at least ``target``, or
    None when there is none (the search completed); :class:`OutOfBudget` when
    ``max_nodes`` positions were expanded (or the deadline passed) first.

    ``relaxed`` [SV-relax]: search the relaxed game instead, in which a discard is legal
    with every token (gaining none) and no card is misplayed; there a position with more
    tokens is at least as good, so a position is lost when the same cards were proven
    lost with as many tokens or more.  A deck lost in the relaxed game is lost in the real
    one; a line found in it is a real line only if it never discards with every token.
    In the relaxed game a mover who holds a dead card tries that card's discard and no
    other (SV-dead), when every identity is touched by some hint.
    ``relaxed_memo``: in the real game, also drop the positions the relaxed game proved
    lost (with as many tokens or more, and no error: an error never helps).
    ``without``: ideas left out, to measure what each one does (:data:`IDEAS`)."""
    players, deck = game.players, game.deck
    suit_of, rank_of = game.suit_of, game.rank_of
    deck_size = len(deck)
    max_hints, max_errors = game.max_hints, game.max_errors
    discard_at_max = game.discard_at_max or relaxed
    late_check = target == game.max_score and "late" not in without
    hold_check = target == game.max_score and "hold" not in without
    remember = "key" not in without
    dead_first = relaxed and game.all_touched and "dead" not in without
    memo = Memo() if memo is None else memo
    lost, lost_tokens = memo.lost, memo.lost_tokens
    oracle = None if relaxed or relaxed_memo is None else relaxed_memo.lost_tokens
    budget_end = stats.nodes + max_nodes
    line: list[Move] = []
    start = game.start
    discarded = discarded_counts(game, start)
    clock = time.monotonic

    # visit is a generator that never yields, driven by _run: a generator keeps its frame
    # in itself, while a plain call's frame goes on CPython 3.11's frame stack, whose 16 KB
    # chunks are mapped and unmapped each time a depth-first search crosses one's edge (a
    # fifth of the CPU time as page faults on hard decks)
    def visit(position: Position, reach: list[int], implied: int) -> Generator[None, None, bool]:
        # implied: IMPLIED_LATE / IMPLIED_HOLD bits of the checks the move that led here
        # cannot have changed (SV-late, SV-hold: a hint, a play that draws)
        fields, hands, drawn, tokens, errors, seat, remaining = position
        scored = sum(fields)
        if scored >= target:
            return True
        if remaining == 0 or remaining == -1:
            stats.cut("terminal")
            return False
        if sum(reach) < target:
            stats.cut("SV-bounds:copies")
            return False
        plays_left = remaining if remaining != NOT_STARTED else deck_size - drawn + players
        if target - scored > plays_left:
            stats.cut("SV-bounds:turns")
            return False
        if relaxed:
            core = (fields, hands, drawn, seat, remaining)
            if lost_tokens.get(core, -1) >= tokens:
                stats.cut("SV-key")
                return False
        else:
            if position in lost:
                stats.cut("SV-key")
                return False
            if oracle is not None and oracle.get((fields, hands, drawn, seat, remaining), -1) >= tokens:
                stats.cut("SV-relax")
                return False
        if late_check and remaining == NOT_STARTED and not implied & IMPLIED_LATE \
                and not late_fit(game, fields, hands, drawn):
            stats.cut("SV-late")
            return False
        if hold_check and not implied & IMPLIED_HOLD and not holders_fit(game, fields, hands, drawn, seat, remaining):
            stats.cut("SV-hold")
            return False
        stats.nodes += 1
        if stats.nodes > budget_end or (deadline is not None and stats.nodes % 1024 == 0 and clock() > deadline):
            raise OutOfBudget
        hand = hands[seat]
        # [SV-bounds] with no turn to spare, a move that plays nothing leaves too few
        # (a hint spares one only before the last round, when it draws nothing)
        spare = plays_left > target - scored
        may_discard = spare and (tokens < max_hints or discard_at_max)
        may_misplay = spare and not relaxed and (max_errors is None or errors + 1 < max_errors)
        plays: list[Move] = []
        dead: list[Move] = []
        others: list[tuple[int, Move]] = []
        misplays: list[Move] = []
        previous = -1
        for card in hand:
            if card == previous:
                continue
            previous = card
            suit, value = suit_of[card], rank_of[card]
            if fields[suit] == value:
                plays.append(("play", card))
            elif may_misplay:
                misplays.append(("misplay", card))
            if may_discard:
                if value < fields[suit] or value >= reach[suit]:
                    dead.append(("discard", card))
                else:
                    others.append((-value, ("discard", card)))
        plays.sort(key=lambda move: rank_of[move[1]])
        if (spare or remaining == NOT_STARTED) and game.can_hint(hands, tokens, seat):
            if relaxed and tokens >= max_hints and not game.discard_at_max:
                candidates = plays + [("hint", -1)] + dead  # the real game has no discard here
            else:
                candidates = plays + dead + [("hint", -1)]
        else:
            candidates = plays + dead
        if dead_first and dead:
            # [SV-dead] one dead card's discard stands for every discard of this hand
            if len(dead) > 1 or others:
                stats.cut("SV-dead")
                candidates = [move for move in candidates if move[0] != "discard" or move is dead[0]]
        else:
            others.sort(key=lambda pair: pair[0])
            candidates += [move for _, move in others]
        candidates += misplays
        if shuffle is not None:
            shuffle(candidates)
        hint_implies = IMPLIED_LATE | IMPLIED_HOLD if remaining == NOT_STARTED else IMPLIED_LATE
        for move in candidates:
            kind, card = move
            if kind == "discard" or kind == "misplay":
                discarded[card] += 1
                suit = suit_of[card]
                child_reach = reach
                if rank_of[card] < reach[suit]:
                    child_reach = list(reach)
                    child_reach[suit] = _height(game, suit, fields[suit], discarded)
                if sum(child_reach) < target:  # SV-bounds (1), seen before the child is built
                    stats.cut("SV-bounds:copies")
                    discarded[card] -= 1
                    continue
                line.append(move)
                found = yield from visit(game.after(position, move), child_reach, 0)
                discarded[card] -= 1
            else:
                line.append(move)
                found = yield from visit(game.after(position, move), reach, hint_implies if kind == "hint" else IMPLIED_LATE)
            if found:
                return True
            line.pop()
        if remember and not relaxed:
            lost.add(position)
        elif remember and lost_tokens.get(core, -1) < tokens:
            lost_tokens[core] = tokens
        return False

    if game.start_terminal:
        return line if sum(start[0]) >= target else None
    return line if _run(visit(start, attainable_heights(game.config, start[0], discarded), 0)) else None


IMPLIED_LATE = 1
"""The move into a position cannot have broken SV-late: a hint (no card moves) or a play
(with a draw, when the last round has not begun).  The play removes a card no longer
needed and every first draw still to come moves one draw closer, so each count the rule
compares shrinks by as much as the turns after it (proofs/solver_pruning.md, 2)."""

IMPLIED_HOLD = 2
"""The move into a position cannot have broken SV-hold: a hint before the last round
(the fields, hands and stack the rule reads are unchanged, and before the last round it
reads nothing else)."""


def _run(search: Generator[None, None, bool]) -> bool:
    """The answer of a search written as a generator that never yields."""
    try:
        next(search)
    except StopIteration as stop:
        return bool(stop.value)
    raise AssertionError("the search yielded")


def holders_fit(game: OpenGame, fields: Sequence[int], hands: Hands, drawn: int, seat: int, remaining: int) -> bool:
    """[SV-hold] the cards only one seat can play fit in that seat's turns.  A needed
    identity whose every copy still to be played sits in one seat's hand (none in another
    hand, none in the stack) must be played by that seat.  A seat plays at most one card
    per turn, every play before the last round draws a card, and a seat has at most one
    play that draws nothing (its last-round turn, or the move that ends the game).  So
    before the last round the seats' must-plays beyond the first may not outnumber the
    stack; in the last round a seat with a must-play needs a turn still to come, and has
    room for one."""
    suit_of, rank_of, stack_counts = game.suit_of, game.rank_of, game.in_stack[drawn]
    seen: dict[int, int] = {}
    for holder, hand in enumerate(hands):
        for card in hand:
            if rank_of[card] < fields[suit_of[card]]:
                continue
            other = seen.get(card)
            if other is None:
                seen[card] = holder
            elif other != holder:
                seen[card] = -1
    must = [0] * game.players
    for card, holder in seen.items():
        if holder >= 0 and stack_counts[card] == 0:
            must[holder] += 1
    if remaining == NOT_STARTED:
        return sum(count - 1 for count in must if count > 1) <= len(game.deck) - drawn
    for offset in range(game.players):
        holder = (seat + offset) % game.players
        if must[holder] > (1 if offset < remaining else 0):
            return False
    return True


def late_fit(game: OpenGame, fields: Sequence[int], hands: Hands, drawn: int) -> bool:
    """[SV-late] the needed cards that wait for late draws fit in the turns after them
    (the tables of :class:`OpenGame` give the first draws)."""
    first = list(game.first_draw[drawn])
    for hand in hands:
        for card in hand:
            first[card] = 0
    return late_draws_fit(game.values, game.players, fields, first, len(game.deck) - drawn)


def late_draws_fit(values: int, players: int, fields: Sequence[int], first: Sequence[int], stack: int) -> bool:
    """[SV-late] whether the cards still needed for the maximum can be played in time.
    ``first[x]``: the draw from now (1 for the top of the stack) that brings the first
    copy of identity x still to come, 0 when a copy is in a hand, ``stack + 1`` when none
    comes.  A needed card waits for the latest first draw of the needed cards of its suit
    up to it; after draw j at most (stack − j) + players turns play (each later draw ends
    one play or discard turn, then the last round gives each seat one turn; hints play
    nothing), so for every j the cards waiting for draw j or later may not outnumber
    them."""
    waits: list[int] = []
    for suit, height in enumerate(fields):
        latest = 0
        base = suit * values
        for value in range(height, values):
            when = first[base + value]
            if when > latest:
                latest = when
            waits.append(latest)
    waits.sort(reverse=True)
    waiting = 0
    room = stack + players
    for draw in waits:
        waiting += 1
        if draw > stack or waiting > room - draw:
            return False
    return True


WARMUP = 1000
"""[SV-warmup] the positions of the first pass: the real game in SV-moves' order without
SV-late, SV-hold and SV-relax, whose checks cost more than they save on an easy deck."""


def luby(index: int) -> int:
    """The Luby sequence 1, 1, 2, 1, 1, 2, 4, 1, 1, 2, ... at ``index`` (from 1): the
    restart lengths that waste at most a logarithmic factor whatever the lengths that
    would have been best."""
    while True:
        power = 1
        while (1 << power) - 1 < index:
            power += 1
        if (1 << power) - 1 == index:
            return 1 << (power - 1)
        index -= (1 << (power - 1)) - 1


def _real_line(game: OpenGame, line: Sequence[Move]) -> bool:
    """Whether a line of the relaxed game is a line of the real one: it never discards
    with every token where the rules forbid that (SV-relax; it never misplays)."""
    position = game.start
    for move in line:
        if move[0] == "discard" and position[3] >= game.max_hints and not game.discard_at_max:
            return False
        position = game.after(position, move)
    return True


IDEAS = ("late", "hold", "key", "relax", "restarts", "dead", "warmup")
"""What ``without`` may leave out, to measure each idea on the same decks (``hanabi-ref
bench solver``): SV-late, SV-hold, SV-key's memory of lost positions, SV-relax's relaxed
passes (all passes then search the real game), SV-restarts (one pass in SV-moves'
order with the whole budget), SV-dead (every discard tried in the relaxed game) and
SV-warmup (the passes start at once)."""


def solve_open(game: OpenGame, target: int, max_nodes: int, deadline: float | None = None,
               unit: int = 1000, without: frozenset[str] = frozenset()) -> tuple[bool | None, list[Move] | None, Stats]:
    """[SV-warmup, SV-restarts] (reachable, line, stats): True with a line of moves, False
    after a completed search, None when ``max_nodes`` positions were spent first.

    A warm-up pass comes first: the real game in SV-moves' order, within :data:`WARMUP`
    positions, without SV-late, SV-hold and the relaxed game, whose checks cost more than
    they save on the easy decks it settles.  Then comes a sequence of passes that share
    what they prove (the real ones also what the warm-up proved).  Passes search the
    relaxed game (SV-relax), alternately in SV-moves' order and with the moves of each
    position shuffled (with probability 0.3, by a generator seeded from the deck and the
    pass), the n-th within a Luby multiple of ``unit`` positions (the first within
    ``unit``).  All of them keep one memory of positions proven lost: a position is lost
    whatever order its moves are tried in, so a pass that completes without a line
    proves the deck lost.  A line the relaxed game finds is the answer when it is a line
    of the real game; when one was not (it discarded with every token where the rules
    forbid it), the shuffled passes search the real game from then on, dropping what the
    relaxed passes proved lost.  The passes depend on the deck and the budget alone, so
    the answer does too.  ``without``: ideas left out (:data:`IDEAS`)."""
    import random
    import zlib

    stats = Stats()
    exact, relaxed = Memo(), Memo()
    digest = zlib.crc32(bytes(card % 256 for card in game.deck))
    real_passes = "relax" in without
    if "warmup" not in without and "restarts" not in without:
        # [SV-warmup] most decks are won by the first moves tried: a short plain pass first
        try:
            line = search(game, target, min(WARMUP, max_nodes), deadline, stats, memo=exact,
                          without=without | {"late", "hold"})
        except OutOfBudget:
            if deadline is not None and time.monotonic() > deadline:
                return None, None, stats
        else:
            return (False, None, stats) if line is None else (True, line, stats)
    restart = 0
    while True:
        left = max_nodes - stats.nodes
        if left <= 0:
            return None, None, stats
        shuffled = restart % 2 == 1
        budget = min(left, unit * luby((restart + 1) // 2 + 1) if restart else unit)
        if "restarts" in without:
            budget, shuffled = left, False
        in_relaxed = "relax" not in without and not (real_passes and (shuffled or "restarts" in without))
        shuffle = None
        if shuffled:
            rng = random.Random(digest * 1_000_003 + restart)

            def shuffle(moves: list[Move], rng: random.Random = rng) -> None:
                if rng.random() < 0.3:
                    rng.shuffle(moves)
        try:
            line = search(game, target, budget, deadline, stats, relaxed=in_relaxed, shuffle=shuffle,
                          memo=relaxed if in_relaxed else exact, relaxed_memo=relaxed, without=without)
        except OutOfBudget:
            if deadline is not None and time.monotonic() > deadline:
                return None, None, stats
            restart += 1
            continue
        if line is None:
            return False, None, stats
        if not in_relaxed or _real_line(game, line):
            return True, line, stats
        real_passes = True
        restart += 1
