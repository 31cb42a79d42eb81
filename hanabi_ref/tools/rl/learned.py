"""``learned-recommendation``: the recommendation team with a learned recommender
[RL-train-team, RL-train-shipped] (spec/rl.md section 9).

The parameter ``model`` names the recommender: ``shipped`` (the model in the package,
trained as ``docs/learning.md`` tells), ``teacher`` (the hand-coded rule the model was
cloned from) or the path of a model file (``hanabi-ref rl train --out DIR`` writes
``DIR/model.npz``); ``embedding`` how the team embeds its sums (RL-hat-offsets; by
default the one the model was trained with, ``modular`` for the teacher); ``offset`` an
offset model file (RL-train-offset), whose public offset then embeds the sums; ``judge``
who decides on a recommended play that may have gone stale (RL-train-judge): the shipped
judge (the default with the shipped model), none (the rule), or a judge model file.  Playing
needs numpy (a dependency of the package), not PyTorch; the module imports it only when
the strategy is built or a configuration is checked.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from importlib import resources
from typing import TYPE_CHECKING, Final

from hanabi_ref.engine.config import GameConfig
from hanabi_ref.players.strategies.adapt import adaptive, may_always_fail
from hanabi_ref.players.strategies.knowledge import classic_touch_problem
from hanabi_ref.players.strategies.params import Param, ParamError, StrategySpec, Value
from hanabi_ref.players.strategy import Strategy, StrategyFactory
from hanabi_ref.base.extras import install_hint

if TYPE_CHECKING:
    from hanabi_ref.tools.rl.encoders import Vector
    from hanabi_ref.tools.rl.train.judge import Judge
    from hanabi_ref.tools.rl.train.offset import OffsetFunction
    from hanabi_ref.tools.rl.train.policy import NumpyPolicy

SHIPPED: Final = "recommendation-4p-hle.npz"
"""[RL-train-shipped] the model file shipped in ``hanabi_ref/tools/rl/models``."""


SHIPPED_JUDGE: Final = "judge-4p-hle.npz"
"""[RL-train-shipped] the judge of stale plays shipped beside it (RL-train-judge)."""


def shipped_model(name: str = SHIPPED) -> str:
    """The path of a shipped model file (the recommender by default)."""
    return str(resources.files("hanabi_ref.tools.rl").joinpath("models", name))


def unsupported(config: GameConfig) -> str | None:
    """Why the team with the shipped model cannot play ``config`` (or numpy is missing),
    or None [RL-train-team, RL-train-files]."""
    return unsupported_with({"model": "shipped"}, config)


def unsupported_with(params: Mapping[str, Value], config: GameConfig) -> str | None:
    """Why the team with the recommender ``params["model"]`` cannot play ``config``, or
    None: classic touch [S-variants], the team's own limits, and a model's shape (players
    and hand size)."""
    problem = classic_touch_problem(config)
    if problem is not None:
        return problem
    try:
        from hanabi_ref.tools.rl.train.team import team_unsupported
    except ImportError as error:
        return f"needs numpy ({error}): {install_hint('rl')}"
    problem = team_unsupported(config)
    name = str(params.get("model", "shipped"))
    if problem is not None or name == "teacher":
        return problem
    from hanabi_ref.tools.rl.errors import RLError

    try:
        model_file(shipped_model() if name == "shipped" else name).check_config(config, name)
    except RLError as error:
        return str(error)
    return None


@functools.lru_cache(maxsize=8)
def judge_file(path: str) -> Judge:
    """The judge of stale plays of the judge model file ``path``, read once (RL-train-judge)."""
    from hanabi_ref.tools.rl.train.judge import Judge
    from hanabi_ref.tools.rl.train.policy import load_model

    return Judge(load_model(path, agent="judge"))


@functools.lru_cache(maxsize=8)
def offset_file(path: str) -> OffsetFunction:
    """The public offset of the offset model file ``path``, read once (RL-train-offset)."""
    from hanabi_ref.tools.rl.train.offset import OffsetFunction
    from hanabi_ref.tools.rl.train.policy import load_model

    model = load_model(path, agent="offset")
    return OffsetFunction(model, 2 * int(model.meta["hand_size"]))


@functools.lru_cache(maxsize=8)
def model_file(path: str) -> NumpyPolicy:
    """The policy of the model file ``path``, read once (RL-train-files)."""
    from hanabi_ref.tools.rl.train.policy import load_model

    return load_model(path)


def build(params: Mapping[str, Value]) -> StrategyFactory:
    """The team's factory with the recommender ``params["model"]`` names; a model file that
    cannot be read is a :class:`ParamError` naming it (RL-train-files)."""
    from hanabi_ref.tools.rl.errors import RLError

    try:
        from hanabi_ref.tools.rl.train.team import team_factory, teacher
    except ImportError as error:  # [C-extras] before any game
        from hanabi_ref.base.extras import missing

        raise missing("strategy 'learned-recommendation'", "numpy", "rl", error) from None

    name, embedding, offset_name = str(params["model"]), str(params["embedding"]), str(params["offset"])
    judge_name = str(params["judge"])
    if judge_name == "auto":
        judge_name = "shipped" if name == "shipped" else "none"
    judge = None
    if judge_name != "none":
        try:
            judge = judge_file(shipped_model(SHIPPED_JUDGE) if judge_name == "shipped" else judge_name)
        except RLError as error:
            raise ParamError(f"strategy 'learned-recommendation': parameter judge: {error}") from None
    if (offset_name == "none") == (embedding == "public"):
        raise ParamError("strategy 'learned-recommendation': the public embedding and parameter offset go together "
                         "(offset=FILE, an offset model: RL-train-offset)")
    offset = None
    if offset_name != "none":
        embedding = "public"
        try:
            offset = offset_file(offset_name)
        except RLError as error:
            raise ParamError(f"strategy 'learned-recommendation': parameter offset: {error}") from None
    def offset_for(config: GameConfig) -> Callable[[Vector], int] | None:
        if offset is None:
            return None
        offset.model.check_config(config, offset_name)
        return offset

    def judge_for(config: GameConfig) -> Judge | None:
        if judge is None:
            return None
        judge.model.check_config(config, judge_name)
        return judge

    if name == "teacher":
        rule_of = functools.lru_cache(maxsize=8)(teacher)
        chosen = "modular" if embedding == "model" else embedding

        def by_teacher(config: GameConfig, seat: int, seed: int) -> Strategy:
            return team_factory(rule_of(config), chosen, offset=offset_for(config), judge=judge_for(config))(
                config, seat, seed)

        return adaptive(by_teacher, may_always_fail)  # [S-foreign]
    try:
        policy = model_file(shipped_model() if name == "shipped" else name)
    except RLError as error:
        raise ParamError(f"strategy 'learned-recommendation': parameter model: {error}") from None

    trained = str(policy.meta["embedding"]) if embedding == "model" else embedding

    def by_model(config: GameConfig, seat: int, seed: int) -> Strategy:
        policy.check_config(config, name)
        return team_factory(policy, trained, offset=offset_for(config), judge=judge_for(config))(config, seat, seed)

    return adaptive(by_model, may_always_fail)  # [S-foreign]


LEARNED_SPEC = StrategySpec(
    "learned-recommendation",
    "the recommendation team of the RL notes with a learned recommender (spec/rl.md section 9)",
    (Param("model", "word", "shipped", "the recommender: shipped, teacher, or the path of a model file"),
     Param("embedding", "word", "model", "how sums are embedded in reveals (RL-hat-offsets): the model's "
           "(the teacher's: modular), constant, modular, or public (with offset)",
           choices=("model", "constant", "modular", "public")),
     Param("offset", "word", "none", "the path of an offset model file (RL-train-offset): the sums are then "
           "embedded by the public offset it computes"),
     Param("judge", "word", "auto", "who decides on a recommended play that may have gone stale (RL-train-judge): "
           "shipped (the shipped judge), none (the rule: never), a judge model file, or auto (shipped with the "
           "shipped model, else none)")),
    build,
    unsupported,
    unsupported_with,
)
