"""The information strategy's seat: it keeps the public knowledge from every event and
plays the decisions of I-turn [I-turn, I-decode, I-decode-check, I-configs, I-search].

The seat is thin: what a move tells is computed in :mod:`.reading`, what to do in
:mod:`.decisions`, the endgame search in :mod:`.search`; the seat holds the state they
read (its public knowledge, its board reader and the moment of the start of the next
turn) and applies what they return.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction

from hanabi_ref.engine.actions import Action, Discard, Hint
from hanabi_ref.engine.config import GameConfig
from hanabi_ref.engine.state import Event
from hanabi_ref.players.strategy import BaseStrategy, StrategyFactory
from hanabi_ref.players.strategies.adapt import adaptive
from hanabi_ref.players.strategies.info import search
from hanabi_ref.players.strategies.info.decisions import Numbers, Options, Turn, check_choice, decide, hint_of, slack, someone_needs_a_hint, turn_of
from hanabi_ref.players.strategies.info.knowledge import BoardReader, Moment, PublicKnowledge, board_of
from hanabi_ref.players.strategies.info.reading import (InfoError, code_total, codes_of, nobody_needed_a_hint,
                                                number_of_hint, others_answers, own_answers, useless,
                                                useless_discard)
from hanabi_ref.players.strategies.params import Param, StrategySpec, Value
from hanabi_ref.engine.view import PlayerView

PRESETS = ("hle", "hanab-live", "hanabi-rs")
VARIANTS = ("No Variant", "6 Suits", "Rainbow (6 Suits)", "Black (6 Suits)")


class Log:
    """[I-decode-check] the numbers the actors of one game encoded, by turn and seat."""

    def __init__(self) -> None:
        self.encoded: dict[int, Numbers] = {}
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

    # ------------------------------------------------------------ what a move tells

    def observe(self, view: PlayerView, event: Event) -> None:
        """[I-public-move, I-decode, I-no-hint-needed, I-useless-hat] apply what ``event``
        tells, read at the moment before it."""
        before = self.moment if self.moment is not None else Moment.before_first(view, event)
        action = event.action
        if isinstance(action, Hint):
            codes = codes_of(self.public, before, event.player)
            if self.seat not in (event.player, action.target):
                check_choice(self.public, before, codes, action, event.touched)  # [S-foreign-detect]
            self._hear_answers(before, event, number_of_hint(codes, before, action, event.touched), code_total(codes))
        elif isinstance(action, Discard):
            if before.hints > 0:
                self.public.apply(nobody_needed_a_hint(self.public, before, event.player))
            carried = useless_discard(self.public, before, event.player, action.slot)
            if carried is not None:
                self._hear_answers(before, event, *carried)
        if event.card_id is not None:
            self.public.forget(event.card_id)
        self.moment = Moment.of(view, self.boards.of(view))

    def _hear_answers(self, before: Moment, event: Event, number: int, total: int) -> None:
        """Apply the answers of every seat but the actor; this seat's own answers are the
        number minus the others' [I-answers, I-decode, H-recover], checked against the log
        [I-decode-check]."""
        others, kept = others_answers(self.public, before, event.player, self.seat, total)
        self.public.apply(kept)
        if self.seat != event.player:
            own = (number - others) % total
            if self.log is not None:
                self.log.check(event.turn, self.seat, own)
            self.public.apply(own_answers(self.public, before, self.seat, own, total))

    # ------------------------------------------------------------ the turn

    def read_turn(self, view: PlayerView) -> Turn:
        """What this seat knows at the start of the turn of ``view`` [I-turn]."""
        return turn_of(view, self.boards.of(view), self.public, self.options)

    def blueprint_copy(self, view: PlayerView) -> InfoPlayer:
        """[I-search] the seat of ``view`` at the start of this turn, playing without the
        search: this seat's public knowledge (every seat's, I-common) and the moment of
        ``view``."""
        copy = InfoPlayer(self.config, view.seat, None, self.options._replace(search=0))
        copy.public = self.public.copy()
        copy.moment = Moment.of(view, copy.boards.of(view))
        return copy

    def act(self, view: PlayerView) -> Action:
        """[I-turn, I-search] the move of I-turn, or the one the endgame search prefers."""
        turn = self.read_turn(view)
        blueprint, numbers = decide(turn, self.public)
        if self.options.search and view.deck_size <= self.options.search_stack:
            blueprint, numbers = self._search(view, turn, blueprint, numbers)
        if numbers is not None and self.log is not None:
            self.log.encoded[view.turns] = numbers
        return blueprint

    def _search(self, view: PlayerView, turn: Turn, blueprint: Action,
                numbers: Numbers | None) -> tuple[Action, Numbers | None]:
        """[I-search] the move the endgame search prefers to ``blueprint``, the move of
        I-turn, and the numbers the chosen move encodes."""
        board = turn.moment.board
        encoded = {blueprint: numbers}
        hint = None
        if view.clue_tokens > 0:
            hint, hint_numbers = hint_of(turn, self.public)
            encoded.setdefault(hint, hint_numbers)
        moves = search.candidates(view, blueprint, turn.own, board, turn.weights, hint, useless(turn.public, board),
                                  someone_needs_a_hint(turn, self.public))
        chosen = search.choose(self, view, blueprint, moves, turn.own, turn.weights, self.options.search, self.seed)
        return chosen, encoded.get(chosen)


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


def may_have_risked(view: PlayerView, event: Event) -> bool:
    """[S-foreign-team, I-turn] whether a failed play may be an honest risky play (step 2):
    before it, at least two errors could still be made, the discard pile held at most D
    cards, and the card shown is dead (a risky play is of a card surely playable or dead,
    and an honest team's knowledge holds the card's identity).  ``view`` is the one right
    after the play, whose card is now discarded."""
    config = view.config
    errors = view.strikes - 1
    may_err = config.max_errors is None or config.max_errors - errors > 1
    if not (may_err and len(view.discard) - 1 <= slack(config)) or event.card is None:
        return False
    discarded = [0] * (config.values * len(config.suits))
    for _, card in view.discard[:-1]:  # the pile before the play
        discarded[card] += 1
    return bool(board_of(config, view.fireworks, tuple(discarded)).dead >> event.card & 1)


def build(params: Mapping[str, Value]) -> StrategyFactory:
    """The factory of :class:`InfoPlayer`; with ``check=1`` the seats of a game share a
    :class:`Log` and stop the game at the first number decoded wrongly [I-decode-check].
    The factory keeps the configuration of its last game and hands it to every seat of an
    equal configuration, so that their boards share one configuration object (see
    :class:`~hanabi_ref.players.strategies.info.knowledge.BoardReader`)."""
    check = bool(params.get("check", 0))
    options = options_of(params)
    logs: list[Log] = []
    shared: list[GameConfig] = []

    def factory(config: GameConfig, seat: int, seed: int) -> InfoPlayer:
        if not shared or (shared[0] is not config and shared[0] != config):
            shared[:] = [config]
        config = shared[0]
        if not check:
            return InfoPlayer(config, seat, None, options, seed)
        if seat == 0 or not logs:
            logs[:] = [Log()]
        return InfoPlayer(config, seat, logs[0], options, seed)

    return factory if check else adaptive(factory, may_have_risked)  # [S-foreign]; check mode reports


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
