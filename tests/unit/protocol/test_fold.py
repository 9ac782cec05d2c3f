"""The shared text fold (app/protocol/safety/fold.py): what it folds, that it is stable, and that the extension's
twin (extension/src/safety/fold.js, table generated into extension/src/generated/confusables.js) has exactly what
it needs. The vectors in extension/test/fixtures/fold-vectors.json are checked here and by `node --test`."""

from __future__ import annotations

import json
import unicodedata
from pathlib import Path

import pytest

from app.protocol.codegen import CONFUSABLES_GENERATED_PATH, render_confusables
from app.protocol.safety.fold import fold, ignorable_ranges, js_table

VECTORS = json.loads((Path(__file__).parents[3] / "extension/test/fixtures/fold-vectors.json").read_text("utf-8"))


@pytest.mark.parametrize("vector", VECTORS["vectors"], ids=lambda v: v["name"])
def test_shared_vectors(vector):
    assert fold(vector["text"]) == vector["folded"]


@pytest.mark.parametrize("text", [
    "ig\u200bnore", "ig\u00adnore", "ig\u2060nore", "\ufeffignore", "ig\u200dnore", "ig\u202enore", "ig\U000e0069nore",
    "іgnore", "ignоre", "ΙGNORE", "ＩＧＮＯＲＥ", "𝐢𝐠𝐧𝐨𝐫𝐞", "𝕚𝕘𝕟𝕠𝕣𝕖", "ɪgnore".replace("ɪ", "i"), "IGNORE",
])
def test_every_kind_of_disguise_folds_to_the_plain_word(text):
    assert fold(text) == "ignore"


def test_the_fold_is_stable():
    sample = "".join(chr(cp) for cp in range(0x20, 0x3000) if unicodedata.category(chr(cp))[0] in "LNPS")
    once = fold(sample)
    assert fold(once) == once


def test_ascii_is_never_folded_away():
    ascii_text = "".join(map(chr, range(0x20, 0x7F)))
    assert fold(ascii_text) == ascii_text.lower()


def test_line_breaks_survive_so_lines_fold_one_by_one():
    text = "first\u200b line\nSecond ＬＩＮＥ\n\nlast"
    assert fold(text).split("\n") == [fold(line) for line in text.split("\n")]


def _as_the_extension_folds(char: str, table: dict[str, str]) -> str:
    """extension/src/safety/fold.js on one NFKC-stable, visible character: its table, else toLowerCase(); NFC."""
    return unicodedata.normalize("NFC", table.get(char, char.lower()))


def test_the_extension_table_is_complete():
    """Every character the extension can meet after NFKC folds there as here: the generated table holds each one
    whose fold is not its toLowerCase()."""
    table = js_table()
    ignorable = {cp for low, high in ignorable_ranges() for cp in range(low, high + 1)}
    for cp in [*range(0x20000), *range(0xE0000, 0xE1000)]:
        char = chr(cp)
        if cp in ignorable or unicodedata.category(char) == "Cs" or unicodedata.normalize("NFKC", char) != char:
            continue
        assert fold(char) == _as_the_extension_folds(char, table), f"U+{cp:04X}"


def test_generated_confusables_are_current():
    assert CONFUSABLES_GENERATED_PATH.read_text(encoding="utf-8") == render_confusables(), "run `make schema`"


def test_a_letter_folds_alike_in_either_case():
    """Every cased character folds as its capital and its small letter do (Cyrillic к as К, to k), so a check
    matches a word whether the page writes it in capitals or not."""
    ignorable = {cp for low, high in ignorable_ranges() for cp in range(low, high + 1)}
    differing = []
    for cp in range(0x80, 0x20000):
        char = chr(cp)
        if cp in ignorable or unicodedata.category(char) == "Cs" or unicodedata.normalize("NFKC", char) != char:
            continue
        if char.upper() == char and char.lower() == char:
            continue
        if not fold(char) == fold(char.upper()) == fold(char.lower()):
            differing.append(char)
    assert differing == []
