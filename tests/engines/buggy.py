"""A small Hanabi engine of the test suite's own, with classic bugs to inject one at a time.

Usage: python buggy.py [--bug NAME]  (or the environment variable BUGGY_ENGINE_BUG).

It speaks the engine protocol of spec/engine-protocol.md on standard input and output
(perft included, EP-perft) and
was written from spec/rules.md alone: it imports nothing of hanabi_ref, so that the skilled
random games of ``verify`` (EP-skilled) are checked against an engine that shares no code
with ours.  It plays No Variant with the deal in blocks, the newest card last, no self
hints and the stop check after the deal, under any hint, error and hand-size counts and
the options of every preset (empty hints, discards at the token maximum, the strikeout
score, the end when no points are possible, the final move's draw); anything else is
answered ``unsupported``.

Without ``--bug`` it is a correct engine.  Each bug of :data:`BUGS` is one that engine
authors make, and each shows only in a particular situation of a game; the default random
games of ``verify`` find each.  Those of :data:`OTHER_BUGS` are rules other engines play
otherwise (R-3, R-4, E-6, E-2), shown by the vectors that ``explain`` is tested on.
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import sys
from typing import Any

SUITS = 5
VALUES = 5
COPIES = (3, 2, 2, 2, 1)  # copies of the values 1..5 in every suit

BUGS = {
    "five-no-token": "a completed suit (a 5 played) gives no hint token back (2.16-2c-five)",
    "five-past-max": "a completed suit gives a token back even at the maximum, so tokens exceed t0 (2.16-2c-five, 2.16-tokens)",
    "last-round-short": "the player who draws the last card makes no further move: the last round is p - 1 moves (2.16-3-last-round)",
    "strikeout-fireworks": "the last allowed error scores the fireworks' sum instead of 0 (2.16-3-strikeout)",
    "no-end-at-max": "the game does not stop at the maximum score while cards are left (2.16-3-max)",
    "last-round-strikeout": "in the last round the last allowed error does not stop the game: the round runs out (2.16-2c-strikeout)",
    "no-early-end": "the game does not stop when no more points are possible (hanab-live, R-1)",
}

OTHER_BUGS = {
    "no-nothing-playable-end": "the last round runs on when nobody still to move holds a playable card (hanab-live, R-4)",
    "no-initial-stop-check": "no stop check after the deal: a deal that takes the whole stack gives p + 1 moves (E-6)",
    "final-draw-always": "the move that ends the game draws even under draw_after_final_move = false (R-3)",
    "discard-at-max": "discards are listed and accepted with every hint token even where that is illegal (E-2)",
}

Card = tuple[int, int]  # (suit, value)


class Unsupported(Exception):
    """A configuration this engine does not play."""


class SmallEngine:
    """One game at a time; every method takes and returns the JSON objects of the protocol."""

    def __init__(self, bug: str | None = None) -> None:
        if bug is not None and bug not in BUGS and bug not in OTHER_BUGS:
            raise ValueError(f"unknown bug {bug!r} (known: {', '.join([*BUGS, *OTHER_BUGS])})")
        self.bug = bug
        self.started = False

    # ------------------------------------------------------------------ a new game

    def new_game(self, config: dict[str, Any], deck: list[dict[str, Any]]) -> None:
        """Deal ``deck`` (top card first) under ``config``; :class:`Unsupported` if it cannot."""
        options = config.get("options", {})
        wanted = {"deal": "blocks", "draw_position": "newest-last", "self_hints": False, "initial_stop_check": True}
        if config.get("variant") != "No Variant":
            raise Unsupported(f"No Variant only, not {config.get('variant')!r}")
        for option, value in wanted.items():
            if options.get(option, value) != value:
                raise Unsupported(f"option {option} must be {value!r}")
        self.players = int(config["players"])
        self.hand_size = int(config["hand_size"])
        self.max_tokens = int(config["hints"])
        self.max_strikes: int | None = config["errors"]
        self.empty_hints = bool(options.get("empty_hints", True))
        self.discard_at_max = bool(options.get("discard_at_max_hints", True))
        self.zero_on_strikeout = options.get("strikeout_score", "zero") == "zero"
        self.early_end = bool(options.get("end_when_no_points_possible", False))
        self.nothing_playable_end = bool(options.get("end_when_nothing_playable", False))
        self.final_draw = bool(options.get("draw_after_final_move", True))
        self.stack: list[Card] = [(int(c["suit"]), int(c["value"])) for c in deck]
        self.stack.reverse()  # the top card is now at the end, for pop()
        self.hands: list[list[Card]] = []
        self.known: list[list[tuple[set[int], set[int]]]] = []  # per card: possible suits, values
        for _ in range(self.players):
            cards = [self.stack.pop() for _ in range(self.hand_size)]
            self.hands.append(cards)
            self.known.append([self._fresh() for _ in cards])
        self.fireworks = [0] * SUITS
        self.discards: list[Card] = []
        self.tokens = self.max_tokens
        self.strikes = 0
        self.current = 0
        self.turns = 0
        self.remaining: int | None = None  # None: no last round yet
        self.over = False
        self.started = True
        if self.bug != "no-initial-stop-check":
            self._stop_check()

    @staticmethod
    def _fresh() -> tuple[set[int], set[int]]:
        return set(range(SUITS)), set(range(1, VALUES + 1))

    # ------------------------------------------------------------------ what may be done

    def legal_actions(self) -> list[dict[str, Any]]:
        if self.over:
            return []
        actions: list[dict[str, Any]] = []
        if self.tokens > 0:
            for target in range(self.players):
                if target == self.current:
                    continue
                for kind, count, first in (("colour", SUITS, 0), ("value", VALUES, 1)):
                    for value in range(first, first + count):
                        if self.empty_hints or self._touches(target, kind, value):
                            actions.append({"type": "hint", "target": target, "kind": kind, "value": value})
        if self.discard_at_max or self.tokens < self.max_tokens or self.bug == "discard-at-max":
            actions += [{"type": "discard", "slot": s} for s in range(len(self.hands[self.current]))]
        actions += [{"type": "play", "slot": s} for s in range(len(self.hands[self.current]))]
        return actions

    def _touches(self, target: int, kind: str, value: int) -> bool:
        return any((suit if kind == "colour" else number) == value for suit, number in self.hands[target])

    # ------------------------------------------------------------------ a move

    def apply(self, action: dict[str, Any]) -> str | None:
        """Make the move; ``None``, or why it is refused (and then nothing changed)."""
        if not self.started:
            return "no game"
        if action not in self.legal_actions():
            return "not a legal action now" if not self.over else "the game is over"
        hand, known = self.hands[self.current], self.known[self.current]
        if action["type"] == "hint":
            self._hint(action["target"], action["kind"], action["value"])
        else:
            card = hand.pop(action["slot"])
            known.pop(action["slot"])
            if action["type"] == "discard":
                self.discards.append(card)
                if self.tokens < self.max_tokens:
                    self.tokens += 1
            else:
                self._play(card)
            if self.stack and (self.final_draw or self.bug == "final-draw-always" or not self._will_stop()):
                hand.append(self.stack.pop())
                known.append(self._fresh())
        self.current = (self.current + 1) % self.players
        if self.remaining is not None and self.remaining > 0:
            self.remaining -= 1
        self.turns += 1
        self._stop_check()
        return None

    def _hint(self, target: int, kind: str, value: int) -> None:
        self.tokens -= 1
        for (suit, number), (suits, values) in zip(self.hands[target], self.known[target]):
            if kind == "colour":
                if suit == value:
                    suits &= {value}
                else:
                    suits.discard(value)
            elif number == value:
                values &= {value}
            else:
                values.discard(value)

    def _play(self, card: Card) -> None:
        suit, value = card
        if self.fireworks[suit] == value - 1:
            self.fireworks[suit] = value
            if value == VALUES and self.bug != "five-no-token":
                if self.tokens < self.max_tokens or self.bug == "five-past-max":
                    self.tokens += 1
            return
        self.discards.append(card)
        self.strikes += 1
        if self.strikes == self.max_strikes:
            if self.bug == "last-round-strikeout" and self.remaining is not None:
                return  # the countdown already runs: the bug lets it run out
            self.remaining = -1

    # ------------------------------------------------------------------ the stop check

    def _stopping(self) -> bool:
        """Whether step 3 stops the game now (strikeout, last round over, all suits
        complete, no more points possible)."""
        if self.remaining == -1 or self.remaining == 0:
            return True
        if all(height == VALUES for height in self.fireworks) and self.bug != "no-end-at-max":
            return True
        return self.early_end and self.bug != "no-early-end" and self._sum() == self.reachable()

    def _will_stop(self) -> bool:
        """Whether the move being made (its card gone, nothing drawn yet) ends the game:
        then, without the final move's draw, no card is drawn."""
        if self.remaining == 1:
            return True
        return self._stopping()

    def _stop_check(self) -> None:
        if self._stopping():
            self.over = True
        elif self.remaining is None and not self.stack:
            self.remaining = self.players - 1 if self.bug == "last-round-short" else self.players
        ending = self.nothing_playable_end and self.bug != "no-nothing-playable-end"
        if not self.over and ending and self.remaining is not None and self.remaining > 0:
            # hanab.live's end of the last round: nobody still to move holds a next card
            movers = [(self.current + step) % self.players for step in range(self.remaining)]
            self.over = not any(self.fireworks[suit] == value - 1 for seat in movers for suit, value in self.hands[seat])

    def reachable(self) -> int:
        """The best score the discard pile still allows: each suit goes up while a copy of
        its next value is left."""
        total = 0
        for suit in range(SUITS):
            height = self.fireworks[suit]
            while height < VALUES and self.discards.count((suit, height + 1)) < COPIES[height]:
                height += 1
            total += height
        return total

    def _sum(self) -> int:
        return sum(self.fireworks)

    def score(self) -> int:
        if self.remaining == -1 and self.zero_on_strikeout and self.bug != "strikeout-fireworks":
            return 0
        return self._sum()

    # ------------------------------------------------------------------ perft

    def perft(self, depth: int) -> int:
        """The number of move sequences of length ``depth`` from here (spec/perft.md
        PF-count), walking this engine's own moves; its state is as before afterwards."""
        if depth == 0:
            return 1
        moves = self.legal_actions()
        if depth == 1:
            return len(moves)
        saved = copy.deepcopy(self.__dict__)
        total = 0
        for move in moves:
            self.apply(move)
            total += self.perft(depth - 1)
            self.__dict__ = copy.deepcopy(saved)
        return total

    def divide(self, depth: int) -> list[dict[str, Any]]:
        """The count under each legal first move (PF-divide)."""
        saved = copy.deepcopy(self.__dict__)
        entries = []
        for move in self.legal_actions():
            self.apply(move)
            entries.append({"action": move, "nodes": self.perft(depth - 1)})
            self.__dict__ = copy.deepcopy(saved)
        return entries

    # ------------------------------------------------------------------ reporting

    def state(self) -> dict[str, Any]:
        def card(c: Card) -> dict[str, int]:
            return {"suit": c[0], "value": c[1]}

        return {
            "current": self.current,
            "hands": [[card(c) for c in hand] for hand in self.hands],
            "knowledge": [[{"suits": sorted(s), "values": sorted(v)} for s, v in known] for known in self.known],
            "fireworks": list(self.fireworks),
            "discard": [card(c) for c in self.discards],
            "clue_tokens": self.tokens,
            "strikes": self.strikes,
            "deck_size": len(self.stack),
            "turns": self.turns,
            "remaining": self.remaining,
            "terminal": self.over,
            "score": self.score(),
        }


