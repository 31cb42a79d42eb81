"""No module-level mutable state above the kernel (issue 41, item 8): in ``formats``,
``players`` and ``tools``, a cache is bounded (``lru_cache`` with a finite ``maxsize``)
or owned by an object the caller holds, and nothing is filled as code runs or at import.

An AST scan over those folders refuses an unbounded module-level cache
(``functools.cache``, ``lru_cache(maxsize=None)``), a ``global`` statement, and a
module-level dictionary, list or set that the module later changes (a registry filled by
a decorator, a memo dictionary).  The few unbounded caches that are right where they are
(a function of no argument, computed once) are listed below by name, each with the reason
in its docstring; the scan also fails if a listed one is gone, so the list stays true."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path
from typing import Final

from tests.processes import ROOT

SCOPE: Final = ("formats", "players", "tools")
"""The folders of ``hanabi_ref`` under this rule (the kernel's tables go with its own split)."""

JUSTIFIED: Final = frozenset({
    "hanabi_ref/formats/schema.py:schema_registry",
    "hanabi_ref/formats/schema.py:_validator",
    "hanabi_ref/tools/vectors/registry.py:all_vectors",
})
"""``path:function`` of the unbounded caches kept on purpose (the reason is in each docstring)."""

MUTATORS: Final = frozenset({"append", "extend", "insert", "add", "update", "setdefault", "pop", "popitem",
                             "clear", "remove", "discard", "__setitem__", "__delitem__"})
"""Methods that change a dictionary, list or set in place."""


def _is_cache(node: ast.expr, name: str) -> bool:
    """``functools.NAME`` or a bare ``NAME``."""
    return (isinstance(node, ast.Attribute) and node.attr == name) or (isinstance(node, ast.Name) and node.id == name)


def is_unbounded_cache(decorator: ast.expr) -> bool:
    """``@functools.cache``, ``@lru_cache(maxsize=None)`` or ``@lru_cache(None)``."""
    if _is_cache(decorator, "cache"):
        return True
    if isinstance(decorator, ast.Call) and _is_cache(decorator.func, "lru_cache"):
        sizes = [keyword.value for keyword in decorator.keywords if keyword.arg == "maxsize"] + decorator.args[:1]
        return any(isinstance(size, ast.Constant) and size.value is None for size in sizes)
    return False


def is_container(value: ast.expr | None) -> bool:
    """A dictionary, list or set (a display, a comprehension or a constructor call)."""
    if isinstance(value, (ast.Dict, ast.List, ast.Set, ast.DictComp, ast.ListComp, ast.SetComp)):
        return True
    return (isinstance(value, ast.Call) and isinstance(value.func, (ast.Name, ast.Attribute))
            and (value.func.id if isinstance(value.func, ast.Name) else value.func.attr)
            in {"dict", "list", "set", "defaultdict", "OrderedDict", "Counter", "WeakKeyDictionary",
                "WeakValueDictionary"})


def module_containers(tree: ast.Module) -> set[str]:
    """The names bound at module level to a dictionary, list or set."""
    names: set[str] = set()
    for statement in tree.body:
        if isinstance(statement, ast.Assign) and is_container(statement.value):
            names |= {target.id for target in statement.targets if isinstance(target, ast.Name)}
        elif isinstance(statement, ast.AnnAssign) and isinstance(statement.target, ast.Name) \
                and is_container(statement.value):
            names.add(statement.target.id)
    return names


def changed_names(tree: ast.AST, shallow: bool = False) -> Iterator[tuple[str, int]]:
    """Each name changed in place under ``tree`` (only ``tree`` itself when ``shallow``),
    with its line: ``NAME[key] = ...``, ``del NAME[key]``, ``NAME[key] += ...`` and
    ``NAME.append(...)`` and the like."""
    for node in [tree] if shallow else ast.walk(tree):
        targets: list[ast.expr] = []
        if isinstance(node, (ast.Assign, ast.Delete)):
            targets = list(node.targets)
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign)):
            targets = [node.target]
        for target in targets:
            if isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name):
                yield target.value.id, target.lineno
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in MUTATORS \
                and isinstance(node.func.value, ast.Name):
            yield node.func.value.id, node.lineno


