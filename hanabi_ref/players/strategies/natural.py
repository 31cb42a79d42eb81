"""``natural``: a bot that reads clues as people give them [NAT-bot].

It plays by the plain meaning of clues with the basic conventions hanab.live players use
(spec/strategies.md section 7, clauses NAT-*): every clue has one focus (NAT-focus), the
focus of a clue that is not a save is a play clue (NAT-play), a clue on the chop may save
a 5, a 2 or a critical card (NAT-save), every other touched card is a card that will be
needed (NAT-good-touch), a seat discards its chop (NAT-chop) and gives the save its next
partner needs before it discards (NAT-urgent).

Every seat reads every clue from public information only: the engine's knowledge sets,
the fields, the discard pile and the cards touched so far.  So every seat, the receiver
included, draws the same *note* on every card (NAT-notes), and a giver knows what its clue
will make the receiver believe: it gives only clues whose reading holds the true identity
of every card it touches and that tell no card playable that is not (NAT-give).

Hands are stored newest last (R-2 ``newest-last``): a card's age is its card id, so the
*chop* is the untouched card of lowest id and "newest" is the highest id, whatever the
slot order.  Messages speak of slots as people count them: slot 1 is the newest card.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import NamedTuple

from hanabi_ref.engine.actions import Action, Discard, Hint, Play
from hanabi_ref.engine.config import GameConfig
from hanabi_ref.engine.history import Event
from hanabi_ref.engine.tables import tables_for
from hanabi_ref.engine.view import PlayerView, view_is_legal, view_legal_actions
from hanabi_ref.players.strategies.knowledge import (classic_touch_problem, composition_counts, unseen_counts,
                                                    upward_stacks_problem)
from hanabi_ref.players.strategies.params import Param, StrategySpec, Value
from hanabi_ref.players.strategies.simple import unseen_mask
from hanabi_ref.players.strategy import BaseStrategy, StrategyFactory


TOUCHED = 0.15
"""[NAT-give] the value of touching a needed card that the clue does not make playable"""
CRITICAL = 2.0
"""[NAT-give] what touching a critical card adds"""
BUSY = 0.7
"""[NAT-give] the share of its value a clue keeps when its receiver knows a play already"""
LATE_DECK = 3
"""[NAT-endgame] the endgame blind play may be made once the deck holds this many cards or fewer"""
STALL_DECK = 3
"""[NAT-stall] with this many cards or fewer in the deck (and some left), a clue of small value is
given rather than a discard"""
STALL_VALUE = 0.01
"""[NAT-stall] the least value a stalling clue needs"""


class Board(NamedTuple):
    """The public masks of a moment [NAT-notes]: identities playable now, trash (already
    played, or a lower card of their suit is gone), critical (not trash, one copy left)."""

    playable: int
    trash: int
    critical: int


def board_of(config: GameConfig, fields: Sequence[int], discard: Sequence[tuple[int, int]],
             composition: Sequence[int]) -> Board:
    """The :class:`Board` of fields and a discard pile ((card id, identity) pairs)."""
    n = config.values
    gone = [0] * len(composition)
    for _, card in discard:
        gone[card] += 1
    playable = trash = critical = 0
    for suit, height in enumerate(fields):
        base = suit * n
        dead_from = n + 1
        for value in range(height + 1, n + 1):
            if gone[base + value - 1] >= composition[base + value - 1]:
                dead_from = value
                break
        for value in range(1, n + 1):
            x = base + value - 1
            if value <= height or value >= dead_from:
                trash |= 1 << x
            else:
                if value == height + 1:
                    playable |= 1 << x
                if composition[x] - gone[x] == 1:
                    critical |= 1 << x
    return Board(playable, trash, critical)


def value_mask(config: GameConfig, value: int) -> int:
    """Every identity of ``value``."""
    n = config.values
    return sum(1 << (suit * n + value - 1) for suit in range(config.suit_count))


def single(mask: int) -> int | None:
    """The identity of a one-identity mask, else None."""
    return mask.bit_length() - 1 if mask and mask & (mask - 1) == 0 else None


def slot_name(hand: Sequence[int], card: int) -> str:
    """A card's slot as people count it: slot 1 is the newest card [NAT-explain]."""
    return f"slot {sorted(hand, reverse=True).index(card) + 1}"


class Reading(NamedTuple):
    """What a clue means [NAT-focus, NAT-play, NAT-save]: the cards it touched for the first
    time, its focus, the focus's convention mask, and whether the focus is to be played."""

    new: tuple[int, ...]
    focus: int
    mask: int
    play: bool
    kind: str
    """"play", "prompt", "save", "play or save", or "none" (no convention reading fits)"""
    prompts: tuple[tuple[int, int], ...] = ()
    """[NAT-prompt] (card, identity): touched cards the clue tells to play as that identity"""


