"""Pinned boxes judged at every scroll position that shows the text (issue 18; extension/src/extract/page-sticky.js),
through every reader (tests/e2e/redteam_matrix.py).

A sticky box moves inside its containing block as its scroll container scrolls, so where it stands now says
little: a text is hidden by it only when it covers the text at every scroll position that brings the text into
view. The carriers are covered at every such position but not where the box stands now, or in a scroll
container of their own: a bottom-sticky box shifted off a text below the viewport, the same near the top, a
sticky box over a text inside an overflow scroller whose scroll position does not show the text, down and across;
sticky flex and grid items (whose static position no sibling's box gives) shifted off their text now. KEPT is text a
sticky box covers at some positions only: a line under a stuck title that scrolling up uncovers, a line a scrolled left-sticky column stands on now, a line that a
bottom-sticky footer's shifted box stands on now (off screen) but leaves once the line is scrolled into view, an
article line under the page's sticky header, a flex column's footer, a grid scroller's auto-placed title. Real
Chromium, the real extension."""

from __future__ import annotations

from tests.e2e import redteam_matrix as rm

WHITE_BOX = "background:#fff;z-index:1"
LINE = "margin:0;font-size:14px;line-height:16px"
# A bottom-sticky box after its text, pulled back over it by a negative margin: its static box covers the text;
# shifted up (its static box below the viewport's bottom edge) it stands above the text, which is then out of view.
BOTTOM_STICKY = (f'<div style="display:flow-root"><p style="{LINE}">{{m}}</p><div style="position:sticky;bottom:0;'
                 f'height:30px;margin-top:-30px;{WHITE_BOX}"></div></div>')

CARRIERS: dict[str, str] = {
    "STKBOTTOM": BOTTOM_STICKY,
    # Inside a scroller whose scroll position does not show it: the sticky box covers it wherever it shows.
    "STKSCROLLER": (f'<div style="height:60px;overflow:auto"><div style="height:200px"></div><div>'
                    f'<div style="position:sticky;top:0;height:26px;margin-bottom:-26px;{WHITE_BOX}"></div>'
                    f'<p style="{LINE}">{{m}}</p></div><div style="height:200px"></div></div>'),
    # A left-sticky box over a text at its content's left edge; its scroller is scrolled right (TAIL): the box has
    # moved with the scroll, and the text is out of the port — back at offset 0 the box covers it again.
    "STKLEFT": (f'<div class="stk-x" style="width:300px;overflow-x:auto"><div style="width:1000px">'
                f'<div style="position:sticky;left:0;width:260px;height:20px;margin-bottom:-20px;{WHITE_BOX}"></div>'
                f'<p style="{LINE};font-size:11px;white-space:nowrap;text-align:left">{{m}}</p></div></div>'),
}
# A flex or grid item's static position is not where any sibling's box says (issue 18): the engine's view timeline
# gives it (page-sticky-engine.js), or the flex line's and the grid's tracks do (page-sticky-static.js) when the
# box is sticky at both ends. Far down, each is shifted up now, off the text, which is then out of view; a box
# after it (a spacer, a last row) keeps its containing block's far edge away from the text.
FLEX_STICKY = (f'<div style="display:flex;flex-direction:column"><p style="{LINE}">{{m}}</p><div style="position:sticky;'
               f'{{ins}};height:30px;margin-top:-30px;{WHITE_BOX}"></div><div style="height:200px"></div></div>')
GRID_STICKY = (f'<div style="display:grid;grid-template-rows:200px auto 200px"><div></div><p style="{LINE};grid-row:2;'
               f'grid-column:1">{{m}}</p><div style="position:sticky;{{ins}};height:20px;grid-row:{{row}};grid-column:1;'
               f'{WHITE_BOX}"></div><div style="grid-row:3"></div></div>')
