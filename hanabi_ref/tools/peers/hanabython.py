"""The ``hanabython`` package behind the :class:`~hanabi_ref.tools.protocol.engine.Engine`
interface [PE-hanabython, PE-hanabython-deal, PE-hanabython-actions, PE-hanabython-state].

hanabython runs a whole game in one call, ``Game.play()``, asking each player object for
its action.  The adapter runs ``play()`` in a thread whose players are
``PlayerBase`` objects (hanabython's own bookkeeping of the public knowledge) that hand
each request for an action over to the adapter and wait for the answer; between two
moves the game thread is blocked, so its state can be read.  The deck is put into
hanabython's draw pile before the game starts.  Our configuration for hanabython is
:func:`hanabi_ref.tools.peers.peer_config` ``("hanabython", ...)`` (``spec/peers.md``).
"""

from __future__ import annotations

import queue
import random
import threading
from typing import Any, Final

import attrs

from hanabi_ref.engine.actions import Action, Discard, Hint, Play
from hanabi_ref.tools.peers import HANABYTHON_OPTIONS, import_peer
from hanabi_ref.engine.cards import all_identities, suit_of
from hanabi_ref.engine.config import GameConfig
from hanabi_ref.engine.presets import PRESETS, RuleOptions
from hanabi_ref.tools.protocol.engine import EngineFailure, check_supported, started
from hanabi_ref.engine.tables import tables_for

# [PE-hanabython-variants] hanabython's colours that can be clued, given to our clue
# colours in order (Purple has no hanabython colour: White stands in for it).
ORDINARY_COLOURS: Final = ("RED", "YELLOW", "GREEN", "BLUE", "WHITE", "SIXTH")
MULTICOLOUR: Final = "MULTICOLOR"
FINAL_DRAW_FIELDS: Final = ("hands", "knowledge", "deck_size")


def hanabython_options(empty_hints: bool) -> RuleOptions:
    """The rule options hanabython plays by [PE-hanabython]: hanab-live's (no discard at
    t = t0 [PE-hanabython-discard-max]; the game ends when no more points are possible
    [PE-hanabython-no-points]) with a round-robin deal [PE-hanabython-deal], the newest
    card first, so that our slots are hanabython's indices [PE-hanabython-slots], no
    draw after the final move [PE-hanabython-final-draw] and the last round played out
    [PE-hanabython-last-round]; empty hints follow
    hanabython's ``empty_clue_rule`` [PE-hanabython-empty-hints]."""
    options = attrs.evolve(PRESETS["hanab-live"].options, **HANABYTHON_OPTIONS)
    return attrs.evolve(options, empty_hints=empty_hints)


def suit_colours(config: GameConfig) -> list[str] | str:
    """The hanabython colour of each suit, or why there is none [PE-hanabython-variants]:
    a suit with a clue colour of its own gets that colour's hanabython colour, a suit
    touched by every clue colour gets Multicolor."""
    if len(config.colours) > len(ORDINARY_COLOURS):
        return f"hanabython has {len(ORDINARY_COLOURS)} colours that can be clued, not {len(config.colours)}"
    everything = frozenset(range(len(config.colours)))
    names: list[str] = []
    for suit in config.suits:
        if len(suit.touched_by) == 1:
            names.append(ORDINARY_COLOURS[min(suit.touched_by)])
        elif suit.touched_by == everything and MULTICOLOUR not in names:
            names.append(MULTICOLOUR)
        else:
            return f"suit {suit.name!r} is neither ordinary nor the one multicolour suit"
    ordinary = [name for name in names if name != MULTICOLOUR]
    if len(set(ordinary)) != len(config.colours):
        return "hanabython needs one suit for each clue colour"
    return names


def hanabython_unsupported(config: GameConfig) -> str | None:
    """``None`` if hanabython plays ``config`` exactly as we do, else why not [PE-hanabython,
    PE-hanabython-variants]."""
    if config.players < 2:
        return "the adapter drives hanabython with 2 or more players"
    wanted = hanabython_options(config.options.empty_hints)
    if config.options != wanted:
        ours, theirs = attrs.asdict(config.options), attrs.asdict(wanted)
        differing = [f"{name}={ours[name]!r} (hanabython: {theirs[name]!r})" for name in ours if ours[name] != theirs[name]]
        return "rule options differ from hanabython's: " + ", ".join(differing)
    colours = suit_colours(config)
    if isinstance(colours, str):
        return colours
    for suit in config.suits:
        if 0 in suit.counts:
            # [PE-hanabython-variants] hanabython's "max score possible" assumes every value
            # of every suit has a copy; with a value missing it would differ from R-1.
            return f"suit {suit.name!r} has a value without copies, which hanabython's end rule mishandles"
    return None


