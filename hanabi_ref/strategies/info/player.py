"""The information strategy's seat: public knowledge kept from every event, hints that
carry a number for every other seat, and the decisions of I-turn [I-turn, I-decode,
I-no-hint-needed, I-useless-hat, I-decode-check, I-configs].

Everything a seat computes about the start of a turn comes from a :class:`Moment`: the
hands (card ids), the identities it sees, the hint knowledge and the board at that
moment.  A seat keeps the moment of the start of the next turn after every event; the
first turn's moment is rebuilt from the first event (no seat sees the game before it).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import NamedTuple

from hanabi_ref.actions import Action, Discard, Hint, Play
from hanabi_ref.errors import HanabiError
from hanabi_ref.rules import GameConfig
from hanabi_ref.state import Event
from hanabi_ref.strategy import BaseStrategy, StrategyFactory
from hanabi_ref.strategies.info import search
from hanabi_ref.strategies.info.codes import code_size, focus, goodness, hint_type, hints_of_type
from hanabi_ref.strategies.info.knowledge import Board, BoardReader, PublicKnowledge, Weights, identities, ratio
from hanabi_ref.strategies.info.questions import decode, encode, is_determined
from hanabi_ref.strategies.knowledge import composition_counts
from hanabi_ref.strategies.params import Param, StrategySpec, Value
from hanabi_ref.view import PlayerView

PRESETS = ("hle", "hanab-live", "hanabi-rs")
VARIANTS = ("No Variant", "6 Suits", "Rainbow (6 Suits)", "Black (6 Suits)")
RISKY = Fraction(3, 4)
"""[I-turn] (step 2) a card surely playable or dead is played when more likely playable than this."""
HELD_SCALE = 60
"""[I-turn] (step 1) a multiple of every 1 + (seats holding a copy) up to 5 players, so
that the play score's terms are integers."""


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


class InfoError(HanabiError):
    """[I-decode-check] a seat decoded another number than the actor encoded, or a code
    had no hint of the type a number named (a bug either way)."""


class Moment(NamedTuple):
    """The public facts of one moment as one seat sees them."""

    hands: tuple[tuple[int, ...], ...]
    cards: tuple[tuple[int | None, ...], ...]
    knowledge: tuple[tuple[int, ...], ...]
    board: Board
    hints: int

    @classmethod
    def of(cls, view: PlayerView, board: Board | None = None) -> Moment:
        """The moment of ``view``; ``board`` is its board when the caller has it."""
        return cls(view.hands, view.cards, view.knowledge, Board.of(view) if board is None else board, view.hints)

    @classmethod
    def before_first(cls, view: PlayerView, event: Event) -> Moment:
        """The start of the game, rebuilt from the view after its first event: every
        card unknown, nothing played or discarded, the actor's hand as before its move."""
        config = view.config
        hands, cards = list(view.hands), list(view.cards)
        if isinstance(event.action, (Play, Discard)):
            actor, slot = event.player, event.action.slot
            hand = [card for card in hands[actor] if card != event.drawn]
            seen = [card for card, card_id in zip(cards[actor], hands[actor]) if card_id != event.drawn]
            hand.insert(slot, event.card_id if event.card_id is not None else -1)
            seen.insert(slot, event.card if actor != view.seat else None)
            hands[actor], cards[actor] = tuple(hand), tuple(seen)
        counts = composition_counts(config)
        board = Board(config, (0,) * len(config.suits), (0,) * len(counts), counts)
        knowledge = tuple((config.all_cards_mask,) * len(hand) for hand in hands)
        return cls(tuple(hands), tuple(cards), knowledge, board, config.max_hints)


class Log:
    """[I-decode-check] the numbers the actors of one game encoded, by turn and seat."""

    def __init__(self) -> None:
        self.encoded: dict[int, dict[int, int]] = {}
        self.compared = 0

    def check(self, turn: int, seat: int, number: int) -> None:
        intended = self.encoded.get(turn, {}).get(seat)
        if intended is None:
            return
        self.compared += 1
        if intended != number:
            raise InfoError(f"I-decode-check: seat {seat} decoded {number} from the move of turn {turn}, "
                            f"which encoded {intended}")


