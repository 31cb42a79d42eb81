"""Reading a training checkpoint: data only, whole and checked before it is used
[RL-train-files, RL-train-limits].

``checkpoint.pt`` is what ``torch.save`` writes: a zip archive whose members are stored,
not compressed.  It is read in three steps, and nothing of it is used before the last:

1. **The archive** (:func:`read_checkpoint`): a regular file of at most
   :data:`CHECKPOINT_LIMIT` bytes, its zip directory bounded, its members named as
   ``torch.save`` names them, none compressed (torch's reader inflates a compressed
   member whatever its size, so a small file could claim gigabytes), their sizes summing
   to at most the limit; the members are copied into a fresh stored archive, which is
   what torch reads: torch never parses a byte of the file that Python's ``zipfile`` did
   not check.
2. **The objects**: ``torch.load(..., weights_only=True)``, whose unpickler builds only
   tensors, dicts, lists, tuples, numbers, text and None; an object of any other class
   (a function to call, a numpy array) is refused, never built.
3. **The structure** (:func:`check_checkpoint`): every key, type and shape against the
   run that resumes it — the settings, both networks' weights, the optimiser's state,
   the generators' states, the counts, the phase, the curve and the judge.
"""

from __future__ import annotations

import io
import pickle
import random
import re
import zipfile
from typing import Any, Final

import numpy as np

from hanabi_ref.tools.rl.errors import RLError
from hanabi_ref.tools.rl.train.modelfile import (UNREADABLE, WEIGHTS, check_meta, open_regular, open_zip,
                                           weight_shapes)
from hanabi_ref.tools.rl.train.policy import NumpyPolicy
from hanabi_ref.engine.config import GameConfig

CHECKPOINT_LIMIT: Final = 64 << 20
"""[RL-train-limits] bytes of a checkpoint (a run of 4 players writes some 2 MB)"""
PICKLE_LIMIT: Final = 16 << 20
"""[RL-train-limits] bytes of its ``data.pkl`` (the objects; the tensors' data are apart)"""
CHECKPOINT_ENTRIES: Final = 1024
"""[RL-train-limits] members of a checkpoint (a run writes some 45)"""

MEMBER: Final = re.compile(r"[A-Za-z0-9_.-]{1,64}/(data\.pkl|byteorder|version|\.format_version|\.storage_alignment"
                           r"|\.data/serialization_id|\.data/version|data/[0-9]{1,9})")
"""the names ``torch.save`` gives the members of its archive (the first part is the archive's)"""

KEYS: Final = frozenset({"settings", "model", "reference", "optimizer", "draws", "decks", "moves", "updates", "phase",
                         "curve", "judge"})
PHASES: Final = ("bc", "judge", "pg")
CURVE_FIELDS: Final = {
    "bc": {"epoch": "count", "moves": "count", "loss": "number", "accuracy": "number", "teacher_mean_score": "number"},
    "judge": {"moves": "count", "examples": "count", "playable": "number", "losses": "numbers", "thresholds": "table",
              "threshold": "number"},
    "pg": {"update": "count", "moves": "count", "mean_score": "number"},
}
"""[RL-train-files] the fields of a point of the curve in each phase, and their kinds"""


def _short(error: BaseException | str) -> str:
    return " ".join(str(error).split())[:200]


def _shown(value: Any) -> str:
    return repr(value)[:40]


# ---------------------------------------------------------------- 1. the archive


def _stored_copy(archive: zipfile.ZipFile, name: str) -> io.BytesIO:
    """[RL-train-limits] a fresh stored archive of ``archive``'s members, once their
    names, storage and sizes are checked from its directory."""
    infos = archive.infolist()
    names = [info.filename for info in infos]
    prefixes = {member.split("/", 1)[0] for member in names}
    if (len(set(names)) != len(names) or len(prefixes) != 1 or not all(MEMBER.fullmatch(member) for member in names)
            or f"{prefixes.pop()}/data.pkl" not in names):
        odd = next((member for member in names if not MEMBER.fullmatch(member)), "a name given twice or none data.pkl")
        raise RLError("RL-train-files", f"{name}: not an archive of torch.save (member {_shown(odd)})")
    for info in infos:
        if info.flag_bits & 0x1 or info.compress_type != zipfile.ZIP_STORED or info.file_size != info.compress_size:
            raise RLError("RL-train-limits", f"{name}: {info.filename}: compressed (method {info.compress_type}) or "
                          f"encrypted; the members of a checkpoint are stored, as torch.save writes them")
        if info.filename.endswith("/data.pkl") and info.file_size > PICKLE_LIMIT:
            raise RLError("RL-train-limits", f"{name}: {info.filename}: {info.file_size} bytes; at most {PICKLE_LIMIT}")
    total = sum(info.file_size for info in infos)
    if total > CHECKPOINT_LIMIT:
        raise RLError("RL-train-limits", f"{name}: members of {total} bytes in all; at most {CHECKPOINT_LIMIT}")
    copy = io.BytesIO()
    with zipfile.ZipFile(copy, "w", zipfile.ZIP_STORED) as out:
        for info in infos:
            try:
                data = archive.read(info)
            except UNREADABLE as error:
                raise RLError("RL-train-files", f"{name}: {info.filename}: unreadable ({_short(error)})") from None
            out.writestr(info.filename, data)
    copy.seek(0)
    return copy