class _Closed(Exception):
    """Raised in the game thread to end a game the adapter abandons."""


class _DryRun(Exception):
    """Raised by ``receive_action_legal`` when the adapter only asks whether an action is legal."""


_CLOSE: Final = object()


class _Link:
    """The hand-over between hanabython's game thread and the adapter [PE-hanabython]."""

    def __init__(self, timeout: float) -> None:
        self.actions: queue.Queue[object] = queue.Queue()
        self.events: queue.Queue[tuple[str, int | str | None]] = queue.Queue()
        self.refusal: str | None = None
        self.dry_run = False
        self.timeout = timeout

    def next_action(self) -> object:
        """Game thread: report that hanabython waits for an action (with the reason it
        refused the previous one, if it did), then wait for it."""
        self.events.put(("await", self.refusal))
        self.refusal = None
        action = self.actions.get()
        if action is _CLOSE:
            raise _Closed
        return action

    def wait(self) -> tuple[str, int | str | None]:
        """Adapter: the game thread's next report."""
        try:
            return self.events.get(timeout=self.timeout)
        except queue.Empty:
            raise EngineFailure(f"hanabython adapter: no answer from hanabython within {self.timeout} s") from None


def _run(game: Any, link: _Link) -> None:
    """The game thread: hanabython's own game loop, to the end of the game."""
    try:
        score = game.play()
    except _Closed:
        return
    except Exception as error:  # reported to the adapter, which raises EngineFailure
        link.events.put(("error", f"{type(error).__name__}: {error}"))
        return
    link.events.put(("over", int(score)))


def _seat_class(player_base: type) -> type:
    """A hanabython ``PlayerBase`` whose choices come from the adapter [PE-hanabython]."""

    class Seat(player_base):  # type: ignore[misc]
        def __init__(self, name: str, link: _Link) -> None:
            super().__init__(name)
            self.link = link

        def choose_action(self) -> object:
            return self.link.next_action()

        def receive_action_legal(self) -> None:
            if self.link.dry_run:
                raise _DryRun

        def receive_action_illegal(self, s: str) -> None:
            self.link.refusal = s

    return Seat