def answer(engine: SmallEngine, request: dict[str, Any]) -> dict[str, Any]:
    """The protocol's answer to one request."""
    op = request.get("op")
    if op == "hello":
        return {"ok": True, "name": "small" + (f" (bug {engine.bug})" if engine.bug else ""), "perft": True}
    if op == "new_game":
        try:
            engine.new_game(request["config"], request["deck"])
        except Unsupported as reason:
            return {"ok": False, "unsupported": str(reason)}
        return {"ok": True}
    if op == "apply":
        refusal = engine.apply(request["action"])
        return {"ok": True} if refusal is None else {"ok": False, "illegal": refusal}
    if op == "state":
        return {"ok": True, "state": engine.state()}
    if op == "legal_actions":
        return {"ok": True, "actions": engine.legal_actions()}
    if op == "perft":
        depth = request["depth"]
        if request.get("divide") and depth >= 1:
            entries = engine.divide(depth)
            return {"ok": True, "nodes": sum(entry["nodes"] for entry in entries), "divide": entries}
        return {"ok": True, "nodes": engine.perft(depth)}
    if op == "quit":
        return {"ok": True}
    return {"ok": False, "error": f"unknown op {op!r}"}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--bug", choices=sorted([*BUGS, *OTHER_BUGS]), default=os.environ.get("BUGGY_ENGINE_BUG") or None)
    engine = SmallEngine(parser.parse_args().bug)
    for line in sys.stdin:
        request = json.loads(line)
        sys.stdout.write(json.dumps(answer(engine, request)) + "\n")
        sys.stdout.flush()
        if request.get("op") == "quit":
            break


if __name__ == "__main__":
    main()