def read_checkpoint(torch: Any, name: str) -> Any:
    """[RL-train-files, RL-train-limits] the objects of checkpoint ``name``: its archive
    checked and copied (step 1), then loaded by torch's weights-only unpickler (step 2);
    :class:`RLError` naming the file if either refuses."""
    with open_regular(name, CHECKPOINT_LIMIT, "checkpoint") as handle, \
            open_zip(handle, name, CHECKPOINT_ENTRIES) as archive:
        copy = _stored_copy(archive, name)
    try:
        return torch.load(copy, map_location="cpu", weights_only=True)
    except pickle.UnpicklingError as error:  # torch's advice to load it unsafely is not repeated
        named = re.search(r"GLOBAL ([\w.]+)", str(error))
        what = f"it names {named.group(1)}" if named else "torch's weights-only loader refused it"
        raise RLError("RL-train-files", f"{name}: holds objects other than tensors, numbers and text, refused "
                      f"({what}; not a checkpoint of this format)") from None
    except Exception as error:  # torch's reader may raise anything on a damaged file: named, never a traceback
        raise RLError("RL-train-files", f"{name}: not a checkpoint ({_short(error)})") from None


# ---------------------------------------------------------------- 3. the structure


class _Mismatch(Exception):
    """Where a checkpoint's structure differs from the run's, and how."""


def _kind(value: Any) -> str:
    shape = getattr(value, "shape", None)
    return f"{type(value).__name__}" + (f" {getattr(value, 'dtype', '')} {tuple(shape)}" if shape is not None else "")


def _like(torch: Any, saved: Any, template: Any, where: str) -> None:
    """``saved`` has ``template``'s structure: the same keys, lengths and types, and
    tensors of the same dtype and shape, dense, on the CPU and finite (values may differ)."""
    if isinstance(template, torch.Tensor):
        if not (isinstance(saved, torch.Tensor) and saved.layout == torch.strided and saved.device.type == "cpu"
                and saved.dtype == template.dtype and saved.shape == template.shape):
            raise _Mismatch(f"{where}: {_kind(saved)}, not a {template.dtype} tensor of shape {tuple(template.shape)}")
        if saved.is_floating_point() and not bool(torch.isfinite(saved).all()):
            raise _Mismatch(f"{where}: not all finite numbers")
    elif isinstance(template, dict):
        if not isinstance(saved, dict) or set(saved) != set(template):
            keys = f"keys {', '.join(sorted(map(_shown, saved))[:8])}" if isinstance(saved, dict) else _kind(saved)
            raise _Mismatch(f"{where}: {keys}, not the keys {', '.join(sorted(map(str, template))[:8])}")
        for key, value in template.items():
            _like(torch, saved[key], value, f"{where}.{key}")
    elif isinstance(template, (list, tuple)):
        if type(saved) is not type(template) or len(saved) != len(template):
            raise _Mismatch(f"{where}: {_kind(saved)}, not a {type(template).__name__} of {len(template)}")
        for index, (item, model) in enumerate(zip(saved, template)):
            _like(torch, item, model, f"{where}[{index}]")
    elif type(saved) is not type(template):
        raise _Mismatch(f"{where}: {_kind(saved)}, not {type(template).__name__}")


def _check_optimizer(torch: Any, saved: Any, optimizer: Any) -> None:
    """Adam's state: the run's parameter groups (same keys and types, same parameters)
    and, for any parameter it has seen, its step and two moments shaped like it."""
    ours = optimizer.state_dict()
    if not isinstance(saved, dict) or set(saved) != {"state", "param_groups"}:
        raise _Mismatch("optimizer: not the state of an optimiser")
    _like(torch, saved["param_groups"], ours["param_groups"], "optimizer.param_groups")
    if [group["params"] for group in saved["param_groups"]] != [group["params"] for group in ours["param_groups"]]:
        raise _Mismatch("optimizer.param_groups: other parameters")
    parameters = [parameter for group in optimizer.param_groups for parameter in group["params"]]
    if not isinstance(saved["state"], dict) or not all(type(key) is int and 0 <= key < len(parameters)
                                                       for key in saved["state"]):
        raise _Mismatch("optimizer.state: not keyed by the run's parameters")
    for key, value in saved["state"].items():
        template = {"step": torch.zeros((), dtype=torch.float32), "exp_avg": parameters[key],
                    "exp_avg_sq": parameters[key]}
        _like(torch, value, template, f"optimizer.state[{key}]")


