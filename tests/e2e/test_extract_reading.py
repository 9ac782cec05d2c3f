"""extract shows field values exactly with their types and formats, and reads real pages whole and lean
(fixture pages under tests/fixtures/pages/extract)."""

from __future__ import annotations

import json
import re

from tests.e2e.test_extract import element_lines, extract, open_page, uid_of


def test_field_values_are_exact_and_quoted_up_to_a_generous_cap(act, fixture_server):
    result = extract(open_page(act, fixture_server, "fields.html"))
    uid_of(result, re.escape('textbox "Padded" value="  two spaces before, three after   "'))
    long = "A value that is longer than sixty characters, so the old extract cut it short."
    uid_of(result, re.escape(f'textbox "Long" value={json.dumps(long)}'))
    letter = next(rest for rest in element_lines(result).values() if rest.startswith('textbox "Letter"'))
    shown = json.loads(re.search(r'value=("(?:[^"\\]|\\.)*")', letter).group(1))
    assert shown == "Dear team,\n" + "x" * (2000 - len("Dear team,\n")), "newlines kept, cut at the cap"
    assert letter.endswith("… cut at 2000 of 2511 chars"), letter


def test_inputs_say_their_type_and_the_format_the_browser_requires(act, fixture_server):
    result = extract(open_page(act, fixture_server, "fields.html"))
    for line in ('textbox "Start date" value="2026-03-05" type=date format=yyyy-mm-dd min=2026-01-01 max=2026-12-31',
                 'textbox "Alarm" type=time format=HH:MM',
                 'textbox "Alarm with seconds" type=time format=HH:MM:SS step=1',
                 'textbox "Meeting" type=datetime-local format=yyyy-mm-ddTHH:MM',
                 'textbox "Billing month" type=month format=yyyy-mm',
                 'textbox "Sprint week" type=week format=yyyy-Www',
                 'button "Brand colour" value="#3366cc" type=color format=#rrggbb',
                 'spinbutton "Guests" value="2" type=number min=1 max=12 step=1',
                 'textbox "Zip" maxlength=5 pattern="[0-9]{5}"'):
        uid_of(result, re.escape(line))


def test_a_value_typed_back_as_read_round_trips(act, fixture_server):
    send = open_page(act, fixture_server, "fields.html")
    result = extract(send)
    padded = uid_of(result, r'textbox "Padded" .*')
    value = json.loads(re.search(r'value=("(?:[^"\\]|\\.)*")', element_lines(result)[padded]).group(1))
    response = send({"type": "evaluate", "expression": "document.getElementById('padded').value"})
    assert response.ok and response.result["value"] == value