class Notes:
    """What every seat draws from the clues so far, by card id [NAT-notes]: the cards
    touched by a clue, each card's convention mask, and the cards to be played."""

    def __init__(self, config: GameConfig) -> None:
        self.config = config
        self.composition = composition_counts(config)
        self.everything = (1 << (config.values * config.suit_count)) - 1
        self.touched: set[int] = set()
        self.trash_then: dict[int, int] = {}
        """the trash when each touched card was first touched: what good touch promises it is not"""
        self.masks: dict[int, int] = {}
        self.to_play: set[int] = set()
        self.prompting = True
        """[NAT-prompt] whether clues are read as prompts"""
        self.finessing = True
        """[NAT-finesse] whether play clues may be finesses"""
        self.prompted_by: dict[int, int] = {}
        """[NAT-trust] the giver of the clue that prompted each prompted card"""
        self.pending: tuple[int, int, int] | None = None
        """[NAT-finesse] (giver, receiver, focus) of the play clue a finesse may answer, until
        its receiver moves"""

    def note(self, card: int, known: int, board: Board) -> int:
        """[NAT-notes, NAT-good-touch] the identities card ``card`` may have by its
        knowledge set ``known`` and the conventions; a touched card is not trash unless
        nothing else is left."""
        mask = known & self.masks.get(card, self.everything)
        if mask == 0:
            mask = known  # the conventions were broken: the literal content stands
        if card in self.touched:
            trash = self.trash_then.get(card, board.trash)
            if mask & ~trash:
                mask &= ~trash
        return mask

    def queued(self, view: PlayerView, board: Board, skip: int, knowledge: Sequence[Sequence[int]]) -> int:
        """[NAT-delayed] identities that touched cards in hands (not ``skip``) are known to
        be, by the knowledge sets ``knowledge``."""
        out = 0
        for hand, sets in zip(view.hands, knowledge):
            for card, known in zip(hand, sets):
                if card != skip and card in self.touched:
                    x = single(self.note(card, known, board))
                    if x is not None and not board.trash >> x & 1:
                        out |= 1 << x
        return out

    def delayed(self, view: PlayerView, board: Board, skip: int, knowledge: Sequence[Sequence[int]]) -> int:
        """[NAT-delayed] identities that become playable once touched cards known to be
        their predecessors are played."""
        queued = self.queued(view, board, skip, knowledge)
        n = self.config.values
        out = 0
        for suit, height in enumerate(view.fireworks):
            value = height + 1
            while value <= n and queued >> (suit * n + value - 1) & 1:
                value += 1
                if value <= n:
                    out |= 1 << (suit * n + value - 1)
        return out

    def prompt_chain(self, view: PlayerView, board: Board, focus: int, giver: int, known: int,
                     knowledge: Sequence[Sequence[int]]) -> tuple[int, tuple[tuple[int, int], ...]] | None:
        """[NAT-prompt] the one suit the focus (knowledge set ``known``) can continue through
        touched cards that are not yet known: the focus's identity and the cards prompted,
        in the order they play; None if no suit or more than one suit can."""
        n = self.config.values
        players = len(view.hands)
        candidates: list[tuple[int, int]] = []  # (card, note): touched, not the giver's, not known
        for offset in range(1, players):
            seat = (giver + offset) % players
            hand = view.hands[seat]
            for slot in sorted(range(len(hand)), key=lambda i: -hand[i]):  # [NAT-prompt] the newest first
                card = hand[slot]
                if card != focus and card in self.touched:
                    note = self.note(card, knowledge[seat][slot], board)
                    if single(note) is None:
                        candidates.append((card, note))
        if not candidates:
            return None
        queued = self.queued(view, board, focus, knowledge)
        found: tuple[int, tuple[tuple[int, int], ...]] | None = None
        for suit, height in enumerate(view.fireworks):
            base = suit * n
            if not known >> base & ((1 << n) - 1):
                continue
            chain: list[tuple[int, int]] = []
            used: set[int] = set()
            value = height + 1
            while value <= n:
                x = base + value - 1
                if not queued >> x & 1:
                    prompted = next((c for c, note in candidates if c not in used and note >> x & 1), None)
                    if prompted is None:
                        break
                    chain.append((prompted, x))
                    used.add(prompted)
                value += 1
            if not chain or value > n or not known >> (base + value - 1) & 1:
                continue
            if found is not None:
                return None  # two suits could continue: no seat can tell whose card to play
            found = (base + value - 1, tuple(chain))
        return found

    def read(self, view: PlayerView, board: Board, hint: Hint, touched: Sequence[int],
             knowledge: Sequence[Sequence[int]], giver: int) -> Reading:
        """[NAT-focus, NAT-play, NAT-save, NAT-prompt] the reading of ``hint`` to
        ``hint.target``, whose hand is ``view.hands[target]``, given by ``giver``;
        ``knowledge``: every hand's knowledge sets after the hint; ``touched``: the card ids
        it touches.  Public: the same for every seat, the giver weighing the hint included."""
        known_after = knowledge[hint.target]
        hand = view.hands[hint.target]
        if not touched:  # an empty clue (rules that allow it) tells only what it says
            return Reading((), -1, self.everything, False, "empty")
        untouched = [card for card in hand if card not in self.touched]
        chop = min(untouched) if untouched else None
        new = tuple(card for card in hand if card in touched and card not in self.touched)
        focus: int
        if chop is not None and chop in new:
            focus = chop
        elif new:
            focus = max(new)
        else:
            focus = max(touched)
        known = known_after[hand.index(focus)]
        play = board.playable | self.delayed(view, board, focus, knowledge)
        save = 0
        if focus == chop:
            if hint.kind == "value" and hint.subject in (2, 5):
                save |= value_mask(self.config, hint.subject) & ~board.trash
            save |= board.critical
        reading = known & (play | save) & ~board.trash
        if self.prompting:
            chain = self.prompt_chain(view, board, focus, giver, known & ~board.trash & ~save, knowledge)
            if chain is not None:
                n = self.config.values
                suit_mask = ((1 << n) - 1) << (chain[0] // n * n)
                rest = known & ~board.trash & ((play & ~suit_mask) | save) & ~(1 << chain[0])
                if rest == 0:  # [NAT-prompt] no other reading fits: the touched cards play first
                    return Reading(new, focus, 1 << chain[0], True, "prompt", chain[1])
        if reading == 0:
            return Reading(new, focus, self.everything, False, "none")
        if reading & ~play == 0:
            return Reading(new, focus, play | save, True, "play")
        if reading & play == 0:
            return Reading(new, focus, play | save, False, "save")
        return Reading(new, focus, play | save, False, "play or save")

    def apply(self, reading: Reading, touched: Sequence[int], board: Board, giver: int) -> None:
        """Record a reading [NAT-notes]."""
        if reading.focus < 0:
            return
        for card in reading.new:
            self.trash_then[card] = board.trash
        self.touched.update(touched)
        self.masks[reading.focus] = self.masks.get(reading.focus, self.everything) & reading.mask
        if reading.play:
            self.to_play.add(reading.focus)
        for card, x in reading.prompts:  # [NAT-prompt] the prompted cards are those identities, to be played
            self.masks[card] = self.masks.get(card, self.everything) & 1 << x
            self.to_play.add(card)
            self.prompted_by[card] = giver

    def may_finesse(self, view: PlayerView, reading: Reading, giver: int) -> bool:
        """[NAT-finesse] whether a clue with ``reading`` may be a finesse: public conditions."""
        return (self.finessing and self.pending is None and reading.focus >= 0 and reading.kind in ("play", "none")
                and not reading.prompts and view.deck_size > LATE_DECK + self.config.players)

    def between(self, giver: int, target: int) -> list[int]:
        """[NAT-finesse] the seats that move after ``giver`` and before ``target``."""
        players = self.config.players
        return [(giver + k) % players for k in range(1, (target - giver) % players)]

    def finesse_position(self, view: PlayerView, seat: int) -> int | None:
        """[NAT-finesse] a seat's newest untouched card (people's "leftmost unclued")."""
        untouched = [card for card in view.hands[seat] if card not in self.touched]
        return max(untouched) if untouched else None

    def finesse_missing(self, view: PlayerView, board: Board, focus: int, identity: int,
                        knowledge: Sequence[Sequence[int]]) -> int | None:
        """[NAT-finesse] the identity a finesse must supply for the focus to be ``identity``:
        the one just below it, if that one is playable now (a blind play cannot wait for
        another card) and no touched card is known to be it (NAT-delayed); else None."""
        missing = identity - 1
        if identity % self.config.values == 0 or not board.playable >> missing & 1:
            return None
        return None if self.queued(view, board, focus, knowledge) >> missing & 1 else missing

    def resolve(self, seat: int, card: int, identity: int, success: bool) -> None:
        """[NAT-finesse] a seat between the giver and the receiver of the pending clue played
        an untouched card: a success names the focus as the next card of its suit."""
        if self.pending is None or card in self.touched:
            return
        giver, target, focus = self.pending
        if seat not in self.between(giver, target):
            return
        self.pending = None
        n = self.config.values
        if success and identity % n < n - 1:
            self.masks[focus] = 1 << (identity + 1)
            self.to_play.add(focus)

    def forget(self, card: int) -> None:
        """A card left its hand."""
        self.touched.discard(card)
        self.trash_then.pop(card, None)
        self.masks.pop(card, None)
        self.to_play.discard(card)
        self.prompted_by.pop(card, None)


class NaturalStrategy(BaseStrategy):
    """One seat of the natural bot [NAT-bot]."""

    def __init__(self, config: GameConfig, seat: int, seed: int, params: Mapping[str, Value]) -> None:
        self.config = config
        self.seat = seat
        self.notes = Notes(config)
        self.composition = self.notes.composition
        self.heard: list[str] = []
        """[NAT-explain] one line for each clue this seat received: what it took from it"""
        self.gamble = float(params["gamble"])
        self.distrust: set[int] = set()
        """[NAT-trust] seats this seat saw give a clue read wrong with a token to spare"""
        self.finesse: int | None = None
        """[NAT-finesse] this seat's card that a finesse tells it to play on its next turn"""

    # ------------------------------------------------------------------ reading

    def observe(self, view: PlayerView, event: Event) -> None:
        action = event.action
        if isinstance(action, Hint):
            board = self.board(view)
            target = action.target
            reading = self.notes.read(view, board, action, event.touched, view.knowledge, event.player)
            may = self.notes.may_finesse(view, reading, event.player)
            self.notes.apply(reading, event.touched, board, event.player)
            if self.seat not in (target, event.player) and view.clue_tokens < self.config.max_hints - 1:
                self.check_giver(view, board, event, reading.focus if may else -1)
            if target == self.seat:
                self.heard.append(self.explain(view, event, reading))
            else:
                mine = [card for card, _ in reading.prompts if card in view.own_hand]
                if mine:  # [NAT-explain] a clue to another seat that prompts this seat's cards
                    self.heard.append(self.explain_prompt(view, mine))
            if may:
                self.notes.pending = (event.player, target, reading.focus)
                self.finesse = self.finessed(view, board, event.player, target, reading.focus)
                if self.finesse is not None:
                    self.heard.append(f"seat {self.seat}: {slot_name(view.own_hand, self.finesse)} is now playable (finesse)")
        else:
            if event.card_id is not None:
                if isinstance(action, Play) and event.card is not None:
                    self.notes.resolve(event.player, event.card_id, event.card, bool(event.success))
                    if not event.success and view.deck_size >= LATE_DECK:
                        # [NAT-trust] a miss before the endgame: some seat does not keep these conventions
                        self.notes.prompting = self.notes.finessing = False
                self.notes.forget(event.card_id)
            if self.notes.pending is not None and self.notes.pending[1] == event.player:
                self.notes.pending = None  # the receiver moved: a finesse no longer answers its clue
            if event.player == self.seat:
                self.finesse = None

    def explain(self, view: PlayerView, event: Event, reading: Reading) -> str:
        """[NAT-explain] what this seat took from a clue it received, in one line."""
        hand = view.hands[self.seat]
        if reading.focus < 0:
            return f"seat {self.seat}: none of my cards is touched (an empty clue)"
        where = slot_name(hand, reading.focus)
        prompted = [card for card, _ in reading.prompts]
        if reading.kind == "play":
            told = (f"{where} is now playable" if self.known_playable(view, reading.focus)
                    else f"{where} is to be played once the cards before it are")
            meaning = "play clue on the focus"
        elif reading.kind == "prompt":
            told = f"{where} is to be played once the cards before it are"
            mine = [slot_name(hand, card) for card in prompted if card in hand]
            if mine:
                told += f", {', '.join(mine)} first"
            meaning = f"prompt: {len(prompted)} touched card{'s play' if len(prompted) > 1 else ' plays'} first"
        elif reading.kind == "save":
            told, meaning = f"{where} is saved", "save clue on the chop"
        elif reading.kind == "play or save":
            told, meaning = f"{where} is playable or saved", "clue on the chop: play or save"
        else:
            told, meaning = f"{where} is as the clue says", "no convention reading fits"
        others = len(event.touched) - 1
        extra = f"; {others} more card{'s' if others > 1 else ''} touched, kept" if others > 0 else ""
        return f"seat {self.seat}: {told} ({meaning}){extra}"

    def check_giver(self, view: PlayerView, board: Board, event: Event, exempt: int) -> None:
        """[NAT-trust] a clue given with a token to spare that leaves a touched card's note
        without its identity (a finesse's focus ``exempt`` aside) comes from a seat that does
        not keep these conventions: a natural giver errs only with every token in hand."""
        if not isinstance(event.action, Hint):
            return
        target = event.action.target
        for card, x, known in zip(view.hands[target], view.cards[target], view.knowledge[target]):
            if card in event.touched and card != exempt and x is not None and not self.notes.note(card, known, board) >> x & 1:
                self.distrust.add(event.player)
                return

    def finessed(self, view: PlayerView, board: Board, giver: int, target: int, focus: int) -> int | None:
        """[NAT-finesse] this seat's finesse position, if the clue just given (focus ``focus``)
        is a finesse on this seat: the focus, which this seat sees, is not what its note says
        but the card after a missing one, and no other seat between the giver and the
        receiver holds the missing card on its finesse position."""
        notes = self.notes
        if self.seat not in notes.between(giver, target) or giver in self.distrust:
            return None
        hand = view.hands[target]
        slot = hand.index(focus)
        x = view.cards[target][slot]
        if x is None or notes.note(focus, view.knowledge[target][slot], board) >> x & 1:
            return None
        missing = notes.finesse_missing(view, board, focus, x, view.knowledge)
        if missing is None or self.finesse_holders(view, giver, target, missing):
            return None  # no finesse, or another seat between is the one finessed
        return notes.finesse_position(view, self.seat)

    def finesse_holders(self, view: PlayerView, giver: int, target: int, missing: int | None) -> list[tuple[int, int]]:
        """[NAT-finesse] the seats between ``giver`` and ``target``, this one aside, whose
        finesse position this seat sees to be ``missing``, each with that card."""
        notes, found = self.notes, []
        for seat in notes.between(giver, target):
            card = notes.finesse_position(view, seat) if seat != self.seat else None
            if card is not None and view.cards[seat][view.hands[seat].index(card)] == missing:
                found.append((seat, card))
        return found

    def explain_prompt(self, view: PlayerView, cards: Sequence[int]) -> str:
        """[NAT-explain] what this seat took from a clue to another seat that prompts its cards."""
        hand = view.own_hand
        told = ", ".join(f"{slot_name(hand, card)} is "
                         + ("now playable" if self.known_playable(view, card) else "to be played once the cards before it are")
                         for card in cards)
        return f"seat {self.seat}: {told} (prompt)"

    def board(self, view: PlayerView) -> Board:
        return board_of(self.config, view.fireworks, view.discard, self.composition)

    def possible(self, view: PlayerView) -> int:
        """Identities of which this seat cannot see every copy [S-know]."""
        return unseen_mask(view)

    def own_notes(self, view: PlayerView, board: Board) -> list[int]:
        """[NAT-notes, S-know, NAT-distinct] this seat's notes on its own cards, narrowed by
        what it sees: identities of which it sees every copy, and, for a touched card, the
        identities of touched cards in other hands."""
        possible = self.possible(view)
        elsewhere = 0  # [NAT-distinct] identities of touched cards this seat sees in other hands
        for seat, (hand, cards) in enumerate(zip(view.hands, view.cards)):
            if seat != self.seat:
                for card_id, x in zip(hand, cards):
                    if x is not None and card_id in self.notes.touched:
                        elsewhere |= 1 << x
        out = []
        for card, known in zip(view.own_hand, view.own_knowledge):
            note = self.notes.note(card, known, board)
            if card in self.notes.touched and note & ~elsewhere:
                note &= ~elsewhere
            narrowed = note & possible
            out.append(narrowed if narrowed else note)
        return out

    def known_playable(self, view: PlayerView, card: int) -> bool:
        board = self.board(view)
        slot = view.own_hand.index(card)
        note = self.own_notes(view, board)[slot]
        return note & ~board.playable == 0

    # ------------------------------------------------------------------ the turn

    def act(self, view: PlayerView) -> Action:
        """[NAT-turn] an urgent save; else a card known playable; else an endgame blind
        play; else a play clue; with 1 to 3 cards in the deck, a clue of any value
        [NAT-stall]; on the seat's last turn, a blind play at any chance [NAT-last]; else a
        discard of known trash or the chop; else the least harmful clue."""
        board = self.board(view)
        if self.finesse is not None and self.finesse in view.own_hand and self.finesse not in self.notes.touched:
            return Play(view.own_hand.index(self.finesse))  # [NAT-finesse] the blind play comes first
        notes = self.own_notes(view, board)
        tokens = view.clue_tokens
        if tokens == 1:  # [NAT-urgent] after this clue the next seat has none: it must play or discard
            save = self.urgent_save(view, board)
            if save is not None:
                return save
        play = self.sure_play(view, board, notes)
        if play is not None:
            return play
        gamble = self.endgame_play(view, board, notes, self.gamble)
        if gamble is not None:
            return gamble
        clue: tuple[float, Hint] | None = None
        if tokens > 0:
            clue = self.best_clue(view, board)
            if clue is not None and clue[0] >= 1:
                return clue[1]
            if clue is not None and clue[0] >= STALL_VALUE and 0 < view.deck_size <= STALL_DECK:
                return clue[1]  # [NAT-stall] a clue keeps the deck, a discard brings the end nearer
        if self.is_last_turn(view):  # [NAT-last] nothing is lost by a miss now
            last = self.endgame_play(view, board, notes, 0.0)
            if last is not None:
                return last
        discard = self.discard(view, board, notes)
        if discard is not None and view_is_legal(view, discard):
            return discard
        if clue is not None:
            return clue[1]
        if tokens > 0:
            least = self.least_harmful_clue(view, board)
            if least is not None:
                return least
        return view_legal_actions(view)[0]

    def sure_play(self, view: PlayerView, board: Board, notes: Sequence[int]) -> Play | None:
        """[NAT-play-own] a card every identity of which is playable now: one that lets a
        touched card of another hand follow first, then the lowest value, then the oldest."""
        n = self.config.values
        waiting = 0  # identities of touched cards in the other hands
        for seat, (hand, cards) in enumerate(zip(view.hands, view.cards)):
            if seat != self.seat:
                for card_id, x in zip(hand, cards):
                    if x is not None and card_id in self.notes.touched:
                        waiting |= 1 << x
        best: tuple[int, int, int, int] | None = None
        for slot, (card, note) in enumerate(zip(view.own_hand, notes)):
            if self.notes.prompted_by.get(card, -1) in self.distrust:
                continue  # [NAT-trust] prompted by a seat that does not keep these conventions
            if note and note & ~board.playable == 0:
                identities = [x for x in range(note.bit_length()) if note >> x & 1]
                unlocks = any(x % n < n - 1 and waiting >> (x + 1) & 1 for x in identities)
                key = (0 if unlocks else 1, max(x % n for x in identities), card, slot)
                if best is None or key < best:
                    best = key
        return None if best is None else Play(best[3])

    def is_last_turn(self, view: PlayerView) -> bool:
        """[NAT-last] whether the game ends before this seat moves again: the deck is out
        and the moves left, this one included, are no more than the seats (R-3)."""
        return view.remaining is not None and view.remaining <= self.config.players

    def endgame_play(self, view: PlayerView, board: Board, notes: Sequence[int], threshold: float) -> Play | None:
        """[NAT-endgame] with :data:`LATE_DECK` cards or fewer in the deck and a strike to
        spare, the card most likely playable if at least ``threshold`` likely (and likely
        at all)."""
        limit = self.config.max_errors
        if view.deck_size > LATE_DECK or (limit is not None and view.strikes + 1 >= limit):
            return None
        counts = unseen_counts(view, self.composition)
        best: tuple[float, int] | None = None
        for slot, note in enumerate(notes):
            whole = sum(counts[x] for x in range(note.bit_length()) if note >> x & 1)
            good = sum(counts[x] for x in range(note.bit_length()) if note >> x & 1 and board.playable >> x & 1)
            if whole and good:
                chance = good / whole
                if chance >= threshold and (best is None or chance > best[0]):
                    best = (chance, slot)
        return None if best is None else Play(best[1])

    def discard(self, view: PlayerView, board: Board, notes: Sequence[int]) -> Discard | None:
        """[NAT-chop] a card known trash, else the chop, else the touched card least likely
        needed."""
        hand = view.own_hand
        if not hand:
            return None
        for slot, note in enumerate(notes):
            if note and note & ~board.trash == 0:
                return Discard(slot)
        untouched = [card for card in hand if card not in self.notes.touched]
        if untouched:
            return Discard(hand.index(min(untouched)))
        # every card touched: the one whose note holds the fewest critical identities
        return Discard(min(range(len(hand)), key=lambda slot: ((notes[slot] & board.critical).bit_count(), -hand[slot])))

    # ------------------------------------------------------------------ giving clues

    def next_seat(self) -> int:
        return (self.seat + 1) % self.config.players

    def urgent_save(self, view: PlayerView, board: Board) -> Hint | None:
        """[NAT-urgent] the next seat's chop must be saved when that seat will have nothing
        better to do than discard it (no token left to clue, no known play or trash): a 5,
        a critical card, a 2 whose other copy no other hand holds, or a playable card; the
        best clue that saves it."""
        target = self.next_seat()
        hand, cards = view.hands[target], view.cards[target]
        untouched = [card for card in hand if card not in self.notes.touched]
        if not untouched:
            return None
        chop = min(untouched)
        identity = cards[hand.index(chop)]
        if identity is None or board.trash >> identity & 1:
            return None
        if not self.needs_save(view, board, target, chop, identity):
            return None
        if self.has_safe_move(view, board, target):
            return None
        best: tuple[float, Hint] | None = None
        for score, hint, touched in self.clues_to(view, board, target):
            if chop in touched and (best is None or score > best[0]):
                best = (score, hint)
        return None if best is None else best[1]

    def needs_save(self, view: PlayerView, board: Board, target: int, chop: int, identity: int) -> bool:
        """[NAT-urgent] whether the card would be lost for good or for long."""
        n = self.config.values
        if board.critical >> identity & 1 or identity % n == n - 1:
            return True
        if identity % n == 1:  # a 2: saved unless another hand holds its other copy
            for seat, cards in enumerate(view.cards):
                for card_id, card in zip(view.hands[seat], cards):
                    if card == identity and card_id != chop:
                        return False
            return True
        return bool(board.playable >> identity & 1)

    def has_safe_move(self, view: PlayerView, board: Board, target: int, plays_only: bool = False) -> bool:
        """[NAT-urgent, NAT-give] whether ``target`` knows a card playable (or, unless
        ``plays_only``, trash) by the public notes."""
        for card, known in zip(view.hands[target], view.knowledge[target]):
            note = self.notes.note(card, known, board)
            if note and (note & ~board.playable == 0 or (not plays_only and note & ~board.trash == 0)):
                return True
        return False

    def best_clue(self, view: PlayerView, board: Board) -> tuple[float, Hint] | None:
        """[NAT-give] the clue of highest value to any other seat (the nearest first on ties)
        that moves again before the game ends."""
        best: tuple[float, Hint] | None = None
        players = self.config.players
        for offset in range(1, players if view.remaining is None else min(players, view.remaining)):
            target = (self.seat + offset) % players
            busy = self.has_safe_move(view, board, target, plays_only=True)
            for score, hint, _ in self.clues_to(view, board, target):
                if busy and score > 0:
                    score *= BUSY  # a seat that knows a play already has a turn's work
                score -= 0.01 * offset
                if best is None or score > best[0]:
                    best = (score, hint)
        return best

    def clues_to(self, view: PlayerView, board: Board, target: int) -> list[tuple[float, Hint, tuple[int, ...]]]:
        """[NAT-give] every legal clue to ``target`` whose reading holds the truth, with its value."""
        if not view.hands[target]:
            return []
        seen_touched = self.touched_identities(view, board)
        blind = self.finesse_seen(view, board)
        out = []
        for hint, touched, every, reading in self.readings(view, board, target):
            if blind is not None and blind in touched:
                continue  # [NAT-finesse] a card about to be played blind stays untouched
            score = self.value_of(view, board, target, reading, touched, every, seen_touched)
            if score is not None:
                out.append((score, hint, touched))
        return out

    def readings(self, view: PlayerView, board: Board, target: int) -> Iterator[tuple[Hint, tuple[int, ...], list[Sequence[int]], Reading]]:
        """[NAT-give] every legal clue to ``target`` that touches a card: the clue, the cards
        it touches, every hand's knowledge sets after it, and how every seat reads it."""
        hand, cards, knowledge = view.hands[target], view.cards[target], view.knowledge[target]
        for hint, mask in tables_for(self.config).action_catalogue.hints[target]:
            touched = tuple(int(card) for card, x in zip(hand, cards) if x is not None and mask >> x & 1)
            if not touched:
                continue
            every: list[Sequence[int]] = list(view.knowledge)
            every[target] = tuple(known & mask if card in touched else known & ~mask for card, known in zip(hand, knowledge))
            yield hint, touched, every, self.notes.read(view, board, hint, touched, every, self.seat)

    def least_harmful_clue(self, view: PlayerView, board: Board) -> Hint | None:
        """[NAT-turn] when no clue passes NAT-give and no discard is allowed: the legal clue
        that misleads least (first: tells no card playable that is not; then: hides the
        identity of the fewest touched cards), the nearest seat first."""
        best: tuple[tuple[int, int, int], Hint] | None = None
        players = self.config.players
        for offset in range(1, players):
            target = (self.seat + offset) % players
            hand, cards = view.hands[target], view.cards[target]
            for hint, touched, every, reading in self.readings(view, board, target):
                x = cards[hand.index(reading.focus)]
                wrong_play = int(reading.play and x is not None and not board.playable >> x & 1)
                if reading.prompts and any(not self.prompt_holds(view, card, y) for card, y in reading.prompts):
                    wrong_play = 1  # [NAT-prompt] a prompted card is not what the clue says
                hidden = sum(1 for card, seen in zip(hand, cards) if card in touched and seen is not None
                             and not reading.mask >> seen & 1 and card == reading.focus)
                if hidden and x is not None and self.notes.may_finesse(view, reading, self.seat):
                    missing = self.notes.finesse_missing(view, board, reading.focus, x, every)
                    if missing is not None and not self.finesse_holds(view, board, target, reading.focus, x, every):
                        wrong_play = 1  # [NAT-finesse] a seat between might play blind for it
                key = (wrong_play, hidden, offset)
                if best is None or key < best[0]:
                    best = (key, hint)
        return None if best is None else best[1]

    def touched_identities(self, view: PlayerView, board: Board) -> dict[int, int]:
        """Identities of touched cards in other hands (as this seat sees them), and of its
        own touched cards whose note is one identity: how many of each."""
        counts: dict[int, int] = {}
        for seat, (hand, cards) in enumerate(zip(view.hands, view.cards)):
            for card, seen, known in zip(hand, cards, view.knowledge[seat]):
                if card not in self.notes.touched:
                    continue
                x = single(self.notes.note(card, known, board)) if seen is None else int(seen)
                if x is not None:
                    counts[x] = counts.get(x, 0) + 1
        return counts

    def value_of(self, view: PlayerView, board: Board, target: int, reading: Reading, touched: Sequence[int],
                 every: Sequence[Sequence[int]], seen_touched: Mapping[int, int]) -> float | None:
        """[NAT-give] the value of a clue, or None if its reading would mislead: a touched
        card whose note would not hold its identity, or a card told playable that is not.
        Once the deck is out only the cards it tells playable count."""
        hand, cards, knowledge = view.hands[target], view.cards[target], view.knowledge[target]
        notes = self.notes
        changed = (*touched, *(card for card, _ in reading.prompts))
        saved_masks = {card: notes.masks.get(card) for card in changed}
        was_touched = {card: card in notes.touched for card in changed}
        was_playing = {card: card in notes.to_play for card in changed}
        was_prompted = {card: notes.prompted_by.get(card) for card in changed}
        after = every[target]
        delayed = notes.delayed(view, board, reading.focus, every)
        if reading.prompts:
            delayed |= reading.mask  # the prompted cards are checked to be what the clue says
            for _, identity in reading.prompts:
                delayed |= 1 << identity
        before = [notes.note(card, known, board) for card, known in zip(hand, knowledge)]
        prompted = self.prompt_value(view, board, reading, every) if reading.prompts else 0.0
        if prompted is None:
            return None
        may_finesse = notes.may_finesse(view, reading, self.seat)
        notes.apply(reading, touched, board, self.seat)
        try:
            score = prompted
            seen_here: dict[int, int] = {}
            for slot, card in enumerate(hand):
                x = cards[slot]
                if x is None:
                    return None
                note = notes.note(card, after[slot], board)
                if card == reading.focus and may_finesse and not note >> x & 1:
                    if not self.finesse_holds(view, board, target, card, x, every):
                        return None
                    score += 5.0  # [NAT-finesse] a blind play and the focus after it
                    continue
                if not note >> x & 1:
                    return None  # the reading would hide the card's identity
                if card in notes.to_play and not was_playing.get(card, True) and not (board.playable | delayed) >> x & 1:
                    return None  # told to play a card that will not be playable
                if card not in touched:
                    continue
                knew_playable = before[slot] & ~board.playable == 0
                now_playable = note & ~board.playable == 0
                useful = not board.trash >> x & 1
                duplicate = seen_touched.get(x, 0) + seen_here.get(x, 0) - (1 if was_touched[card] else 0) > 0
                seen_here[x] = seen_here.get(x, 0) + 1
                if not useful or duplicate:
                    if not was_touched[card]:
                        return None  # [NAT-good-touch] the receiver would take it for a needed card
                    continue
                if now_playable and not knew_playable:
                    score += 3.0
                elif card == reading.focus and reading.play and not was_playing[card]:
                    score += 2.0  # a delayed play clue
                elif view.remaining is not None:
                    continue  # [NAT-give] the deck is out: a card not told playable now will not be played
                elif not was_touched[card]:
                    score += TOUCHED + (CRITICAL if board.critical >> x & 1 else 0.0)
                score += 0.05 * (before[slot].bit_count() - note.bit_count()) / max(1, before[slot].bit_count())
            return score
        finally:
            for restored in changed:
                if saved_masks[restored] is None:
                    notes.masks.pop(restored, None)
                else:
                    notes.masks[restored] = saved_masks[restored]  # type: ignore[assignment]
                if not was_touched[restored]:
                    notes.touched.discard(restored)
                    notes.trash_then.pop(restored, None)
                if not was_playing[restored]:
                    notes.to_play.discard(restored)
                giver = was_prompted[restored]
                if giver is None:
                    notes.prompted_by.pop(restored, None)
                else:
                    notes.prompted_by[restored] = giver


    def finesse_seen(self, view: PlayerView, board: Board) -> int | None:
        """[NAT-finesse] the card another seat is to play blind for the pending clue, as far
        as this seat sees."""
        notes = self.notes
        if notes.pending is None:
            return None
        giver, target, focus = notes.pending
        if target == self.seat or focus not in view.hands[target]:
            return None
        slot = view.hands[target].index(focus)
        x = view.cards[target][slot]
        if x is None or notes.note(focus, view.knowledge[target][slot], board) >> x & 1:
            return None
        holders = self.finesse_holders(view, giver, target, notes.finesse_missing(view, board, focus, x, view.knowledge))
        return holders[0][1] if holders else None

    def finesse_holds(self, view: PlayerView, board: Board, target: int, focus: int, x: int,
                      every: Sequence[Sequence[int]]) -> bool:
        """[NAT-finesse, NAT-give] whether a clue to ``target`` whose focus is ``x`` and not
        what its note says is a finesse every seat reads right: the card below ``x`` is
        missing (NAT-finesse) and sits on the finesse position of exactly one seat between
        this seat and the receiver."""
        notes = self.notes
        if board.trash >> x & 1:
            return False
        missing = notes.finesse_missing(view, board, focus, x, every)
        if missing is None:
            return False
        holders = self.finesse_holders(view, self.seat, target, missing)
        return len(holders) == 1 and holders[0][0] not in self.distrust  # [NAT-trust] it must answer

    def prompt_holds(self, view: PlayerView, card: int, identity: int) -> bool:
        """[NAT-prompt] whether this seat sees card ``card`` and it is ``identity``."""
        for hand, cards in zip(view.hands, view.cards):
            if card in hand:
                return cards[hand.index(card)] == identity
        return False

    def prompt_value(self, view: PlayerView, board: Board, reading: Reading,
                     every: Sequence[Sequence[int]]) -> float | None:
        """[NAT-prompt, NAT-give] what the cards a clue prompts add to its value: 3 for each
        that becomes known playable, 2 for each to be played after another; None if one of
        them is not the identity the clue gives it."""
        score = 0.0
        for card, x in reading.prompts:
            for seat, hand in enumerate(view.hands):
                if card in hand:
                    slot = hand.index(card)
                    if view.cards[seat][slot] != x or seat in self.distrust:
                        return None  # the prompt would make its holder play a card it is not, or would not be played
                    note = self.notes.note(card, every[seat][slot], board)
                    if note & ~board.playable == 0:
                        continue  # its holder knew it playable already
                    score += 3.0 if board.playable >> x & 1 else 2.0
                    break
            else:
                return None
        return score


def unsupported(config: GameConfig) -> str | None:
    """[NAT-configs] the natural bot reads clues of classic touch on stacks built upwards."""
    return classic_touch_problem(config) or upward_stacks_problem(config)


def build(params: Mapping[str, Value]) -> StrategyFactory:
    def factory(config: GameConfig, seat: int, seed: int) -> NaturalStrategy:
        return NaturalStrategy(config, seat, seed, params)

    return factory


NATURAL_SPEC = StrategySpec(
    "natural",
    "reads clues as people give them: focus, play and save clues, chop, good touch (spec/strategies.md section 7)",
    (Param("gamble", "real", 0.5, "[NAT-endgame] the playable chance an endgame blind play needs", low=0.0, high=1.0),),
    build,
    unsupported,
)


__all__ = ["NATURAL_SPEC", "NaturalStrategy", "Notes", "Reading", "board_of"]
