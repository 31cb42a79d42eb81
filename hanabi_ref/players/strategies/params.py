"""Named strategies with typed, range-checked parameters [S-params].

A :class:`StrategySpec` names a strategy, lists its parameters (:class:`Param`) and
builds a :data:`~hanabi_ref.players.strategy.StrategyFactory` from parameter values.  Values arrive as
text (``--param omega_p=0.6``) or as Python values; either way they are checked here and a
mistake raises :class:`ParamError` (a :class:`~hanabi_ref.base.errors.ConfigError`, so the
command line turns it into one line on stderr and exit code 2).

Everything here is picklable by name: a worker process rebuilds the factory from the
strategy's name and its resolved parameters (:func:`factory_for`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from typing import Union

import attrs

from hanabi_ref.base.errors import ConfigError
from hanabi_ref.players.strategy import StrategyFactory
from hanabi_ref.engine.config import GameConfig

Value = Union[float, int, str]
"""A parameter value: a real number, an integer or a word from a fixed list."""


class ParamError(ConfigError):
    """[S-params] An unknown strategy or parameter, or a value of the wrong type or range."""


@attrs.frozen
class Param:
    """One parameter: its name, kind (``real``, ``int`` or ``word``), range and default."""

    name: str
    kind: str
    default: Value
    help: str
    low: float | None = None
    high: float | None = None
    choices: tuple[Value, ...] = ()

    def describe_range(self) -> str:
        """The admissible values, as shown in error messages."""
        if self.choices:
            return "one of " + ", ".join(str(c) for c in self.choices)
        if self.kind == "word":
            return "a word"
        kind = "a number" if self.kind == "real" else "an integer"
        return f"{kind} in [{self.low:g}, {self.high:g}]"

    def check(self, value: object, strategy: str) -> Value:
        """``value`` (text or a Python value) as this parameter's type, or :class:`ParamError`."""
        where = f"strategy {strategy!r}: parameter {self.name}"
        parsed: Value
        if isinstance(value, str):
            text = value.strip()
            try:
                parsed = text if self.kind == "word" else int(text) if self.kind == "int" else float(text)
            except ValueError:
                raise ParamError(f"{where}: must be {self.describe_range()}, got {value!r}") from None
        elif isinstance(value, bool) or not isinstance(value, (int, float)):
            raise ParamError(f"{where}: must be {self.describe_range()}, got {value!r}")
        elif self.kind == "int":
            if not float(value).is_integer():
                raise ParamError(f"{where}: must be {self.describe_range()}, got {value!r}")
            parsed = int(value)
        elif self.kind == "real":
            parsed = float(value)
        else:
            raise ParamError(f"{where}: must be {self.describe_range()}, got {value!r}")
        if self.choices:
            if parsed not in self.choices:
                raise ParamError(f"{where}: must be {self.describe_range()}, got {value!r}")
            return parsed
        if self.kind == "word":  # free text (a file name): any text but the empty one
            if not isinstance(parsed, str) or not parsed:
                raise ParamError(f"{where}: must be {self.describe_range()}, got {value!r}")
            return parsed
        assert self.low is not None and self.high is not None
        if isinstance(parsed, str) or not math.isfinite(parsed) or not self.low <= parsed <= self.high:
            raise ParamError(f"{where}: must be {self.describe_range()}, got {value!r}")
        return parsed


Builder = Callable[[Mapping[str, Value]], StrategyFactory]


@attrs.frozen
class StrategySpec:
    """A named strategy: a one-line summary, its parameters and how to build it."""

    name: str
    summary: str
    params: tuple[Param, ...]
    build: Builder
    unsupported: Callable[[GameConfig], str | None] | None = None
    """Why the strategy cannot play a configuration, or None; checked before any game."""
    unsupported_with: Callable[[Mapping[str, Value], GameConfig], str | None] | None = None
    """The same for given parameter values, when they matter (a model file's shape)."""

    def check_config(self, config: GameConfig, params: Mapping[str, Value] | None = None) -> None:
        """:class:`ConfigError` naming the strategy if it cannot play ``config`` (with the
        parameter values ``params``, or its defaults)."""
        if params is not None and self.unsupported_with is not None:
            problem = self.unsupported_with(self.resolve(params), config)
        else:
            problem = None if self.unsupported is None else self.unsupported(config)
        if problem is not None:
            raise ConfigError(f"strategy {self.name!r}: {problem}")

    def param(self, name: str) -> Param:
        """The parameter called ``name``, or :class:`ParamError` listing the known ones."""
        for param in self.params:
            if param.name == name:
                return param
        known = ", ".join(p.name for p in self.params) or "none"
        raise ParamError(f"strategy {self.name!r}: unknown parameter {name!r} (known: {known})")

    def resolve(self, values: Mapping[str, object] | None = None) -> dict[str, Value]:
        """Every parameter's value: the given ones checked, the others at their defaults."""
        given = dict(values or {})
        for name in given:
            self.param(name)
        return {p.name: p.check(given[p.name], self.name) if p.name in given else p.default for p in self.params}

    def factory(self, values: Mapping[str, object] | None = None) -> StrategyFactory:
        """The factory of this strategy with ``values`` (checked; defaults for the rest)."""
        return self.build(self.resolve(values))


def parse_assignments(items: list[str] | tuple[str, ...], option: str = "--param") -> dict[str, str]:
    """``["a=1", "b=x"]`` as ``{"a": "1", "b": "x"}``; malformed or repeated keys raise
    :class:`ParamError` naming the item."""
    result: dict[str, str] = {}
    for item in items:
        key, sep, value = item.partition("=")
        key = key.strip()
        if not sep or not key or not value.strip():
            raise ParamError(f"{option}: expected key=value, got {item!r}")
        if key in result:
            raise ParamError(f"{option}: parameter {key!r} given twice")
        result[key] = value.strip()
    return result