class InfoPlayer(BaseStrategy):
    """One seat of the information strategy [I-turn]."""

    def __init__(self, config: GameConfig, seat: int, log: Log | None = None,
                 options: Options = Options(), seed: int = 0) -> None:
        INFO_SPEC.check_config(config)
        self.config = config
        self.options = options
        self.seat = seat
        self.seed = seed
        """The seat's strategy seed: the worlds of the search are drawn from it (I-search)."""
        self.public = PublicKnowledge()
        self.boards = BoardReader(config)
        self.moment: Moment | None = None
        self.log = log
        self.turn = 0
        self.slack = config.deck_size - config.max_score - config.players * config.hand_size
        """D of steps 2 and 3 of I-turn: the discards the source allows before caring."""

    # ------------------------------------------------------------ public knowledge

    def sets(self, moment: Moment, seat: int, public: PublicKnowledge | None = None) -> list[int]:
        """The public sets of ``seat``'s cards at ``moment`` [I-public]."""
        return (public or self.public).sets(moment.hands[seat], moment.knowledge[seat], moment.board)

    def observe(self, view: PlayerView, event: Event) -> None:
        before = self.moment if self.moment is not None else Moment.before_first(view, event)
        action = event.action
        if isinstance(action, Hint):
            self._hear_hint(before, event, action)
        elif isinstance(action, Discard):
            self._hear_discard(before, event, action)
        if event.card_id is not None:
            self.public.forget(event.card_id)
        self.moment = Moment.of(view, self.boards.of(view))

    def _others(self, actor: int) -> list[int]:
        """The seats other than ``actor``, in turn order after it."""
        players = self.config.players
        return [(actor + offset) % players for offset in range(1, players)]

    def _codes(self, moment: Moment, actor: int) -> list[tuple[int, int, int]]:
        """(seat, focus slot, k) of every seat other than the actor, in turn order [I-k]."""
        codes = []
        for seat in self._others(actor):
            sets = self.sets(moment, seat)
            if not sets:
                codes.append((seat, 0, 0))
                continue
            slot = focus(sets, moment.board)
            codes.append((seat, slot, code_size(sets, slot, moment.board)))
        return codes

    def _hear_hint(self, before: Moment, event: Event, hint: Hint) -> None:
        """[I-hint-map, I-decode] the number a hint carries, then every seat's answers."""
        codes = self._codes(before, event.player)
        total = sum(k for _, _, k in codes)
        number = 0
        for seat, slot, k in codes:
            if seat == hint.target:
                focus_id = before.hands[seat][slot]
                number += hint_type(hint, focus_id in event.touched, k)
                break
            number += k
        self._hear_answers(before, event, number, total)

    def _hear_answers(self, before: Moment, event: Event, number: int, total: int,
                      public: PublicKnowledge | None = None) -> None:
        """Apply the answers of every seat but the actor; this seat's own answers are the
        number minus the others' [I-answers, I-decode, H-recover]."""
        actor = event.player
        others = 0
        for seat in self._others(actor):
            if seat == self.seat:
                continue
            others += self._answer(before, seat, total, public)
        if self.seat != actor:
            own = (number - others) % total
            if self.log is not None:
                self.log.check(event.turn, self.seat, own)
            sets = self.sets(before, self.seat, public)
            decode(sets, total, before.board, own)
            self._keep(before, self.seat, sets)

    def _answer(self, before: Moment, seat: int, total: int, public: PublicKnowledge | None = None) -> int:
        """Answer ``seat``'s questions from its cards (seen) and keep the answers."""
        sets = self.sets(before, seat, public)
        hand = [card for card in before.cards[seat] if card is not None]
        number = encode(sets, total, before.board, hand)
        self._keep(before, seat, sets)
        return number

    def _keep(self, before: Moment, seat: int, sets: Sequence[int]) -> None:
        for card_id, mask in zip(before.hands[seat], sets):
            self.public.restrict(card_id, mask)

    def _hear_discard(self, before: Moment, event: Event, discard: Discard) -> None:
        """[I-no-hint-needed, I-useless-hat] what a discard tells."""
        actor = event.player
        if before.hints > 0:
            self._nobody_needed_a_hint(before, actor, self.public)
        useless = self.useless(self.sets(before, actor), before.board)
        if len(useless) >= 2 and discard.slot in useless:
            self._hear_answers(before, event, useless.index(discard.slot), len(useless))

    def _nobody_needed_a_hint(self, before: Moment, actor: int, public: PublicKnowledge) -> None:
        """[I-no-hint-needed] a seat that knows no card playable has none: applied to
        ``public`` (this seat's knowledge, or the actor's scratch copy of it)."""
        board = before.board
        for seat in self._others(actor):
            sets = self.sets(before, seat, public)
            if all(not board.surely(mask, board.playable) for mask in sets):
                for card_id in before.hands[seat]:
                    public.restrict(card_id, ~board.playable)

    @staticmethod
    def useless(sets: Sequence[int], board: Board, weights: Weights | None = None) -> list[int]:
        """[I-useless] the slots of cards surely dead or surely a duplicate of another
        card of the hand, in slot order."""
        found = []
        for slot, mask in enumerate(sets):
            if board.surely(mask, board.dead, weights):
                found.append(slot)
            elif is_determined(mask) and any(other == mask for index, other in enumerate(sets) if index != slot):
                found.append(slot)
        return found

    # ------------------------------------------------------------ the turn

    def blueprint_copy(self, view: PlayerView) -> InfoPlayer:
        """[I-search] the seat of ``view`` at the start of this turn, playing without the
        search: this seat's public knowledge (every seat's, I-common) and the moment of
        ``view``."""
        copy = InfoPlayer(self.config, view.seat, None, self.options._replace(search=0))
        copy.public = self.public.copy()
        copy.moment = Moment.of(view, copy.boards.of(view))
        return copy

    def act(self, view: PlayerView) -> Action:
        blueprint = self._decide(view)
        if not self.options.search or view.stack_size > self.options.search_stack:
            return blueprint
        return self._search(view, blueprint)

    def _search(self, view: PlayerView, blueprint: Action) -> Action:
        """[I-search] the move the endgame search prefers to ``blueprint``, the move of
        I-turn; the decode log then holds what the chosen move encodes."""
        moment, weights, public, own = self._knowledge(view)
        board = moment.board
        encoded = {} if self.log is None else self.log.encoded
        numbers = {blueprint: encoded.pop(view.turn, None)}
        hint = None
        if view.hints > 0:
            hint = self._hint(moment)
            numbers.setdefault(hint, encoded.pop(view.turn, None))
        moves = search.candidates(view, blueprint, own, board, weights, hint, self.useless(public, board),
                                  self._someone_needs_a_hint(moment, board))
        chosen = search.choose(self, view, blueprint, moves, own, weights, self.options.search, self.seed)
        chosen_numbers = numbers.get(chosen)
        if chosen_numbers is not None:
            encoded[view.turn] = chosen_numbers
        return chosen

    def _knowledge(self, view: PlayerView) -> tuple[Moment, Weights, list[int], list[int]]:
        """The moment of ``view``, the private weights [I-weights], this seat's public sets
        [I-public] and its private sets (the public sets less the identities it sees every
        copy of)."""
        moment = Moment.of(view, self.boards.of(view))
        weights = self._private_weights(view, moment.board)
        public = self.sets(moment, self.seat)
        return moment, weights, public, [mask & weights.positive for mask in public]

    def _decide(self, view: PlayerView) -> Action:
        """[I-turn] the move of the strategy without the search."""
        self.turn = view.turn
        moment, weights, _, own = self._knowledge(view)
        board = moment.board
        play = self._sure_play(view, own, board, weights)
        if play is not None:
            return play
        errors_left = None if self.config.max_errors is None else self.config.max_errors - view.errors
        may_err = errors_left is None or errors_left > 1
        if may_err and self.options.endgame and view.stack_size == 0 and not self._hint_helps_later(view, moment):
            gamble = self._endgame_play(own, board, weights)
            if gamble is not None:
                return gamble
        slack_left = len(view.discard) <= self.slack
        if may_err and slack_left:
            risky = self._risky_play(own, board, weights)
            if risky is not None:
                return risky
        if self._wants_to_hint(view, moment, own, board, weights, slack_left):
            return self._hint(moment)
        return self._discard(view, moment, own, board, weights)

    def _private_weights(self, view: PlayerView, board: Board) -> Weights:
        """[I-weights] public weights less the copies seen in other hands."""
        weights = list(board.weights.counts)
        for seat, cards in enumerate(view.cards):
            if seat != self.seat:
                for card in cards:
                    if card is not None and weights[card] > 0:
                        weights[card] -= 1
        return Weights(weights)

    def _sure_play(self, view: PlayerView, own: Sequence[int], board: Board, weights: Weights) -> Play | None:
        """[I-turn] (step 1) the card known playable that matters most."""
        held: dict[int, int] = {}
        if view.stack_size > 0:
            for seat, cards in enumerate(view.cards):
                if seat != self.seat:
                    for card in set(cards):
                        if card is not None:
                            held[card] = held.get(card, 0) + 1
        best: tuple[float, int] | None = None
        for slot, mask in enumerate(own):
            if not board.surely(mask, board.playable, weights):
                continue
            total = board.weight(mask, weights)
            score = ratio(sum(weights[card] * (10 - (card % board.values + 1)) * (HELD_SCALE // (1 + held.get(card, 0)))
                              for card in identities(mask)), HELD_SCALE * total)
            if best is None or score > best[0]:
                best = (score, slot)
        return None if best is None else Play(best[1])

    def _risky_play(self, own: Sequence[int], board: Board, weights: Weights) -> Play | None:
        """[I-turn] (step 2) a card surely playable or dead, if likely enough playable (the
        bound is the option of I-risky)."""
        best: tuple[float, int, int, int] | None = None
        for slot, mask in enumerate(own):
            if not board.surely(mask, board.playable | board.dead, weights):
                continue
            on_play, whole = weights.total(mask & board.playable), weights.total(mask)
            chance = ratio(on_play, whole)
            if best is None or chance > best[0]:
                best = (chance, on_play, whole, slot)
        risky = self.options.risky
        if best is None or best[1] * risky.denominator <= risky.numerator * best[2]:
            return None
        return Play(best[3])

    def _hint_helps_later(self, view: PlayerView, moment: Moment) -> bool:
        """[I-endgame] (option 2) a token is left and a seat that still has a turn holds a
        playable card that it does not know playable by public knowledge."""
        if self.options.endgame < 2 or view.hints == 0 or view.remaining is None:
            return False
        return any(self._needs_a_hint(moment, moment.board, seat)
                   for seat in self._others(self.seat)[: view.remaining - 1])

    @staticmethod
    def _endgame_play(own: Sequence[int], board: Board, weights: Weights) -> Play | None:
        """[I-endgame] *(ours)* with the stack empty, every seat has at most one turn left:
        the card most likely playable (the oldest on ties), if it may be playable at all."""
        best: tuple[float, int] | None = None
        for slot, mask in enumerate(own):
            whole = weights.total(mask)
            chance = ratio(weights.total(mask & board.playable), whole) if whole else 0.0
            if best is None or chance > best[0]:
                best = (chance, slot)
        return Play(best[1]) if best is not None and best[0] > 0 else None

    def _wants_to_hint(self, view: PlayerView, moment: Moment, own: Sequence[int], board: Board,
                       weights: Weights, slack_left: bool) -> bool:
        """[I-turn] (step 3) whether to hint (the last rule's bound is the option of I-hint-above)."""
        tokens = view.hints
        if tokens == 0:
            return False
        if tokens == self.config.max_hints or self._someone_needs_a_hint(moment, board):
            return True
        if slack_left and self.useless(own, board, weights):
            return False
        if any(board.playable >> card & 1 for seat in self._others(self.seat) for card in moment.cards[seat]
               if card is not None):
            return True
        above = self.options.hint_above
        return tokens > (self.config.max_hints // 2 if above < 0 else above)

    def _someone_needs_a_hint(self, moment: Moment, board: Board) -> bool:
        return any(self._needs_a_hint(moment, board, seat) for seat in self._others(self.seat))

    def _needs_a_hint(self, moment: Moment, board: Board, seat: int) -> bool:
        """``seat`` holds a playable card (seen) and knows no card playable (public)."""
        sees_playable = any(card is not None and board.playable >> card & 1 for card in moment.cards[seat])
        return sees_playable and all(not board.surely(mask, board.playable) for mask in self.sets(moment, seat))

    def _hint(self, moment: Moment) -> Hint:
        """[I-hint-map, I-hint-choice] the hint carrying every other seat's answers."""
        codes = self._codes(moment, self.seat)
        total = sum(k for _, _, k in codes)
        scratch = self.public.copy()
        numbers = {seat: self._encode_for(moment, seat, total, scratch) for seat, _, _ in codes}
        number = sum(numbers.values()) % total
        if self.log is not None:
            self.log.encoded[self.turn] = numbers
        for seat, slot, k in codes:
            if number < k:
                hand = [card for card in moment.cards[seat] if card is not None]
                choices = hints_of_type(number, k, seat, hand, slot, self.config)
                if not choices:
                    raise InfoError(f"I-k-exists: seat {seat} has no hint of type {number} (k = {k}, hand {hand})")
                sets = self.sets(moment, seat)
                return max(choices, key=lambda hint: (goodness(hint, sets, hand, moment.board), -choices.index(hint)))
            number -= k
        raise InfoError(f"I-hint-map: number {number} beyond the codes {codes}")

    def _encode_for(self, moment: Moment, seat: int, total: int, public: PublicKnowledge) -> int:
        sets = self.sets(moment, seat, public)
        hand = [card for card in moment.cards[seat] if card is not None]
        return encode(sets, total, moment.board, hand)

    def _discard(self, view: PlayerView, moment: Moment, own: Sequence[int], board: Board,
                 weights: Weights) -> Discard | Hint:
        """[I-turn] (step 4) which card to discard; a hint instead of the card of highest
        score when that card is too likely critical (I-critical-hint)."""
        public_useless = self.useless(self.sets(moment, self.seat), board)
        if len(public_useless) >= 2:
            scratch = self.public.copy()
            if moment.hints > 0:
                self._nobody_needed_a_hint(moment, self.seat, scratch)
            total = len(public_useless)
            numbers = {seat: self._encode_for(moment, seat, total, scratch) for seat in self._others(self.seat)}
            if self.log is not None:
                self.log.encoded[self.turn] = numbers
            return Discard(public_useless[sum(numbers.values()) % total])
        private_useless = self.useless(own, board, weights)
        if private_useless:
            return Discard(private_useless[0])
        slot = self._least_valuable(view, moment, own, board, weights)
        if view.hints > 0 and self._too_critical(own[slot], board, weights):
            return self._hint(moment)
        return Discard(slot)

    def _too_critical(self, mask: int, board: Board, weights: Weights) -> bool:
        """[I-critical-hint] *(ours)* whether the card of set ``mask`` that step 4 would
        discard by its score is critical with private probability above the option's bound."""
        bound = self.options.critical_hint
        return bound < 1 and 1 - board.probability(mask, board.dispensable, weights) > bound

    def _least_valuable(self, view: PlayerView, moment: Moment, own: Sequence[int], board: Board,
                        weights: Weights) -> int:
        """[I-turn] (step 4) the card of highest 20 P(seen elsewhere) + 10 P(dispensable) + E[value]
        (the weight 10 is the option of I-discard-weight)."""
        seen = 0
        for seat in self._others(self.seat):
            for card in moment.cards[seat]:
                if card is not None:
                    seen |= 1 << card
        dispensable = board.dispensable
        keep = self.options.dispensable_weight
        best: tuple[float, int] | None = None
        for slot, mask in enumerate(own):
            total = weights.total(mask)
            if not total:
                continue
            value = sum(weights[card] * (card % board.values + 1) for card in identities(mask))
            score = ratio(20 * weights.total(mask & seen) + keep * weights.total(mask & dispensable) + value, total)
            if best is None or score > best[0]:
                best = (score, slot)
        return 0 if best is None else best[1]


# ------------------------------------------------------------------ the named strategy


def unsupported(config: GameConfig) -> str | None:
    """[I-configs] why the strategy cannot play ``config``, or None."""
    supported = f"it plays 2 to 5 players, presets {', '.join(PRESETS)}, variants {', '.join(VARIANTS)}"
    if not 2 <= config.players <= 5:
        return f"{config.players} players: {supported}"
    if config.preset not in PRESETS:
        return f"preset {config.preset!r}: {supported}"
    if config.variant not in VARIANTS:
        return f"variant {config.variant!r}: {supported}"
    return None


def _fraction(value: Value) -> Fraction:
    """A real parameter as the exact fraction of its decimal text (0.75 is 3/4)."""
    return Fraction(str(value))


def options_of(params: Mapping[str, Value]) -> Options:
    """[I-options] the options named by the parameters (absent ones keep their defaults)."""
    return Options(
        endgame=int(params.get("endgame", 0)),
        dispensable_weight=int(params.get("dispensable_weight", 10)),
        critical_hint=_fraction(params.get("critical_hint", 1)),
        risky=_fraction(params.get("risky", "0.75")),
        hint_above=int(params.get("hint_above", -1)),
        search=int(params.get("search", 0)),
        search_stack=int(params.get("search_stack", 6)),
    )


def build(params: Mapping[str, Value]) -> StrategyFactory:
    """The factory of :class:`InfoPlayer`; with ``check=1`` the seats of a game share a
    :class:`Log` and stop the game at the first number decoded wrongly [I-decode-check]."""
    check = bool(params.get("check", 0))
    options = options_of(params)
    logs: list[Log] = []

    def factory(config: GameConfig, seat: int, seed: int) -> InfoPlayer:
        if not check:
            return InfoPlayer(config, seat, None, options, seed)
        if seat == 0 or not logs:
            logs[:] = [Log()]
        return InfoPlayer(config, seat, logs[0], options, seed)

    return factory


STRONG = Options(endgame=2, dispensable_weight=100, critical_hint=Fraction(1, 10))
"""[I-strong] the best combination measured: the defaults of ``--strategy info``."""


def _params(defaults: Options) -> tuple[Param, ...]:
    """The parameters of the strategy, defaulting to ``defaults``: the source's values
    (``info-source``) or the best combination (``info``) [I-options, I-strong]."""
    return (
        Param("check", "int", 0, "1: stop a game when a seat decodes another number than encoded [I-decode-check]",
              choices=(0, 1)),
        Param("endgame", "int", defaults.endgame, "0: the source; 1: once the stack is empty, with two errors still "
              "allowed, play the card most likely playable if it may be playable; 2: the same unless a token is "
              "left and a seat still to act holds a playable card it does not know playable (then hint) "
              "[I-endgame]", choices=(0, 1, 2)),
        Param("dispensable_weight", "int", defaults.dispensable_weight, "weight of P(dispensable) in the discard "
              "score 20 P(seen elsewhere) + w P(dispensable) + E[value] (the source: 10) [I-discard-weight]", 0, 1000),
        Param("critical_hint", "real", float(defaults.critical_hint), "hint (a token left) rather than discard a "
              "card critical with probability above this (1: never, the source) [I-critical-hint]", 0.0, 1.0),
        Param("risky", "real", float(defaults.risky), "a risky play needs a playable probability above this "
              "(the source: 0.75) [I-risky]", 0.0, 1.0),
        Param("hint_above", "int", defaults.hint_above, "without another reason, hint when more tokens than this "
              "are left (-1: half the maximum, the source's 4 of 8) [I-hint-above]", -1, 8),
        Param("search", "int", defaults.search, "0: no search; W: near the end, roll out each move the other seats "
              "would read truly on W worlds drawn from this seat's knowledge and take another move than the "
              "strategy's when it ends perfect in at least 2 more of them [I-search]", 0, 1024),
        Param("search_stack", "int", defaults.search_stack, "the search runs while the stack holds at most this "
              "many cards [I-search]", 0, 60),
    )


INFO_SPEC = StrategySpec(
    "info",
    "the information strategy with our best options (I-strong): hints carry answers to every seat's questions "
    "(spec/info.md)",
    _params(STRONG),
    build,
    unsupported,
)

SEARCH = STRONG._replace(search=32)
"""[I-search] the defaults of ``--strategy info-search``: I-strong and the endgame search on
32 worlds."""

SEARCH_INFO_SPEC = StrategySpec(
    "info-search",
    "the information strategy with our best options and the endgame search (I-search): slower, stronger "
    "(spec/info.md)",
    _params(SEARCH),
    build,
    unsupported,
)

SOURCE_INFO_SPEC = StrategySpec(
    "info-source",
    "the information strategy exactly as the source's bot plays (spec/info.md): every option at the source's value",
    _params(Options()),
    build,
    unsupported,
)