class HanabythonEngine:
    """hanabython's ``Game``, dealt our deck and driven move by move [PE-hanabython]."""

    name = "hanabython"
    shows_views = False  # [EP-observe] the adapter does not read the peer's observations

    def __init__(self, timeout: float = 30.0) -> None:
        self._hb = import_peer("hanabython", "hanabython", "hanabython")
        self._seat = _seat_class(self._hb.PlayerBase)
        self._timeout = timeout
        self._config: GameConfig | None = None
        self._game: Any = None
        self._link: _Link | None = None
        self._thread: threading.Thread | None = None
        self._over = False
        self._score = 0
        self._final_draw = False
        self._cards: list[Any] = []
        self._seats: list[Any] = []

    def unsupported(self, config: GameConfig) -> str | None:
        """[PE-hanabython-variants] and the rule options of PE-hanabython."""
        return hanabython_unsupported(config)

    @property
    def config(self) -> GameConfig:
        """The configuration of the game being played."""
        return started(self._config, "hanabython adapter")

    @property
    def link(self) -> _Link:
        """The hand-over to the game thread of the game being played."""
        return started(self._link, "hanabython adapter")

    def _colour(self, name: str) -> Any:
        return getattr(self._hb.Colors, name)

    def _suit_colours(self, config: GameConfig) -> list[Any]:
        """hanabython's colour object of each suit [PE-hanabython-variants]."""
        names = suit_colours(config)
        if isinstance(names, str):
            raise EngineFailure(f"hanabython adapter: {names}")
        return [self._colour(name) for name in names]

    def _configuration(self, config: GameConfig) -> Any:
        """hanabython's ``Configuration`` for ``config`` [PE-hanabython, PE-hanabython-hand-size]."""
        hb = self._hb
        deck = hb.ConfigurationDeck(
            contents=[
                (colour, hb.ConfigurationColorContents(list(suit.counts)))
                for colour, suit in zip(self._suit_colours(config), config.suits)
            ]
        )
        rule = hb.ConfigurationEmptyClueRule
        return hb.Configuration(
            deck=deck,
            n_clues=config.max_hints,
            # f0 = infinity: more misfire chips than cards, so they never run out (E-18).
            n_misfires=tables_for(config).deck_size + 1 if config.max_errors is None else config.max_errors,
            hand_size_rule=hb.ConfigurationHandSize(f=lambda players: config.hand_size),
            empty_clue_rule=rule.ALLOWED if config.options.empty_hints else rule.FORBIDDEN,
            end_rule=hb.ConfigurationEndRule.NORMAL,
        )

    def new_game(self, config: GameConfig, deck: tuple[int, ...]) -> None:
        """Start ``Game.play()`` on ``deck`` in a thread; wait for the first request [PE-hanabython-deal]."""
        check_supported(self, config)
        self.close()
        link = _Link(self._timeout)
        seats = [self._seat(f"seat {j}", link) for j in range(config.players)]
        saved = random.getstate()  # hanabython shuffles its draw pile with the global generator
        game = self._hb.Game(seats, self._configuration(config))
        random.setstate(saved)
        # Our identity suit * n + value - 1 indexes this list.
        self._cards = [
            self._hb.Card(colour, value) for colour in self._suit_colours(config) for value in range(1, config.values + 1)
        ]
        # [PE-hanabython-deal] hanabython draws from the end of its pile: S0 goes in reversed.
        game.draw_pile[:] = [self._cards[card] for card in reversed(deck)]
        self._config, self._game, self._link, self._seats = config, game, link, seats
        self._over, self._score, self._final_draw = False, 0, False
        self._thread = threading.Thread(target=_run, args=(game, link), name="hanabython game", daemon=True)
        self._thread.start()
        refusal = self._answer()
        if refusal is not None:
            raise EngineFailure(f"hanabython adapter: hanabython refused an action before the first move: {refusal}")

    def _answer(self) -> str | None:
        """The game thread's report after a request: None, or hanabython's refusal."""
        kind, value = self.link.wait()
        if kind == "error":
            raise EngineFailure(f"hanabython adapter: hanabython raised {value}")
        if kind == "over":
            self._over, self._score = True, value if isinstance(value, int) else 0
            return None
        return None if value is None else str(value)

    def apply(self, action: Action) -> str | None:
        """Hand ``action`` to hanabython's game loop [PE-hanabython-actions]."""
        if self._over:
            return "hanabython: the game is over"
        move = self._action(action)
        if isinstance(move, str):
            return f"not expressible in hanabython: {move}"
        before = self._game.draw_pile.n_cards
        self.link.actions.put(move)
        refusal = self._answer()
        if refusal is not None:
            return f"hanabython: {refusal}"
        if self._over:
            self._final_draw = self._ended_by_no_points() and self._game.draw_pile.n_cards < before
        return None

    def _ended_by_no_points(self) -> bool:
        """[PE-hanabython-final-draw] the game ended because no more points are possible."""
        game = self._game
        return not game.b_win and not game.b_lose and game.remaining_turns != 0

    def _action(self, action: Action) -> Any:
        """hanabython's action object, or why there is none [PE-hanabython-actions]."""
        hb, game, config = self._hb, self._game, self.config
        if isinstance(action, (Discard, Play)):
            # hanabython does not check slots: an unknown slot raises IndexError inside its
            # game loop, and a negative one names a card from the end of the hand.
            hand = len(game.hands[game.i_active])
            if not 0 <= action.slot < hand:
                return f"slot {action.slot} is not in 0..{hand - 1} (hanabython does not check slots)"
            kind = hb.ActionThrow if isinstance(action, Discard) else hb.ActionPlayCard
            return kind(action.slot)
        if not 0 <= action.target < config.players:
            return f"hint target {action.target} is not a seat"
        relative = (action.target - game.i_active) % config.players
        return hb.ActionClue(relative, self._clue(action))

    def _clue(self, hint: Hint) -> Any:
        if hint.kind == "value":
            return self._hb.Clue(hint.subject)
        colour = ORDINARY_COLOURS[hint.subject] if 0 <= hint.subject < len(self.config.colours) else "COLORLESS"
        # An unknown clue colour becomes Colorless, a colour hanabython knows but refuses.
        return self._hb.Clue(self._colour(colour))

    def legal_actions(self) -> list[Action]:
        """The hints and slots hanabython's own checks accept [PE-hanabython-actions].

        hanabython lists no legal moves: ``Game.execute_action`` checks an action, tells
        the acting player ``receive_action_legal`` or ``receive_action_illegal``, and
        only then carries it out.  The adapter calls it (the game thread waits
        meanwhile) on every hint and every slot of the hand with a dry-run flag that
        makes ``receive_action_legal`` stop it before anything changes."""
        if self._over:
            return []
        return [action for action in self._candidates() if self._is_accepted(action, self.link)]

    def _candidates(self) -> list[Action]:
        config = self.config
        actions: list[Action] = []
        for target in range(config.players):
            actions += [Hint(target, "colour", c) for c in range(len(config.colours))]
            actions += [Hint(target, "value", v) for v in range(1, config.values + 1)]
        hand = len(self._game.hands[self._game.i_active])
        actions += [Discard(slot) for slot in range(hand)] + [Play(slot) for slot in range(hand)]
        return actions

    def _is_accepted(self, action: Action, link: _Link) -> bool:
        """Whether ``Game.execute_action`` accepts ``action``, stopped before it acts."""
        move = self._action(action)
        if isinstance(move, str):
            return False
        link.dry_run = True
        try:
            return bool(self._game.execute_action(move))
        except _DryRun:
            return True
        finally:
            link.dry_run, link.refusal = False, None

    def state(self) -> dict[str, Any]:
        """The T-state object [PE-hanabython-state]; after a final move that drew under
        R-1 without the rest of hanabython's rules (PE-hanabython-final-draw) the hands,
        knowledge and stack size are left out."""
        report = self.raw_state()
        if self._final_draw:
            for field in FINAL_DRAW_FIELDS:
                del report[field]
        return report

    def raw_state(self) -> dict[str, Any]:
        """Every field hanabython reports, without the omission of :meth:`state`
        [PE-hanabython-state, PE-hanabython-final-draw]."""
        game, config = self._game, self.config
        suit_index = {card.c.name: suit_of(identity, config.values)
                      for identity, card in zip(all_identities(len(self._cards)), self._cards)}

        def card(item: Any) -> dict[str, int]:
            return {"suit": suit_index[item.c.name], "value": int(item.v)}

        report: dict[str, Any] = {
            "hands": [[card(item) for item in hand] for hand in game.hands],
            "knowledge": [[_knowledge(public) for public in seat.hands_public[0]] for seat in self._seats],
            "fireworks": [int(height) for height in game.board.altitude],
            "discard": [card(item) for item in game.discard_pile.chronological],
            "clue_tokens": int(game.n_clues),
            "strikes": int(game.n_misfires),
            "deck_size": int(game.draw_pile.n_cards),
            "terminal": self._over,
            "score": self._score if self._over else int(game.board.score),
        }
        if not self._over:
            # [PE-hanabython-state] between moves i_active is the player to move and
            # remaining_turns is our R (None while the stack lasts).
            report["current"] = int(game.i_active)
            remaining = game.remaining_turns
            report["remaining"] = None if remaining is None else int(remaining)
        return report

    def observe(self, seat: int) -> dict[str, Any] | None:
        """[EP-observe] no views (``shows_views`` is false)."""
        return None

    def close(self) -> None:
        """End the game thread if it still waits for an action."""
        if self._thread is not None and self._thread.is_alive() and self._link is not None:
            self._link.actions.put(_CLOSE)
            self._thread.join(timeout=self._timeout)
        self._thread = None


def _knowledge(public: Any) -> dict[str, list[int]]:
    """[PE-hanabython-state] a ``CardPublic``: colours (in our suit order) and values still possible."""
    return {
        "suits": [i for i, possible in enumerate(public.can_be_c) if possible],
        "values": [i + 1 for i, possible in enumerate(public.can_be_v) if possible],
    }

