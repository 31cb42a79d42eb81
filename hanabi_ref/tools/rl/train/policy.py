"""The recommendation policy and its files [RL-train-policy, RL-train-files].

The policy is a small network over the recommendation observation: L inputs, two hidden
layers of :data:`HIDDEN` rectified units, M logits (one per recommendation).  Training
uses PyTorch (:func:`torch_policy`); playing needs numpy only: :class:`NumpyPolicy` reads
the weights from a ``.npz`` model file and computes the greedy recommendation of one
observation at a time, so that every seat computes exactly the same hat from the same
observation (the hats must decode, RL-hat-decode).

A model file holds the weights (``w0``, ``b0``, ``w1``, ``b1``, ``w2``, ``b2``, float32)
and ``meta``, a JSON text: the format version, the agent, the configuration it was
trained for (players, rules, hand size), the team's embedding (RL-hat-offsets), the
observation size and the number of hats.  Files are read within stated limits, data and
never code (:mod:`hanabi_ref.tools.rl.train.modelfile`, RL-train-limits); they are written whole or not at all (:func:`hanabi_ref.base.atomic.write_bytes_atomically`).
"""

from __future__ import annotations

import io
import json
import os
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from hanabi_ref.base.atomic import write_bytes_atomically
from hanabi_ref.tools.rl.errors import RLError
from hanabi_ref.tools.rl.layout import layout
from hanabi_ref.tools.rl.train.modelfile import FORMAT as FORMAT
from hanabi_ref.tools.rl.train.modelfile import WEIGHTS as WEIGHTS
from hanabi_ref.tools.rl.train.modelfile import read_model_file
from hanabi_ref.engine.config import GameConfig
from hanabi_ref.players.strategies.knowledge import composition_counts

HIDDEN: Final = 128
"""Units of each hidden layer (the shipped model stays a few hundred KB)."""


def model_meta(config: GameConfig, rules: str, embedding: str, agent: str = "recommendation") -> dict[str, Any]:
    """The ``meta`` of a model of ``agent`` for ``config`` (played under preset ``rules``,
    its team embedding its sums by ``embedding``)."""
    lay = layout("recommendation", config)
    return {"format": FORMAT, "agent": agent, "players": config.players, "rules": rules, "embedding": embedding,
            "hand_size": lay.dims.hand_size, "inputs": lay.size, "hats": 2 * lay.dims.hand_size, "hidden": HIDDEN}


def judge_inputs(config: GameConfig) -> int:
    """The size of the judge's features (``rl.train.judge``): five blocks of one value per identity and three."""
    return 5 * len(composition_counts(config)) + 3


class NumpyPolicy:
    """[RL-train-policy] the greedy policy of a model file's weights, in numpy."""

    def __init__(self, weights: dict[str, npt.NDArray[np.float32]], meta: dict[str, Any]) -> None:
        self.meta = meta
        self.layers = [(weights[f"w{i}"], weights[f"b{i}"]) for i in range(3)]

    def logits(self, observation: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
        x = observation
        for index, (weight, bias) in enumerate(self.layers):
            x = x @ weight + bias
            if index < 2:
                x = np.maximum(x, 0)
        return x

    def weights(self) -> dict[str, npt.NDArray[np.float32]]:
        """The weights by their names in the model file."""
        return {f"{kind}{index}": layer[position] for index, layer in enumerate(self.layers)
                for position, kind in enumerate("wb")}

    def __call__(self, observation: npt.NDArray[np.float32]) -> int:
        """The recommendation of largest logit (the first on ties)."""
        return int(np.argmax(self.logits(observation)))

    def check_config(self, config: GameConfig, path: str) -> None:
        """:class:`RLError` ``RL-train-files`` if the model was trained for another shape."""
        if self.meta["agent"] == "judge":
            inputs = judge_inputs(config)
            if self.meta["inputs"] != inputs:
                raise RLError("RL-train-files", f"{path}: the judge takes {self.meta['inputs']} features; "
                              f"this configuration gives {inputs}")
            return
        if self.meta["agent"] == "offset":
            from hanabi_ref.tools.rl.hat import HatCode

            public = layout("public", config)
            reveals = HatCode(config, "recommendation").reveals
            if (self.meta["inputs"], self.meta["hats"]) != (public.size, reveals):
                raise RLError("RL-train-files", f"{path}: the offset model takes {self.meta['inputs']} inputs and "
                              f"gives {self.meta['hats']} offsets; {config.players} players need {public.size} and "
                              f"{reveals}")
            return
        lay = layout("recommendation", config)
        if (self.meta["inputs"], self.meta["hats"]) != (lay.size, 2 * lay.dims.hand_size):
            raise RLError("RL-train-files", f"{path}: the model takes {self.meta['inputs']} inputs and gives "
                          f"{self.meta['hats']} hats; {config.players} players with hands of {lay.dims.hand_size} need "
                          f"{lay.size} and {2 * lay.dims.hand_size}")


def torch_weights(torch: Any, network: Any) -> dict[str, npt.NDArray[np.float32]]:
    """The weights of a torch network of three linear layers in the model file's layout
    (inputs x outputs)."""
    layers = [module for module in network if isinstance(module, torch.nn.Linear)]
    out: dict[str, npt.NDArray[np.float32]] = {}
    for index, layer in enumerate(layers):
        out[f"w{index}"] = layer.weight.detach().numpy().T.copy()
        out[f"b{index}"] = layer.bias.detach().numpy().copy()
    assert set(out) == set(WEIGHTS)
    return out


def save_model(path: str | os.PathLike[str], weights: dict[str, npt.NDArray[np.float32]], meta: dict[str, Any]) -> None:
    """[RL-train-files] write a model file whole (a temporary file renamed over ``path``):
    the weights little-endian float32, as :func:`load_model` reads them."""
    buffer = io.BytesIO()
    arrays: dict[str, Any] = {name: np.asarray(weights[name], "<f4") for name in WEIGHTS}
    arrays["meta"] = np.array(json.dumps(meta, sort_keys=True))
    np.savez_compressed(buffer, **arrays)
    write_bytes_atomically(os.fspath(path), buffer.getvalue())


def load_model(path: str | os.PathLike[str], agent: str = "recommendation") -> NumpyPolicy:
    """[RL-train-files, RL-train-limits] the policy of a model file of ``agent``
    (``recommendation``, ``judge``, ``offset``: a learned public offset, RL-train-offset, or
    ``info-actor``), read within the limits of :mod:`hanabi_ref.tools.rl.train.modelfile`, or
    :class:`RLError` naming the file (and the member) and what is wrong with it."""
    weights, meta = read_model_file(os.fspath(path), agent)
    return NumpyPolicy(weights, meta)