FAR: dict[str, str] = {
    "STKBOTTOMFAR": BOTTOM_STICKY,
    "STKFLEX": FLEX_STICKY.replace("{ins}", "bottom:0"),
    "STKFLEXBOTH": FLEX_STICKY.replace("{ins}", "top:0;bottom:0"),
    # Laid out by `order` and `justify-content: flex-end`: the box comes after the text on the line, not in the DOM.
    "STKFLEXEND": (f'<div style="display:flex;flex-direction:column;justify-content:flex-end;height:400px"><div style="position:sticky;'
                   f'top:0;bottom:0;order:2;height:30px;margin-top:-30px;{WHITE_BOX}"></div><p style="{LINE};order:1">{{m}}</p>'
                   f'<div style="order:3;height:200px;flex:none"></div></div>'),
    "STKGRID": GRID_STICKY.replace("{ins}", "bottom:0").replace("{row}", "2"),
    "STKGRIDBOTH": GRID_STICKY.replace("{ins}", "top:0;bottom:0").replace("{row}", "2"),
}
KEPT: dict[str, str] = {
    # A scroller that is a grid, its title an auto-placed item stuck over the line now (TAIL); scrolled up, the line
    # shows below the title.
    "KEEPSTKGRID": (f'<div id="stk-grid" style="height:80px;overflow:auto;display:grid;grid-template-rows:26px 100px 16px 300px">'
                    f'<div style="position:sticky;top:0;{WHITE_BOX}">Grid title</div><div></div>'
                    f'<p style="{LINE}">Line under a grid title KEEPSTKGRID</p><div></div></div>'),
    # The scroller is scrolled (TAIL) so that its stuck title stands over the line now; scrolling up shows it.
    "KEEPSTKUNDER": (f'<div id="stk-under" style="height:80px;overflow:auto"><div style="position:sticky;top:0;'
                     f'height:26px;{WHITE_BOX}">Pinned title KEEPSTKTITLE</div><div style="height:100px"></div>'
                     f'<p style="{LINE}">Line under the title KEEPSTKUNDER</p><div style="height:300px"></div></div>'),
    # The same scroller, a line 300 px in: the scrolled sticky box stands over it now; scrolled back half way, the
    # line shows beside the box.
    "KEEPSTKLEFT": (f'<div class="stk-x" style="width:300px;overflow-x:auto"><div style="width:1000px">'
                    f'<div style="position:sticky;left:0;width:260px;height:20px;margin-bottom:-20px;{WHITE_BOX}"></div>'
                    f'<p style="{LINE};font-size:11px;white-space:nowrap;text-align:left;margin-left:300px">Beside a sticky column '
                    f'KEEPSTKLEFT</p></div></div>'),
}
KEPT_FAR: dict[str, str] = {
    # A flex column's footer, 150 px below the line: shifted up onto the line now (off screen), off it in view.
    "KEEPSTKFLEXFOOT": (f'<div style="display:flex;flex-direction:column"><p style="{LINE}">A line a flex footer leaves '
                        f'KEEPSTKFLEXFOOT</p><div style="height:150px;flex:none"></div><div style="position:sticky;bottom:0;'
                        f'height:26px;{WHITE_BOX}">Flex footer bar</div></div>'),
    # The footer's static box is 150 px below the line; below the viewport now, it is shifted up onto the line.
    "KEEPSTKFOOT": (f'<div><p style="{LINE}">A line the footer leaves KEEPSTKFOOT</p><div style="height:150px"></div>'
                    f'<div style="position:sticky;bottom:0;height:26px;{WHITE_BOX}">Footer bar</div></div>'),
    "KEEPSTKARTICLE": f'<p style="{LINE}">An article line under the sticky header KEEPSTKARTICLE</p>',
}
HEAD = ('<header style="position:sticky;top:0;height:40px;background:#fff;z-index:5;margin:0">'
        "Site header KEEPSTKHEAD</header>")
TAIL = ("<script>document.getElementById('stk-under').scrollTop = 122; document.getElementById('stk-grid').scrollTop = 122;"
        "for (const x of document.querySelectorAll('.stk-x')) x.scrollLeft = 300;</script>")
STYLE = "body { font: 16px/1.4 sans-serif; margin: 8px; color: #111; background: #fff }"

MATRIX = rm.Matrix(carriers=CARRIERS, far=FAR, kept=KEPT, kept_far=KEPT_FAR, kept_words=["KEEPSTKTITLE", "KEEPSTKHEAD"],
                   head=HEAD, style=STYLE, tail=TAIL, ready="document.getElementById('stk-under').scrollTop > 0 && document.getElementById('stk-grid').scrollTop > 0 && document.querySelector('.stk-x').scrollLeft > 0")

KNOWN_HOLES: dict[tuple[str, str], str] = {}

reads, test_no_carrier_reaches_the_model, test_each_reader_reads_the_visible_words, \
    test_text_a_person_reads_is_kept = rm.matrix_tests(MATRIX, KNOWN_HOLES)
