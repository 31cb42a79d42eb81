"""Card ids and identities are different types [2.9-cards]: ``mypy --strict`` rejects a
card id where an identity is required, and accepts the identity itself."""

from __future__ import annotations

from pathlib import Path

import pytest
from mypy import api

ROOT = Path(__file__).resolve().parent.parent

SNIPPET = """\
from hanabi_ref.engine.cards import CardId, Identity, suit_of, value_of

card_id = CardId(7)
identity = Identity(7)
suit_of(identity, 5)
value_of(card_id, 5)
"""


def test_a_card_id_is_not_an_identity(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """[2.9-cards] passing a CardId to a decoder is a type error; passing an Identity is not
    (the one error reported is on the line that passes the card id)."""
    snippet = tmp_path / "mixed_ids.py"
    snippet.write_text(SNIPPET)
    monkeypatch.setenv("MYPYPATH", str(ROOT))
    stdout, stderr, status = api.run([
        "--strict", "--follow-imports=silent", "--no-incremental", "--cache-dir", str(tmp_path / "cache"), str(snippet),
    ])
    errors = [line for line in stdout.splitlines() if ": error:" in line]
    assert status == 1, stdout + stderr
    assert len(errors) == 1, stdout
    assert errors[0].startswith(f"{snippet}:6:"), stdout
    assert 'Argument 1 to "value_of" has incompatible type "CardId"; expected "Identity"' in errors[0]
