"""Hostile files given to the learned agents: data only, bounded, one line
[RL-train-files, RL-train-limits, RL-errors, C-exit].

Every hostile file is built here, byte by byte where it must lie: a zip archive written by
hand (:func:`archive`) whose members declare what we choose, with real deflate streams of
zeros (:func:`zeros_stream`: a 3 MB member that inflates to 3 GiB, as the attack's did).
:func:`test_the_hostile_archives_are_what_they_claim` checks, on a small one, that Python's
``zipfile`` and numpy read such an archive as the archive says.

Model files are given to ``load_model`` in this process, and to the command line in a
child process (``--param model=``, ``judge=``, ``offset=`` and ``rl eval DIR``), whose
peak resident memory and CPU time come from ``wait4`` and are compared with the same
command given a file that is plainly not a model (refused at once after the imports):
at most 100 MB and 1 CPU second more (the attack's bomb took 69 s and 3.19 GB).  The
child runs under a 1 GiB address-space limit, so that a reader that does read a bomb fails
the test at once instead of filling the machine.  Checkpoints are given to ``Trainer.resume``
and ``rl train`` in this process.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import resource
import shlex
import signal
import struct
import subprocess
import sys
import tempfile
import threading
import time
import zipfile
import zlib
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from hanabi_ref.tools.rl.errors import RLError
from hanabi_ref.tools.rl.train.modelfile import MODEL_FILE_LIMIT, read_model_file
from hanabi_ref.tools.rl.train.policy import load_model, save_model
from hanabi_ref.engine.configs import make_config
from tests.oracles import oracle

ROOT = Path(__file__).resolve().parents[1]
MODELS = ROOT / "hanabi_ref" / "tools" / "rl" / "models"
RECOMMENDER = MODELS / "recommendation-4p-hle.npz"
JUDGE = MODELS / "judge-4p-hle.npz"
CONFIG = make_config(4, preset="hle")
MEMORY_ALLOWANCE = 100 << 20
ADDRESS_GUARD = 1 << 30


# ------------------------------------------------------------------ archives written by hand


@dataclass(frozen=True)
class Entry:
    """One member as it lies in the archive: its bytes as stored, the method (0 stored,
    8 deflated), the CRC-32 and the decompressed size it declares, its flags."""

    name: str
    method: int
    data: bytes
    crc: int
    size: int
    flags: int = 0


def stored(name: str, content: bytes) -> Entry:
    return Entry(name, 0, content, zlib.crc32(content), len(content))


def zeros_stream(prefix: bytes, mebibytes: int) -> bytes:
    """A raw deflate stream of ``prefix`` then ``mebibytes`` MiB of zeros, built from one
    compressed MiB repeated (each piece starts afresh and ends on a byte: a full flush),
    so that gigabytes cost a few megabytes and milliseconds."""
    head, body, end = (zlib.compressobj(9, zlib.DEFLATED, -15) for _ in range(3))
    piece = body.compress(bytes(1 << 20)) + body.flush(zlib.Z_FULL_FLUSH)
    return head.compress(prefix) + head.flush(zlib.Z_FULL_FLUSH) + piece * mebibytes + end.flush()


def archive(entries: list[Entry], comment: bytes = b"") -> bytes:
    """A zip archive of ``entries`` exactly as they say (sizes, CRCs, methods, flags)."""
    out, directory = bytearray(), bytearray()
    for entry in entries:
        name = entry.name.encode()
        offset = len(out)
        out += struct.pack("<4s5H3L2H", b"PK\x03\x04", 20, entry.flags, entry.method, 0, 0x21, entry.crc,
                           len(entry.data), entry.size, len(name), 0) + name + entry.data
        directory += struct.pack("<4s6H3L5H2L", b"PK\x01\x02", 20, 20, entry.flags, entry.method, 0, 0x21, entry.crc,
                                 len(entry.data), entry.size, len(name), 0, 0, 0, 0, 0, offset) + name
    end = struct.pack("<4s4H2LH", b"PK\x05\x06", 0, 0, len(entries), len(entries), len(directory), len(out),
                      len(comment))
    return bytes(out + directory + end + comment)


def npy_header(descr: str, shape: tuple[int, ...], fortran: bool = False) -> bytes:
    buffer = io.BytesIO()
    np.lib.format.write_array_header_1_0(buffer, {"descr": descr, "fortran_order": fortran, "shape": shape})
    return buffer.getvalue()


def npy(array: np.ndarray[Any, Any]) -> bytes:
    buffer = io.BytesIO()
    np.save(buffer, array)
    return buffer.getvalue()


def genuine(path: Path) -> dict[str, Entry]:
    """The members of a genuine model file, stored."""
    with zipfile.ZipFile(path) as source:
        return {info.filename: stored(info.filename, source.read(info)) for info in source.infolist()}


def meta_member(text: str) -> Entry:
    return stored("meta.npy", npy(np.array(text)))


def bomb(name: str, header: bytes, mebibytes: int) -> Entry:
    """Member ``name``: ``header`` then ``mebibytes`` MiB of zeros, declared as such (its
    CRC left 0: a reader finds out only after inflating everything)."""
    return Entry(name, 8, zeros_stream(header, mebibytes), 0, len(header) + (mebibytes << 20))


W0_SHAPE = (838, 128)
HOSTILE: dict[str, Callable[[dict[str, Entry]], dict[str, Entry]]] = {
    # the attack's three: 3 GiB of zeros in w0 (3 MB), 2.4 GiB in meta, a header of 2**60 floats
    "bomb": lambda m: {**m, "w0.npy": bomb("w0.npy", npy_header("<f4", ((3 << 30) // 512, 128)), 3 << 10)},
    "meta-bomb": lambda m: {**m, "meta.npy": bomb("meta.npy", npy_header("<U629145600", ()), 2400)},
    "huge-shape": lambda m: {**m, "w0.npy": stored("w0.npy", npy_header("<f4", (2 ** 40, 2 ** 20)) + bytes(64))},
}
"""the attack's hostile model files, from a genuine one's members"""

MORE: dict[str, tuple[Callable[[dict[str, Entry]], dict[str, Entry]], str]] = {
    "shape-in-header": (lambda m: {**m, "w0.npy": stored("w0.npy", npy(np.zeros(838 * 128, "<f4")))},
                        r"RL-train-files: {}: w0\.npy: a <f4 array of shape \(107264,\)"),
    "float64": (lambda m: {**m, "w0.npy": stored("w0.npy", npy(np.zeros((838, 64), "<f8")))},
                r"RL-train-files: {}: w0\.npy: a <f8 array"),
    "big-endian": (lambda m: {**m, "w0.npy": stored("w0.npy", npy(np.zeros(W0_SHAPE, ">f4")))},
                   r"RL-train-files: {}: w0\.npy: a >f4 array"),
    "fortran": (lambda m: {**m, "w0.npy": stored("w0.npy", npy(np.asfortranarray(np.zeros(W0_SHAPE, "<f4"))))},
                r"RL-train-files: {}: w0\.npy: a Fortran-order <f4"),
    "pickled-objects": (lambda m: {**m, "w0.npy": stored("w0.npy", npy_header("|O", W0_SHAPE) + bytes(838 * 128 * 4))},
                        r"RL-train-files: {}: w0\.npy: a \|O array"),
    "not-finite": (lambda m: {**m, "b0.npy": stored("b0.npy", npy(np.full(128, np.nan, "<f4")))},
                   r"RL-train-files: {}: b0\.npy: not all finite"),
    "short-stream": (lambda m: {**m, "w1.npy": replace(m["w1.npy"], data=m["w1.npy"].data[:1000])},
                     r"RL-train-files: {}: w1\.npy: unreadable"),
    "wrong-crc": (lambda m: {**m, "w1.npy": replace(m["w1.npy"], crc=m["w1.npy"].crc ^ 1)},
                  r"RL-train-files: {}: w1\.npy: unreadable \(Bad CRC"),
    "extra-member": (lambda m: {**m, "evil.npy": stored("evil.npy", b"x")},
                     r"RL-train-files: {}: members .*'evil\.npy'"),
    "missing-member": (lambda m: {key: value for key, value in m.items() if key != "b2.npy"},
                       r"RL-train-files: {}: members "),
    "encrypted": (lambda m: {**m, "b2.npy": replace(m["b2.npy"], flags=1)},
                  r"RL-train-files: {}: b2\.npy: encrypted or compressed by method 0"),
    "bzip2": (lambda m: {**m, "b2.npy": replace(m["b2.npy"], method=12)},
              r"RL-train-files: {}: b2\.npy: encrypted or compressed by method 12"),
    "meta-not-json": (lambda m: {**m, "meta.npy": meta_member("{not json")}, r"RL-train-files: {}: meta\.npy: not JSON"),
    "meta-deep": (lambda m: {**m, "meta.npy": meta_member("[" * 8000 + "]" * 8000)},
                  r"RL-train-files: {}: meta\.npy: not JSON"),
    "meta-two-texts": (lambda m: {**m, "meta.npy": stored("meta.npy", npy(np.array(["{}", "{}"])))},
                       r"RL-train-files: {}: meta\.npy: a <U2 array of shape \(2,\)"),
    "meta-inputs": (lambda m: {**m, "meta.npy": meta_member(
        '{"format": 1, "agent": "recommendation", "embedding": "modular", "inputs": 1000000000, "hidden": 128, '
        '"hats": 8, "players": 4, "hand_size": 4, "rules": "hle"}')},
        r"RL-train-limits: {}: meta: inputs 1000000000 is not a whole number from 1 to 4096"),
    "meta-rules": (lambda m: {**m, "meta.npy": meta_member(
        '{"format": 1, "agent": "recommendation", "embedding": "modular", "inputs": 838, "hidden": 128, '
        '"hats": 8, "players": 4, "hand_size": 4, "rules": "' + "x" * 5000 + '"}')},
        r"RL-train-limits: {}: meta: rules 'xxx"),
}
"""more damage, each with the refusal it must get (``{}``: the file's name)"""


def write_hostile(kind: str, base: Path, path: Path) -> str:
    """Write the hostile file ``kind`` made from genuine model file ``base`` at ``path``;
    the member its refusal must name (or what it must say)."""
    if kind == "fifo":
        os.mkfifo(path)
        return "a FIFO"
    path.write_bytes(archive(list(HOSTILE[kind](genuine(base)).values())))
    return "meta.npy" if kind == "meta-bomb" else "w0.npy"


# ------------------------------------------------------------------ load_model, in this process


def test_the_hostile_archives_are_what_they_claim(tmp_path: Path) -> None:
    """The test's own tools: a hand-written archive with a member of a header and 2 MiB of
    zeros (its CRC right) reads, by ``zipfile`` and numpy, as that header's array of zeros;
    the genuine members, stored, read as the shipped model."""
    header = npy_header("<f4", (1 << 19,))
    content = header + bytes(2 << 20)
    member = Entry("w0.npy", 8, zeros_stream(header, 2), zlib.crc32(content), len(content))
    path = tmp_path / "small.npz"
    path.write_bytes(archive([member]))
    with zipfile.ZipFile(path) as read:
        assert read.read("w0.npy") == content
        assert read.getinfo("w0.npy").compress_size < 10_000
    with np.load(path) as data:
        assert data["w0"].shape == (1 << 19,) and not data["w0"].any()
    copy = tmp_path / "copy.npz"
    copy.write_bytes(archive(list(genuine(RECOMMENDER).values())))
    with np.load(copy) as mine, np.load(RECOMMENDER) as theirs:
        assert all(np.array_equal(mine[key], theirs[key]) for key in theirs.files)


@pytest.mark.checks("RL-train-files", "RL-train-shipped")
@pytest.mark.parametrize("path", [RECOMMENDER, JUDGE], ids=["recommender", "judge"])
def test_the_shipped_models_read_as_numpy_reads_them(path: Path) -> None:
    """[RL-train-files, RL-train-shipped] the bounded reader and numpy's own reader give the
    same weights and meta for the shipped files."""
    import json

    agent = "judge" if path == JUDGE else "recommendation"
    weights, meta = read_model_file(str(path), agent)
    with np.load(path, allow_pickle=False) as data:
        assert meta == json.loads(str(data["meta"]))
        for key, value in weights.items():
            assert value.dtype == np.float32 and np.array_equal(value, data[key]), key


@pytest.mark.checks("RL-train-limits")
@pytest.mark.parametrize("kind", list(HOSTILE))
def test_the_attacks_model_files_are_refused_before_their_data_is_read(kind: str, tmp_path: Path) -> None:
    """[RL-train-limits] the attack's bomb in w0, bomb in meta and huge header: refused by
    their declared sizes, naming the file and the member."""
    path = tmp_path / "model.npz"
    member = write_hostile(kind, RECOMMENDER, path)
    clause = "RL-train-files" if kind == "huge-shape" else "RL-train-limits"
    with pytest.raises(RLError, match=rf"^{clause}: {re.escape(str(path))}: {re.escape(member)}: declares "):
        load_model(path)


@pytest.mark.checks("RL-train-files", "RL-train-limits")
@pytest.mark.parametrize("kind", list(MORE))
def test_damaged_model_files_are_refused_naming_the_member(kind: str, tmp_path: Path) -> None:
    """[RL-train-files, RL-train-limits] what is wrong inside a model file is named with the
    file and the member: a header against meta, the dtype, byte order and order of an
    array, objects, numbers that are not finite, a stream that ends early or whose CRC is
    wrong, members other than the seven, encryption, a method other than stored or
    deflated, meta that is not JSON, too deep, not one text, or beyond the limits."""
    damage, message = MORE[kind]
    path = tmp_path / "model.npz"
    path.write_bytes(archive(list(damage(genuine(RECOMMENDER)).values())))
    with pytest.raises(RLError, match="^" + message.format(re.escape(str(path)))):
        load_model(path)


@pytest.mark.checks("RL-train-limits")
def test_only_regular_files_of_bounded_size_are_read(tmp_path: Path) -> None:
    """[RL-train-limits] a directory, a file larger than the limit (sparse: nothing is
    read), a zip with a comment after its end record and a zip whose end record claims a
    directory of 60000 members are refused before ``zipfile`` parses anything."""
    (tmp_path / "dir.npz").mkdir()
    with pytest.raises(RLError, match=r"^RL-train-limits: .*dir\.npz: a directory, not a model file"):
        load_model(tmp_path / "dir.npz")
    with open(tmp_path / "big.npz", "wb") as handle:
        handle.truncate(MODEL_FILE_LIMIT + 1)
    with pytest.raises(RLError, match=rf"^RL-train-limits: .*big\.npz: {MODEL_FILE_LIMIT + 1} bytes; a model file "
                                      rf"has at most {MODEL_FILE_LIMIT}"):
        load_model(tmp_path / "big.npz")
    members = list(genuine(RECOMMENDER).values())
    (tmp_path / "comment.npz").write_bytes(archive(members, comment=b"hello"))
    with pytest.raises(RLError, match=r"^RL-train-files: .*comment\.npz: not a zip archive \(no end record in its "
                                      r"last 22 bytes\)"):
        load_model(tmp_path / "comment.npz")
    data = bytearray(archive(members))
    data[-12:-6] = struct.pack("<HI", 60000, 3 << 20)
    (tmp_path / "directory.npz").write_bytes(bytes(data))
    with pytest.raises(RLError, match=r"^RL-train-limits: .*directory\.npz: a zip directory of 60000 members"):
        load_model(tmp_path / "directory.npz")


# ------------------------------------------------------------------ the command line, in a child


@dataclass(frozen=True)
class Outcome:
    code: int
    stderr: str
    cpu: float
    """seconds of CPU, user and system"""
    memory: int
    """peak resident bytes"""


def _guard() -> None:
    """In the child: a limit on the address space, so that a runaway fails fast."""
    resource.setrlimit(resource.RLIMIT_AS, (ADDRESS_GUARD, ADDRESS_GUARD))


def run_child(argv: list[str], patience: float = 120.0) -> Outcome:
    """``hanabi-ref argv`` in a child process of its own group, its usage from ``wait4``;
    a child still running after ``patience`` seconds (hung) fails the test; the group is
    ended on every path."""
    with tempfile.TemporaryFile() as errors:
        process = subprocess.Popen([sys.executable, "-m", "hanabi_ref.cli", *argv], cwd=ROOT, stdin=subprocess.DEVNULL,
                                   stdout=subprocess.DEVNULL, stderr=errors, start_new_session=True,
                                   preexec_fn=_guard)
        waited: tuple[int, Any] | None = None
        try:
            deadline = time.monotonic() + patience
            while waited is None:
                pid, status, usage = os.wait4(process.pid, os.WNOHANG)
                if pid:
                    waited = (status, usage)
                elif time.monotonic() > deadline:
                    pytest.fail(f"hanabi-ref {shlex.join(argv)}: still running after {patience:.0f} s")
                else:
                    time.sleep(0.02)
        finally:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            if waited is None:
                process.wait()
            else:
                process.returncode = os.waitstatus_to_exitcode(waited[0])
        errors.seek(0)
        text = errors.read().decode("utf-8", "replace")
    assert waited is not None
    status, usage = waited
    return Outcome(os.waitstatus_to_exitcode(status), text, usage.ru_utime + usage.ru_stime, usage.ru_maxrss * 1024)


def _offset_model(directory: Path) -> Path:
    """A genuine offset model file (random weights) for the 4-player team."""
    from hanabi_ref.tools.rl.train.modelfile import weight_shapes
    from hanabi_ref.tools.rl.train.offset import offset_meta

    meta = offset_meta(CONFIG, "hle", "view")
    rng = np.random.default_rng(0)
    path = directory / "offset.npz"
    save_model(path, {key: rng.standard_normal(shape).astype(np.float32)
                      for key, shape in weight_shapes(meta).items()}, meta)
    return path


SIMULATE = ["simulate", "--strategy", "learned-recommendation", "--players", "4", "--rules", "hle", "--games", "1"]
ENTRIES = ("model", "judge", "offset", "eval")


def command(entry: str, path: Path) -> list[str]:
    """The command that reads model file ``path`` through ``entry``."""
    if entry == "eval":
        return ["rl", "eval", str(path.parent), "--games", "1"]
    extra = ["--param", "embedding=public"] if entry == "offset" else []
    return [*SIMULATE, *extra, "--param", f"{entry}={path}"]


@pytest.fixture(scope="module")
def baseline(tmp_path_factory: pytest.TempPathFactory) -> Callable[[str], Outcome]:
    """Each entry's cost on a file that is plainly not a model (refused after the imports),
    measured once, when first asked for."""
    cache: dict[str, Outcome] = {}

    def cost(entry: str) -> Outcome:
        if entry not in cache:
            junk = tmp_path_factory.mktemp(f"baseline-{entry}") / "model.npz"
            junk.write_text("not a model\n")
            cache[entry] = run_child(command(entry, junk))
            assert cache[entry].code == 2 and "not a zip archive" in cache[entry].stderr, cache[entry].stderr
        return cache[entry]

    return cost


def _base_for(entry: str, directory: Path) -> Path:
    """A genuine model file of the agent ``entry`` reads."""
    if entry == "judge":
        return JUDGE
    return _offset_model(directory) if entry == "offset" else RECOMMENDER


KINDS = (*HOSTILE, "fifo")
PAIRS = [pytest.param(entry, kind, marks=() if index == position else pytest.mark.deep)
         for index, entry in enumerate(ENTRIES) for position, kind in enumerate(KINDS)]
"""every entry with every hostile file; the diagonal (each entry and each file once) by
default, the rest in the deep set"""


@pytest.mark.checks("RL-train-limits", "RL-errors")
@pytest.mark.parametrize(("entry", "kind"), PAIRS)
def test_hostile_model_files_cost_one_line_little_memory_and_time(entry: str, kind: str, tmp_path: Path,
                                                                   baseline: Callable[[str], Outcome]) -> None:
    """[RL-train-limits, RL-errors, C-exit] through ``--param model=``, ``judge=``,
    ``offset=`` and ``rl eval DIR``: the 3 GiB bomb in w0, the 2.4 GiB bomb in meta, the
    header of 2**60 floats and a FIFO are each refused in one line naming the file and the
    member, exit 2, at most 100 MB and 1 CPU second above the same command on a junk file,
    and the FIFO is not waited on."""
    (tmp_path / "run").mkdir()
    path = tmp_path / "run" / "model.npz"
    member = write_hostile(kind, _base_for(entry, tmp_path), path)
    outcome = run_child(command(entry, path))
    lines = outcome.stderr.splitlines()
    assert outcome.code == 2 and len(lines) == 1, outcome.stderr[-3000:]
    assert lines[0].startswith("hanabi-ref: ") and f"{path}: {member}" in lines[0], lines[0]
    junk = baseline(entry)
    assert outcome.memory <= junk.memory + MEMORY_ALLOWANCE, (outcome.memory, junk.memory)
    assert outcome.cpu <= 2 * junk.cpu + 1.0, (outcome.cpu, junk.cpu)


@pytest.mark.checks("RL-train-limits")
def test_the_largest_model_the_limits_allow_costs_little(tmp_path: Path, baseline: Callable[[str], Outcome]) -> None:
    """[RL-train-limits] a genuine model file of the largest sizes meta may state (4096
    inputs, 1024 hidden units and outputs: 22 MB of random weights) is read whole within the
    same 100 MB and 1 CPU second, and then refused for this configuration in one line."""
    from hanabi_ref.tools.rl.train.modelfile import SIZE_LIMITS, weight_shapes
    from hanabi_ref.tools.rl.train.policy import model_meta

    meta = {**model_meta(CONFIG, "hle", "modular"), **{key: SIZE_LIMITS[key] for key in ("inputs", "hidden", "hats")}}
    rng = np.random.default_rng(2)
    path = tmp_path / "largest.npz"
    save_model(path, {key: rng.standard_normal(shape).astype(np.float32)
                      for key, shape in weight_shapes(meta).items()}, meta)
    assert load_model(path).meta["inputs"] == 4096
    outcome = run_child(command("model", path))
    lines = outcome.stderr.splitlines()
    assert outcome.code == 2 and len(lines) == 1 and "the model takes 4096 inputs" in lines[0], outcome.stderr[-3000:]
    junk = baseline("model")
    assert outcome.memory <= junk.memory + MEMORY_ALLOWANCE, (outcome.memory, junk.memory)
    assert outcome.cpu <= 2 * junk.cpu + 1.0, (outcome.cpu, junk.cpu)


# ------------------------------------------------------------------ checkpoints


@pytest.fixture
def learn() -> Any:
    oracle("torch")
    from hanabi_ref.tools.rl.train import learn as module

    return module


SETTINGS = {"steps": 10, "bc_games": 2, "bc_epochs": 1, "decks": 2, "rollouts": 2, "judge_games": 2, "threshold_games": 1}


def saved_run(learn: Any, directory: Path) -> Any:
    """A trainer that has taken an optimiser step, learned a judge and recorded a curve
    (by hand: no games), saved to ``directory``."""
    from hanabi_ref.tools.rl.train.judge import judge_meta
    from hanabi_ref.tools.rl.train.modelfile import weight_shapes
    from hanabi_ref.tools.rl.train.policy import NumpyPolicy

    trainer = learn.Trainer(learn.Settings(**SETTINGS), directory)
    trainer.model(trainer.torch.ones(3, trainer.meta["inputs"])).sum().backward()
    trainer.optimizer.step()
    trainer.decks.random()
    trainer.torch.randperm(10, generator=trainer.draws)
    meta = judge_meta(CONFIG, "hle", 0.6)
    rng = np.random.default_rng(1)
    trainer.judge = NumpyPolicy({key: rng.standard_normal(shape).astype(np.float32)
                                 for key, shape in weight_shapes(meta).items()}, meta)
    trainer.moves, trainer.updates, trainer.phase = 1234, 1, "pg"
    trainer.curve = [{"phase": "bc", "epoch": 1, "moves": 1000, "loss": 1.5, "accuracy": 0.5, "teacher_mean_score": 20.0},
                     {"phase": "judge", "moves": 1200, "examples": 10, "playable": 0.5, "losses": [0.7, 0.6],
                      "thresholds": {"0.6": 21.0}, "threshold": 0.6},
                     {"phase": "pg", "update": 1, "moves": 1234, "mean_score": 21.5}]
    trainer.save()
    return trainer


@pytest.fixture(scope="module")
def saved_checkpoint(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    """The bytes of :func:`saved_run`'s ``checkpoint.pt``, made once for the module: each
    test that damages it writes its own copy into its own directory."""
    oracle("torch")
    from hanabi_ref.tools.rl.train import learn as module

    directory = tmp_path_factory.mktemp("saved-run")
    saved_run(module, directory)
    return (directory / "checkpoint.pt").read_bytes()


@pytest.mark.checks("RL-train-files", "RL-train-seeds")
def test_a_checkpoint_is_read_back_whole_by_the_weights_only_loader(learn: Any, tmp_path: Path) -> None:
    """[RL-train-files, RL-train-seeds] a saved run resumes with the same weights, cloned
    policy, optimiser state, generators, counts, phase, curve and judge; its checkpoint
    loads with ``weights_only=True``."""
    torch = oracle("torch")
    saved = saved_run(learn, tmp_path)
    assert isinstance(torch.load(tmp_path / "checkpoint.pt", weights_only=True), dict)
    resumed = learn.Trainer(learn.Settings(**SETTINGS), tmp_path)
    assert resumed.resume()
    for mine, theirs in ((resumed.model, saved.model), (resumed.reference, saved.reference)):
        assert all(torch.equal(mine.state_dict()[key], value) for key, value in theirs.state_dict().items())
    state, theirs = resumed.optimizer.state_dict(), saved.optimizer.state_dict()
    assert state["param_groups"] == theirs["param_groups"] and len(state["state"]) == 6
    assert all(torch.equal(state["state"][i][key], theirs["state"][i][key]) for i in state["state"] for key in state["state"][i])
    assert torch.equal(resumed.draws.get_state(), saved.draws.get_state())
    assert resumed.decks.getstate() == saved.decks.getstate()
    assert (resumed.moves, resumed.updates, resumed.phase, resumed.curve) == (1234, 1, "pg", saved.curve)
    assert resumed.judge is not None and saved.judge is not None and resumed.judge.meta == saved.judge.meta
    assert all(np.array_equal(value, saved.judge.weights()[key]) for key, value in resumed.judge.weights().items())


Mutation = Callable[[Any, dict[str, Any]], None]


def setter(path: tuple[Any, ...], make: Callable[[Any], Any]) -> Mutation:
    """Set the value at ``path`` of a checkpoint's objects to ``make(torch)``."""
    def apply(torch: Any, state: dict[str, Any]) -> None:
        node = state
        for step in path[:-1]:
            node = node[step]
        node[path[-1]] = make(torch)
    return apply


def dropped(key: str) -> Mutation:
    def apply(torch: Any, state: dict[str, Any]) -> None:
        del state[key]
    return apply


MUTATIONS: dict[str, Mutation] = {
    "bogus-weights": setter(("model",), lambda torch: {"bogus": torch.zeros(3)}),
    "weights-shape": setter(("model", "0.weight"), lambda torch: torch.zeros(128, 5)),
    "weights-dtype": setter(("reference", "0.bias"), lambda torch: torch.zeros(128, dtype=torch.float64)),
    "weights-nan": setter(("model", "4.bias"), lambda torch: torch.full((8,), float("nan"))),
    "optimizer": setter(("optimizer",), lambda torch: {"state": 5}),
    "optimizer-moment": setter(("optimizer", "state", 0, "exp_avg"), lambda torch: torch.zeros(2)),
    "optimizer-rate": setter(("optimizer", "param_groups", 0, "lr"), lambda torch: "fast"),
    "optimizer-params": setter(("optimizer", "param_groups", 0, "params"), lambda torch: [0, 1, 2, 3, 4, 99]),
    "optimizer-key": setter(("optimizer", "state", 99), lambda torch: {}),
    "draws-dtype": setter(("draws",), lambda torch: torch.zeros(5056)),
    "draws-length": setter(("draws",), lambda torch: torch.zeros(7, dtype=torch.uint8)),
    "decks": setter(("decks",), lambda torch: (3, (1, 2, 3), None)),
    "decks-text": setter(("decks",), lambda torch: "random"),
    "phase": setter(("phase",), lambda torch: "done"),
    "moves": setter(("moves",), lambda torch: -1),
    "updates": setter(("updates",), lambda torch: "many"),
    "curve": setter(("curve",), lambda torch: "long"),
    "curve-point": setter(("curve",), lambda torch: [{"phase": "pg", "moves": 3}]),
    "judge-weights": setter(("judge", "weights", "w0"), lambda torch: torch.zeros(3, 3)),
    "judge-meta": setter(("judge", "meta", "inputs"), lambda torch: 7),
    "judge-kind": setter(("judge",), lambda torch: [1, 2]),
    "settings": setter(("settings",), lambda torch: [1, 2]),
    "settings-type": setter(("settings", "seed"), lambda torch: "0"),
    "missing-key": dropped("draws"),
    "extra-key": setter(("extra",), lambda torch: 1),
}
"""damage to a checkpoint's objects whose settings stay the run's"""


@pytest.mark.checks("RL-train-files")
@pytest.mark.parametrize("mutation", list(MUTATIONS))
def test_a_checkpoint_of_the_right_settings_and_wrong_contents_is_refused_untouched(
        mutation: str, learn: Any, saved_checkpoint: bytes, tmp_path: Path) -> None:
    """[RL-train-files] a checkpoint whose settings are the run's but whose weights,
    optimiser state, generators, counts, phase, curve, judge or keys are not is refused in
    one line naming the file, and nothing of it is applied (the issue's example: model
    ``{"bogus": tensor}``, a traceback before)."""
    torch = oracle("torch")
    (tmp_path / "checkpoint.pt").write_bytes(saved_checkpoint)
    path = tmp_path / "checkpoint.pt"
    state = torch.load(path, weights_only=True)
    MUTATIONS[mutation](torch, state)
    torch.save(state, path)
    trainer = learn.Trainer(learn.Settings(**SETTINGS), tmp_path)
    before = {key: value.clone() for key, value in trainer.model.state_dict().items()}
    draws = trainer.draws.get_state().clone()
    with pytest.raises(RLError, match=rf"^RL-train-files: {re.escape(str(path))}: ") as refusal:
        trainer.resume()
    assert "\n" not in str(refusal.value)
    assert all(torch.equal(value, trainer.model.state_dict()[key]) for key, value in before.items())
    assert torch.equal(draws, trainer.draws.get_state()) and (trainer.moves, trainer.phase, trainer.judge) == (0, "bc", None)


class RunsACommand:
    """Pickled as a call of ``os.system`` (the attack's checkpoint settings)."""

    def __init__(self, line: str) -> None:
        self.line = line

    def __reduce__(self) -> tuple[Any, ...]:
        return (os.system, (self.line,))


@pytest.mark.checks("RL-train-files", "RL-errors")
def test_a_checkpoint_that_would_run_a_command_runs_nothing(learn: Any, tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    """[RL-train-files, RL-errors] ``rl train --out DIR`` with a checkpoint whose settings
    unpickle as ``os.system("echo ran > FILE")``: the command does not run, the refusal is
    one line naming the file and the function, exit 2, and nothing is written."""
    from hanabi_ref.cli import main

    torch = oracle("torch")
    marker = tmp_path / "marker"
    run = tmp_path / "run"
    run.mkdir()
    torch.save({"settings": RunsACommand(f"echo ran > {shlex.quote(str(marker))}"), "model": {}}, run / "checkpoint.pt")
    code = main(["rl", "train", "--agent", "recommendation", "--steps", "10", "--out", str(run)])
    err = capsys.readouterr().err
    assert not marker.exists()
    assert code == 2 and err.count("\n") == 1 and "Traceback" not in err, err
    assert err.startswith(f"hanabi-ref: rl: RL-train-files: {run / 'checkpoint.pt'}: holds objects other than "
                          f"tensors, numbers and text") and "system" in err, err
    assert sorted(os.listdir(run)) == ["checkpoint.pt"]


def _no_torch_load(monkeypatch: pytest.MonkeyPatch) -> None:
    """torch.load fails the test if it is called: the refusal must come before it."""
    torch = oracle("torch")

    def refuse(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("torch.load read the file")

    monkeypatch.setattr(torch, "load", refuse)


def _repacked(path: Path, change: Callable[[dict[str, Entry]], dict[str, Entry]]) -> None:
    with zipfile.ZipFile(path) as source:
        members = {info.filename: stored(info.filename, source.read(info)) for info in source.infolist()}
    path.write_bytes(archive(list(change(members).values())))


def _deflated(members: dict[str, Entry]) -> dict[str, Entry]:
    out = {}
    for name, entry in members.items():
        compressor = zlib.compressobj(9, zlib.DEFLATED, -15)
        out[name] = replace(entry, method=8, data=compressor.compress(entry.data) + compressor.flush())
    return out


def _tensor_bomb(members: dict[str, Entry]) -> dict[str, Entry]:
    name = next(key for key in members if key.endswith("/data/0"))
    return {**members, name: bomb(name, b"", 1 << 10)}


ARCHIVES: dict[str, tuple[Callable[[dict[str, Entry]], dict[str, Entry]], str]] = {
    "deflated": (_deflated, r"RL-train-limits: {}: \S+: compressed \(method 8\)"),
    "bomb": (_tensor_bomb, r"RL-train-limits: {}: \S+/data/0: compressed \(method 8\)"),
    "foreign-member": (lambda m: {**m, "archive/evil.py": stored("archive/evil.py", b"import os")},
                       r"RL-train-files: {}: not an archive of torch.save \(member 'archive/evil.py'\)"),
}


@pytest.mark.checks("RL-train-limits")
@pytest.mark.parametrize("kind", list(ARCHIVES))
def test_a_checkpoint_archive_is_checked_before_torch_reads_it(kind: str, learn: Any, saved_checkpoint: bytes,
                                                                 tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """[RL-train-limits] torch's reader inflates compressed members whatever they claim,
    so a checkpoint whose members are compressed (a 1 GiB tensor in 1 MB), or named as
    torch.save never names them, is refused before torch reads a byte of it."""
    (tmp_path / "checkpoint.pt").write_bytes(saved_checkpoint)
    path = tmp_path / "checkpoint.pt"
    change, message = ARCHIVES[kind]
    _repacked(path, change)
    _no_torch_load(monkeypatch)
    with pytest.raises(RLError, match="^" + message.format(re.escape(str(path)))):
        learn.Trainer(learn.Settings(**SETTINGS), tmp_path).resume()


@pytest.mark.checks("RL-train-files")
def test_a_checkpoint_in_torchs_legacy_format_is_not_unpickled(learn: Any, saved_checkpoint: bytes, tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """[RL-train-files] the format before zip archives (a pickle stream whose tensor sizes
    the stream declares) is refused as not a zip archive, before torch reads it."""
    torch = oracle("torch")
    (tmp_path / "checkpoint.pt").write_bytes(saved_checkpoint)
    path = tmp_path / "checkpoint.pt"
    torch.save(torch.load(path, weights_only=True), path, _use_new_zipfile_serialization=False)
    _no_torch_load(monkeypatch)
    with pytest.raises(RLError, match=rf"^RL-train-files: {re.escape(str(path))}: not a zip archive"):
        learn.Trainer(learn.Settings(**SETTINGS), tmp_path).resume()


@pytest.mark.checks("RL-train-limits")
def test_a_checkpoint_that_is_not_a_regular_file_is_not_opened(learn: Any, tmp_path: Path) -> None:
    """[RL-train-limits] a FIFO named ``checkpoint.pt`` is refused without being opened (a
    watcher that opens its other end, which only succeeds while a reader has it open,
    would release a reader that blocked on it); a directory, and a file over the limit,
    are refused too."""
    from hanabi_ref.tools.rl.train.checkpoint import CHECKPOINT_LIMIT

    path = tmp_path / "checkpoint.pt"
    os.mkfifo(path)
    stop, opened = threading.Event(), []

    def watch() -> None:
        while not stop.is_set():
            try:
                descriptor = os.open(path, os.O_WRONLY | os.O_NONBLOCK)
            except OSError:
                time.sleep(0.01)
                continue
            opened.append(True)
            os.close(descriptor)

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    try:
        with pytest.raises(RLError, match=rf"^RL-train-limits: {re.escape(str(path))}: a FIFO, not a checkpoint"):
            learn.Trainer(learn.Settings(**SETTINGS), tmp_path).resume()
    finally:
        stop.set()
        watcher.join()
    assert not opened
    path.unlink()
    path.mkdir()
    with pytest.raises(RLError, match=r"^RL-train-limits: .*checkpoint\.pt: a directory, not a checkpoint"):
        learn.Trainer(learn.Settings(**SETTINGS), tmp_path).resume()
    path.rmdir()
    with open(path, "wb") as handle:
        handle.truncate(CHECKPOINT_LIMIT + 1)
    with pytest.raises(RLError, match=rf"^RL-train-limits: .*checkpoint\.pt: {CHECKPOINT_LIMIT + 1} bytes; a "
                                      rf"checkpoint has at most {CHECKPOINT_LIMIT}"):
        learn.Trainer(learn.Settings(**SETTINGS), tmp_path).resume()
