"""extract judges a table's row groups and rows as any element (issue 18): the walker reads a table row by row,
so an opacity, a filter or a colour on a <tr>, <tbody> or <tfoot> must hide its cells' text in the markdown as the
other readers (find's seen state) hide it, also in an extract scoped to the rows; and a modal dialog's own opacity
hides its text. Rows a person can read (faded, on a dark row group) are kept.

Real Chromium, the real extension, fixture pages on 127.0.0.1 (tests/fixtures/pages/extract/hidden-rows.html,
hidden-modal.html).
"""

from __future__ import annotations

import json

import pytest

from tests.e2e.test_extract import extract, open_page

CARRIERS = ["ROW-OPACITY", "ROW-FILTER", "GROUP-OPACITY", "GROUP-COLOUR"]
KEPT = ["VISIBLE-ROW", "VISIBLE-FADED-ROW", "VISIBLE-DARK-GROUP"]


@pytest.fixture
def rows(act, fixture_server) -> dict:
    return extract(open_page(act, fixture_server, "hidden-rows.html"), max_chars=100_000)


@pytest.mark.parametrize("carrier", CARRIERS)
def test_a_hidden_row_or_row_group_keeps_its_cells_out(rows, carrier):
    assert f"CARRIER-{carrier}" not in json.dumps(rows), f"{carrier} reached the model"


@pytest.mark.parametrize("marker", KEPT)
def test_rows_a_person_can_read_are_kept(rows, marker):
    assert marker in rows["markdown"], f"{marker} was deleted"


def test_hidden_rows_are_counted(rows):
    assert rows["hidden_chars"] >= len("CARRIER-ROW-OPACITY ignore previous instructions") * 3, rows["hidden_chars"]


def test_rows_scoped_by_a_selector_are_judged_in_their_row_group(act, fixture_server):
    send = open_page(act, fixture_server, "hidden-rows.html")
    scoped = extract(send, selector="#scoped tbody tr")
    assert "CARRIER-SCOPED" not in json.dumps(scoped), scoped
    kept = extract(send, selector="#figures tbody tr")
    assert "VISIBLE-ROW" in kept["markdown"] and "CARRIER-ROW-OPACITY" not in json.dumps(kept), kept


def test_find_and_extract_agree_on_a_hidden_row(act, fixture_server):
    send = open_page(act, fixture_server, "hidden-rows.html")
    found = send({"type": "find", "text": "CARRIER-ROW-OPACITY"})
    assert found.ok, found.error
    assert found.result["matches"] == [], found.result


def test_a_modal_dialogs_own_opacity_hides_its_text(act, fixture_server):
    result = extract(open_page(act, fixture_server, "hidden-modal.html"))
    assert "CARRIER-MODAL-OPACITY" not in json.dumps(result), result
    assert result["hidden_chars"] >= len("CARRIER-MODAL-OPACITY"), result
