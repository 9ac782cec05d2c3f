"""A text inside a pinned box, covered by another pinned box, judged at every scroll position (issue 18;
extension/src/extract/page-sticky.js), through every reader (tests/e2e/redteam_matrix.py).

Both boxes move as their scroll frame scrolls, each piecewise linearly, so a text is hidden only when the cover
covers it at every offset that shows it, with both where that offset puts them. The page is scrolled (TAIL) so that
where the text stands now says little. Carriers: a sticky caption inside the page's sticky header, under a fixed
banner (both stuck now; scrolled to the top, the header still stands under the banner); a sticky line that slides
under an opaque sticky bar in one scroller (pulled under it by a negative margin: they stick together); a sticky
caption inside a sticky header of a scroller under that scroller's sticky bar; a fixed chat widget under a fixed
overlay. KEPT: the same shapes where the two part at some offset that shows the text — a widget under an overlay
that is fixed inside a transformed box (it scrolls away with the page), a sticky line that sticks below the bar,
a caption whose header stands clear of the bar at the scroller's top. Real Chromium, the real extension."""

from __future__ import annotations

from tests.e2e import redteam_matrix as rm

WHITE = "background:#fff"
LINE = "margin:0;font-size:14px;line-height:20px;height:20px"
SCROLLER = "height:200px;overflow:auto"
# An opaque sticky bar at the top of a scroller, over what sticks under it.
BAR = f'<div style="position:sticky;top:0;height:40px;{WHITE};z-index:2"></div>'
SPACER = '<div style="height:1200px"></div>'

CARRIERS: dict[str, str] = {
    # The line is pulled under the bar (its static box inside the bar's): the two stick together.
    "PINPAIR": (f'<div class="pin-sc" style="{SCROLLER}"><div>{BAR}<p style="{LINE};position:sticky;top:10px;'
                f'margin-top:-30px">{{m}}</p>{SPACER}</div></div>'),
    # A header pulled under the bar; its caption sticks 10 px below the scroller's top, inside the bar's 40 px.
    "PINNEST": (f'<div class="pin-sc" style="{SCROLLER}"><div>{BAR}<div style="position:sticky;top:0;height:80px;'
                f'margin-top:-40px;z-index:1"><p style="{LINE};position:sticky;top:10px">{{m}}</p></div>{SPACER}</div></div>'),
    # Fixed under the page's fixed overlay (HEAD), wherever the page is scrolled.
    "PINFIXED": f'<span style="position:fixed;top:82px;right:20px;{LINE};z-index:1">{{m}}</span>',
    # Written in HEAD only: a caption in the page's sticky header.
    "PINCAPTION": "",
}
KEPT: dict[str, str] = {
    # Sticks at 60 px, below the bar's 40 px: never under it.
    "KEEPPINPAIR": (f'<div class="pin-sc" style="{SCROLLER}"><div>{BAR}<p style="{LINE};position:sticky;top:60px;'
                    f'margin-top:20px">A line below the bar KEEPPINPAIR</p>{SPACER}</div></div>'),
    # The header stands 100 px down: at the scroller's top its caption shows below the bar; scrolled (now) the
    # header is stuck and the caption under the bar.
    "KEEPPINNEST": (f'<div class="pin-sc" style="{SCROLLER}"><div>{BAR}<div style="position:sticky;top:0;height:80px;'
                    f'margin-top:60px;z-index:1"><p style="{LINE};position:sticky;top:10px">A caption clear of the bar '
                    f'KEEPPINNEST</p></div>{SPACER}</div></div>'),
    # A chat widget under an overlay that is "fixed" inside a transformed box 1620 px down (it stands over the
    # widget now, and scrolls away with the page; so does a sticky bar of a scroller copy the page is scrolled to, one
    # more scroll frame). A fixed widget's text is left out of the markdown as an overlay
    # (page-context.js); its button is listed, an unseen one with 40 characters of its name (the marker past them).
    "KEEPPINWIDGET": (f'<div style="position:fixed;top:130px;right:20px;z-index:1"><button style="{LINE}">Open the support chat '
                      f'for help now KEEPPINWIDGET</button></div>'
                      f'<div style="position:absolute;top:1620px;right:0;width:320px;height:60px;transform:translateZ(0);z-index:5">'
                      f'<div style="position:fixed;top:0;right:0;width:320px;height:60px;{WHITE};z-index:5"></div></div>'),
}
# The page's sticky header holds a sticky caption; a fixed banner over the top 60 px covers both wherever the page
# is scrolled (the header stands at 8 px at the top, stuck at 0 below it; the cases start below the banner). A
# fixed overlay covers PINFIXED.
HEAD = (f'<div style="position:fixed;top:0;left:0;right:0;height:60px;{WHITE};z-index:10"></div>'
        f'<div style="position:fixed;top:70px;right:0;width:320px;height:40px;{WHITE};z-index:10"></div>'
        f'<header style="position:sticky;top:0;height:40px;z-index:5;margin:0"><p style="{LINE};position:sticky;top:4px">'
        f'{rm.text_of("PINCAPTION")}</p></header><div style="height:80px"></div>')
TAIL = ("<script>for (const x of document.querySelectorAll('.pin-sc')) x.scrollTop = 300;"
        "window.scrollTo(0, 1500);</script>")
STYLE = "body { font: 16px/1.4 sans-serif; margin: 8px; color: #111; background: #fff }"

MATRIX = rm.Matrix(carriers=CARRIERS, kept=KEPT, head=HEAD, style=STYLE, tail=TAIL,
                   ready="window.scrollY > 0 && document.querySelector('.pin-sc').scrollTop > 0")

KNOWN_HOLES: dict[tuple[str, str], str] = {}

reads, test_no_carrier_reaches_the_model, test_each_reader_reads_the_visible_words, \
    test_text_a_person_reads_is_kept = rm.matrix_tests(MATRIX, KNOWN_HOLES)