def _is_random_state(value: Any) -> bool:
    """``random.Random.getstate()``'s shape: version 3, 624 words and an index, a cached
    Gaussian or None."""
    return (isinstance(value, tuple) and len(value) == 3 and value[0] == 3 and type(value[0]) is int
            and isinstance(value[1], tuple) and len(value[1]) == 625
            and all(type(word) is int and 0 <= word < 2 ** 32 for word in value[1]) and value[1][-1] <= 624
            and (value[2] is None or type(value[2]) is float))


def _is(kind: str, value: Any) -> bool:
    if kind == "count":
        return type(value) is int and value >= 0
    if kind == "number":
        return type(value) in (int, float)
    if kind == "numbers":
        return isinstance(value, list) and all(type(item) in (int, float) for item in value)
    return isinstance(value, dict) and all(type(key) is str and type(item) in (int, float) for key, item in value.items())


def _check_curve(curve: Any) -> None:
    """[RL-train-files] a list of points, each with the fields of its phase."""
    if not isinstance(curve, list):
        raise _Mismatch(f"curve: {_kind(curve)}, not a list")
    for index, point in enumerate(curve):
        phase = point.get("phase") if isinstance(point, dict) else None
        fields = CURVE_FIELDS.get(phase) if isinstance(phase, str) else None
        if (fields is None or set(point) != {"phase", *fields}
                or not all(_is(kind, point[field]) for field, kind in fields.items())):
            raise _Mismatch(f"curve[{index}]: not a point of phase {', '.join(CURVE_FIELDS)} with that phase's fields")


def _check_judge(torch: Any, judge: Any, config: GameConfig, name: str) -> NumpyPolicy | None:
    """The judge of stale plays (RL-train-judge) as a policy, its meta and weights those of
    a judge for ``config``."""
    if judge is None:
        return None
    if not isinstance(judge, dict) or set(judge) != {"weights", "meta"}:
        raise _Mismatch("judge: not a judge's weights and meta")
    meta = check_meta(judge["meta"], "judge", f"{name}: judge")
    templates = {key: torch.zeros(shape, dtype=torch.float32) for key, shape in weight_shapes(meta).items()}
    _like(torch, judge["weights"], templates, "judge.weights")
    policy = NumpyPolicy({key: judge["weights"][key].detach().numpy().astype(np.float32) for key in WEIGHTS}, meta)
    policy.check_config(config, f"{name}: judge")
    return policy


def check_checkpoint(torch: Any, state: Any, name: str, settings: dict[str, Any], networks: tuple[Any, Any],
                     optimizer: Any, draws: Any, config: GameConfig) -> NumpyPolicy | None:
    """[RL-train-files] :class:`RLError` unless ``state`` is a checkpoint of the run of
    ``settings`` (its networks, optimiser, generator and configuration given); the judge
    it holds, as a policy.  Nothing is applied: the caller applies what passed."""
    if not isinstance(state, dict) or set(state) != KEYS:
        keys = ", ".join(sorted(map(_shown, state))[:12]) if isinstance(state, dict) else _kind(state)
        raise RLError("RL-train-files", f"{name}: not a checkpoint (holds {keys}; a checkpoint holds "
                      f"{', '.join(sorted(KEYS))})")
    saved = state["settings"]
    if not isinstance(saved, dict) or set(saved) != set(settings) or any(type(saved[key]) is not type(value)
                                                                         for key, value in settings.items()):
        raise RLError("RL-train-files", f"{name}: not a checkpoint (its settings are not a run's settings)")
    if any(saved[key] != value for key, value in settings.items() if key != "steps"):
        changed = ", ".join(f"{key} {_shown(saved[key])} -> {value!r}" for key, value in settings.items()
                            if key != "steps" and saved[key] != value)
        raise RLError("RL-train-files", f"{name}: a run with other settings ({changed}); use another --out")
    try:
        _like(torch, state["model"], networks[0].state_dict(), "model")
        _like(torch, state["reference"], networks[1].state_dict(), "reference")
        _check_optimizer(torch, state["optimizer"], optimizer)
        _like(torch, state["draws"], draws.get_state(), "draws")
        if not _is_random_state(state["decks"]):
            raise _Mismatch("decks: not the state of a random.Random")
        try:
            random.Random().setstate(state["decks"])
        except (ValueError, TypeError, OverflowError) as error:
            raise _Mismatch(f"decks: not the state of a random.Random ({_short(error)})") from None
        for key in ("moves", "updates"):
            if not _is("count", state[key]):
                raise _Mismatch(f"{key}: {_shown(state[key])}, not a whole number >= 0")
        if state["phase"] not in PHASES:
            raise _Mismatch(f"phase: {_shown(state['phase'])}, not one of {', '.join(PHASES)}")
        _check_curve(state["curve"])
        return _check_judge(torch, state["judge"], config, name)
    except _Mismatch as error:
        raise RLError("RL-train-files", f"{name}: not a checkpoint of this run ({error})") from None
