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


def test_mathml_reads_as_tex_or_as_its_text(act, fixture_server):
    markdown = extract(open_page(act, fixture_server, "reading.html"))["markdown"]
    assert "Euler's identity $e^{i\\pi} + 1 = 0$ links five constants." in markdown
    assert "Without TeX: (a)/(b) + √(x) stays readable." in markdown
    assert "\n$$E = mc^2$$\n" in markdown, "display math is a paragraph of its own"
    assert "Area $\\pi r^{2}$ of a circle" in markdown, "a formula image by its TeX alt text, the hidden MathML not twice"


def test_a_formula_reads_where_its_rendering_shows_and_hidden_mathml_never_leaks(act, fixture_server):
    result = extract(open_page(act, fixture_server, "reading.html"))
    markdown = result["markdown"]
    assert "The radius $r_{0}$, in metres." in markdown, "an aria-hidden fallback image stands for its hidden MathML"
    assert "A sum $\\sum_{k=1}^{n} k$ drawn by glyphs." in markdown, "glyphs beside clipped MathML: its TeX, once"
    assert "Drawn as SVG x + 1 too." in markdown, "an aria-hidden SVG drawing beside clipped MathML"
    assert "∑k=1n" not in markdown and "a≠0" not in markdown, "the aria-hidden drawing's own text is not read"
    assert "Nothing hidden leaks plain here." in markdown
    for hidden in ("HIDDENONE", "HIDDENTWO", "HIDDENTHREE"):
        assert hidden not in json.dumps(result), "MathML whose rendering is invisible, or that has none, stays hidden"


def test_math_libraries_focusable_formula_is_inline_text_not_a_control(act, fixture_server):
    result = extract(open_page(act, fixture_server, "reading.html"))
    assert "When a ≠ 0, there are two solutions." in result["markdown"]
    assert "clickable" not in result["elements"], result["elements"]


def test_limits_accents_and_table_rows_of_mathml_without_tex(act, fixture_server):
    markdown = extract(open_page(act, fixture_server, "reading.html"))["markdown"]
    assert "Sums ∑_{k = 1}^n a_k, limits lim_{x → 0}, accents x˙ and rows a & b \\\\ c & d." in markdown


def test_layout_tables_read_as_blocks_and_data_tables_as_tables(act, fixture_server):
    markdown = extract(open_page(act, fixture_server, "reading.html"))["markdown"]
    assert "\n## A story laid out in a table\nFirst paragraph of the story.\nSecond paragraph of the story.\n" in markdown
    assert "\nOnly one column, row one.\nOnly one column, row two.\n" in markdown
    assert "| City | Population |\n| --- | --- |\n| Lisbon | 545,000 |\n| Porto | 232,000 |" in markdown
    assert markdown.count("|") == 12, "only the data table is a markdown table"


def test_text_standing_directly_in_a_list_is_kept(act, fixture_server):
    markdown = extract(open_page(act, fixture_server, "reading.html"))["markdown"]
    assert "- Stray text before the items with bold\n- First item\n- stray text between\n- Second item" in markdown


def test_pre_text_counts_so_the_page_is_not_repeated_as_text(act, fixture_server):
    result = extract(open_page(act, fixture_server, "reading.html"))
    assert '    return f"Hello, {name}!"' in result["markdown"], "pre keeps its indentation"
    assert "60.  The sender MUST NOT" in result["markdown"]
    assert result["text"] == ""


def test_max_chars_bounds_what_the_model_receives(act, fixture_server):
    send = open_page(act, fixture_server, "large.html?rows=2000")
    for max_chars in (1000, 5000, 24000):
        result = extract(send, max_chars=max_chars)
        serialised = json.dumps(result, ensure_ascii=False, separators=(",", ":"))
        assert len(serialised) <= max_chars, (max_chars, len(serialised))
        assert "truncated at max_chars" in result["note"]


def test_a_page_that_shows_nothing_says_so(act, fixture_server):
    result = extract(open_page(act, fixture_server, "blank.html"))
    assert result["markdown"] == "" and result["elements"] == ""
    assert result["note"].startswith("The page shows nothing: body has visibility:hidden."), result


def test_a_tables_caption_is_its_title_line_before_the_rows(act, fixture_server):
    markdown = extract(open_page(act, fixture_server, "tables.html"))["markdown"]
    assert re.search(r"\nTable 1\. Largest cities \[\\\[1\\\]\]\(e\d+\)\n\| City \| Population \|\n", markdown), \
        "a data table's caption, its link kept"
    assert "\nA layout table's title\nLeft column text.\nRight column text.\n" in markdown, "a layout table's"
    assert "Screen-reader-only caption" not in markdown, "a caption nobody sees stays hidden"
    assert "\n| Key | Value |\n| --- | --- |\n| a | 1 |" in markdown


def test_data_tables_nested_in_a_layout_table_keep_their_rows_and_cells(act, fixture_server):
    markdown = extract(open_page(act, fixture_server, "tables.html"))["markdown"]
    assert ("\n> Most active developers\n> | By changesets |  |  |\n> | --- | --- | --- |\n"
            "> | Ana Lima | 63 | 16.6% |\n> | Rui Costa | 56 | 14.7% |\n> | By changed lines |  |  |\n") in markdown
    assert "> | Ana Lima | 261 | 3.8% |" in markdown


def test_an_unread_frame_is_noted_by_its_origin_and_frames_nobody_sees_not_at_all(act, fixture_server):
    send = open_page(act, fixture_server, "frames-unread.html")
    result = extract(send)
    markdown = result["markdown"]
    assert "Before the ad.\n[iframe http://127.0.0.1:1 could not be read]\nAfter the ad.\nThe end." in markdown, \
        "one note, by origin: no path or query; zero-size, 1-px and invisible frames say nothing"
    assert "slot=42" not in json.dumps(result)
    for inside in ("Shipping address", "Street", "Card payment", "Card number"):
        assert inside not in json.dumps(result), "an invisible frame's document is not read, in process or out"
    shown = send({"type": "evaluate", "expression": "for (const id of ['hidden-same', 'hidden-cross']) "
                  "document.getElementById(id).style.visibility = 'visible'; true"})
    assert shown.ok, shown.error
    markdown = extract(send)["markdown"]
    assert "Shipping address (same-origin frame)" in markdown and "Card payment (cross-site frame)" in markdown, \
        "the same frames once they show are read"


def test_a_content_image_shows_its_alt_text_when_it_says_something_new(act, fixture_server):
    result = extract(open_page(act, fixture_server, "images.html"))
    markdown = result["markdown"]
    assert "Before [image: A heron standing on a wooden post] after." in markdown
    assert "Says nothing: the end." in markdown, \
        "file names, empty, generic and slug alts; decorative, aria-hidden, icon-sized, invisible, transparent images"
    assert "[Back to the home page](e" in markdown and "[image: Back" not in markdown, "a link names its image"
    assert "Figure 2. Sales by quarter" in markdown and "[image: Sales" not in markdown, "its caption says it already"
    assert "\n[image: Bar chart of sales 2024, rising each quarter]\nFigure 3. The year in numbers" in markdown
    assert "[image: Pictures" not in markdown, "the page's title says it already"
    long = re.search(r"\[image: ([^\]]*)\]\n?$", markdown).group(1)
    assert long.startswith("a long description") and long.endswith("…") and len(long) == 100, long
    for hidden in ("Decorative swirl", "Hidden from readers", "invisible picture", "transparent picture"):
        assert hidden not in json.dumps(result)