def local_names(function: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda) -> set[str]:
    """The names a function binds itself (a local hides the module's name of the same spelling)."""
    names = {arg.arg for arg in [*function.args.posonlyargs, *function.args.args, *function.args.kwonlyargs]}
    for node in ast.walk(function):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
    return names


def module_changes(node: ast.AST, hidden: frozenset[str] = frozenset()) -> Iterator[tuple[str, int]]:
    """The module-level names changed in place under ``node`` (see :func:`changed_names`),
    leaving out those a function binds locally."""
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
        hidden = hidden | local_names(node)
    for name, line in changed_names(node, shallow=True):
        if name not in hidden:
            yield name, line
    for child in ast.iter_child_nodes(node):
        yield from module_changes(child, hidden)


def findings(path: Path, relative: str) -> Iterator[str]:
    """What the rule refuses in one module (``path:line: what``), justified caches aside."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Global):
            yield f"{relative}:{node.lineno}: global {', '.join(node.names)}"
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) \
                and any(is_unbounded_cache(decorator) for decorator in node.decorator_list) \
                and f"{relative}:{node.name}" not in JUSTIFIED:
            yield f"{relative}:{node.lineno}: unbounded cache on {node.name}"
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Call) and is_unbounded_cache(node.func):
            yield f"{relative}:{node.lineno}: unbounded cache made by a call"
    containers = module_containers(tree)
    for name, line in sorted(module_changes(tree), key=lambda found: found[1]):
        if name in containers:
            yield f"{relative}:{line}: module-level {name} is changed"


def scope_modules() -> Iterator[tuple[Path, str]]:
    for folder in SCOPE:
        for path in sorted((ROOT / "hanabi_ref" / folder).rglob("*.py")):
            yield path, path.relative_to(ROOT).as_posix()


def test_no_module_level_mutable_state() -> None:
    """No unbounded module-level cache, no ``global``, no module-level container filled
    as code runs or at import, in formats, players and tools."""
    found = [finding for path, relative in scope_modules() for finding in findings(path, relative)]
    assert not found, "module-level mutable state:\n" + "\n".join(found)


def test_the_justified_caches_exist_and_say_why() -> None:
    """Every listed cache is an unbounded cache of a function of no argument whose
    docstring says why a module-level cache is right there."""
    functions = {}
    for path, relative in scope_modules():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef) and any(map(is_unbounded_cache, node.decorator_list)):
                functions[f"{relative}:{node.name}"] = node
    assert JUSTIFIED <= functions.keys(), sorted(JUSTIFIED - functions.keys())
    for name in JUSTIFIED:
        node = functions[name]
        assert not node.args.args and not node.args.posonlyargs and not node.args.kwonlyargs, name
        assert "cached" in (ast.get_docstring(node) or "").lower(), f"{name}: say why the cache is kept"


def test_the_scan_refuses_each_kind(tmp_path: Path) -> None:
    """A planted memo dictionary, registry, ``global`` and unbounded cache are each found."""
    planted = tmp_path / "planted.py"
    planted.write_text(
        "import functools\n"
        "MEMO: dict[int, int] = {}\n"
        "REGISTRY = []\n"
        "def register(function):\n    REGISTRY.append(function)\n    return function\n"
        "def remember(key):\n    MEMO[key] = key\n"
        "COUNT = 0\n"
        "def count():\n    global COUNT\n    COUNT += 1\n"
        "@functools.cache\ndef table(size):\n    return size\n"
        "@functools.lru_cache(maxsize=None)\ndef other(size):\n    return size\n"
        "@functools.lru_cache(maxsize=64)\ndef bounded(size):\n    return size\n"
        "def local():\n    MEMO = {}\n    MEMO[1] = 1\n    return MEMO\n",
        encoding="utf-8")
    found = sorted(findings(planted, "planted.py"))
    assert found == ["planted.py:11: global COUNT", "planted.py:14: unbounded cache on table",
                     "planted.py:17: unbounded cache on other", "planted.py:5: module-level REGISTRY is changed",
                     "planted.py:8: module-level MEMO is changed"], found
