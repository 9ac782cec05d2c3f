"""Paint order inside one layer and across layers, judged the same in the viewport (hit testing) and 3,000 px below
it (the order: extension/src/extract/page-paint-order.js, page-paint-phase.js), through every reader
(tests/e2e/redteam_matrix.py). Issue 18.

CSS 2.2 appendix E and the flex and grid specs decide who paints over whom; each carrier is an opaque white box
painted over a text by a rule the order must get right, with a far twin: a later float over a float's text; an
inline-block after the text; flex items in order-modified document order (`order`), a later flex item, grid items
in one cell, a flex item raised by z-index without position; a non-positioned stacking context (isolation,
will-change, contain: paint) pulled over earlier text; a z-index inside a positioned z-index:auto box (it counts in
the outer stacking context); an in-flow box inside a positioned one; a popover in the top layer. KEPT holds their
twins a person reads: a float or a later block's background under a line's text, an inline-block or flex item
painted before the text, a grid line after its cell's box, a raised flex item, an isolated line after a positioned
box, a lifted z-index over a sibling's lower one, a line in the top layer under a page box with a high z-index.
Real Chromium, the real extension; the pages were checked against Chromium's own pixels."""

from __future__ import annotations

from tests.e2e import redteam_matrix as rm

W = "background:#fff"
LINE = "margin:0;line-height:20px;height:20px;white-space:nowrap"
BOX = f"width:420px;height:24px;{W}"
# A popover placed over its parent (TAIL) and shown: the top layer paints over every stacking context.
POP = "position:absolute;inset:auto;margin:0;border:0;padding:0;width:420px;height:24px;overflow:visible;color:inherit"

CARRIERS: dict[str, str] = {
    "FLOATFLOAT": (f'<div style="display:flow-root"><div style="float:left;width:420px;{LINE}">{{m}}</div>'
                   f'<div style="float:left;{BOX};margin:-2px 0 0 -420px"></div></div>'),
    "INLBAFTER": (f'<div style="{LINE}"><span>{{m}}</span><span style="display:inline-block;{BOX};margin-left:-300px;'
                  'vertical-align:-6px"></span></div>'),
    "FLEXORDER": (f'<div style="display:flex"><div style="order:2;flex:none;{BOX};margin-left:-420px"></div>'
                  f'<div style="order:1;flex:none;width:420px;{LINE}">{{m}}</div></div>'),
    "FLEXLATER": (f'<div style="display:flex"><div style="flex:none;width:420px;{LINE}">{{m}}</div>'
                  f'<div style="flex:none;{BOX};margin-left:-420px"></div></div>'),
    "GRIDCELL": (f'<div style="display:grid;width:420px"><div style="grid-area:1/1;{LINE}">{{m}}</div>'
                 f'<div style="grid-area:1/1;{W}"></div></div>'),
    "ZITEM": (f'<div style="display:flex"><div style="z-index:1;flex:none;{BOX};margin-right:-420px"></div>'
              f'<div style="flex:none;width:420px;{LINE}">{{m}}</div></div>'),
    "ISOLATED": f'<p style="{LINE}">{{m}}</p><div style="isolation:isolate;{BOX};margin-top:-22px"></div>',
    "WILLCHANGE": f'<p style="{LINE}">{{m}}</p><div style="will-change:transform;{BOX};margin-top:-22px"></div>',
    "CONTAIN": f'<p style="{LINE}">{{m}}</p><div style="contain:paint;{BOX};margin-top:-22px"></div>',
    "ZLIFT": (f'<div style="position:relative"><div style="position:absolute;z-index:5;top:-2px;left:0;{BOX}"></div></div>'
              f'<p style="position:relative;z-index:1;{LINE}">{{m}}</p>'),
    "ABSCHILD": (f'<div style="position:relative"><div style="position:absolute;top:-2px;left:0">'
                 f'<div style="{BOX}"></div></div><p style="{LINE}">{{m}}</p></div>'),
    "TOPLAYER": (f'<div class="pop-at"><p style="position:relative;z-index:10;{LINE}">{{m}}</p>'
                 f'<div popover="manual" class="pop" style="{POP};{W}"></div></div>'),
}
FAR: dict[str, str] = {f"{k}FAR": v for k, v in CARRIERS.items()}
KEPT: dict[str, str] = {
    "KEEPFLOATUNDER": (f'<div style="display:flow-root"><p style="{LINE}">A line over a float KEEPFLOATUNDER</p>'
                       f'<div style="float:left;{BOX};margin-top:-22px"></div></div>'),
    "KEEPINLBBEFORE": (f'<div style="{LINE}"><span style="display:inline-block;{BOX};margin-right:-420px;'
                       'vertical-align:-6px"></span><span>A line after an inline block KEEPINLBBEFORE</span></div>'),
    "KEEPFLEXORDER": (f'<div style="display:flex"><div style="flex:none;width:420px;{LINE}">A flex line KEEPFLEXORDER</div>'
                      f'<div style="order:-1;flex:none;{BOX};margin-right:-420px"></div></div>'),
    "KEEPGRIDLATER": (f'<div style="display:grid;width:420px"><div style="grid-area:1/1;{W}"></div>'
                      f'<div style="grid-area:1/1;{LINE}">A grid line KEEPGRIDLATER</div></div>'),
    "KEEPZITEM": (f'<div style="display:flex"><div style="z-index:1;flex:none;width:420px;{LINE}">A raised item KEEPZITEM</div>'
                  f'<div style="flex:none;{BOX};margin-left:-420px"></div></div>'),
    "KEEPNEGFLOW": f'<div><p style="{LINE}">A line a later block overlaps KEEPNEGFLOW</p><div style="{BOX};margin-top:-22px"></div></div>',
    "KEEPISOLATED": (f'<div style="position:relative;{BOX};margin-bottom:-22px"></div>'
                     f'<p style="isolation:isolate;{LINE}">An isolated line KEEPISOLATED</p>'),
    "KEEPZAUTO": (f'<div style="position:relative"><span style="position:relative;z-index:5;{LINE};display:block">'
                  f'A lifted line KEEPZAUTO</span></div><div style="position:relative;z-index:1;{BOX};margin-top:-22px"></div>'),
    "KEEPFLOATTEXT": (f'<div style="display:flow-root"><div style="float:left;width:420px;{LINE}">A floated line KEEPFLOATTEXT</div>'
                      f'<div style="{BOX};margin-top:-2px"></div></div>'),
    "KEEPTOPLAYER": (f'<div class="pop-at" style="height:24px"><div popover="manual" class="pop" style="{POP}">'
                     f'<p style="{LINE}">A line in the top layer KEEPTOPLAYER</p></div></div>'
                     f'<div style="position:relative;z-index:99;{BOX};margin-top:-24px"></div>'),
    # A positioned box of no height: what overflows it shows (it is no box off-screen).
    "KEEPZEROBOX": (f'<div style="position:relative"><div style="position:absolute;top:0;left:0;{LINE}">'
                    f'A line in a box of no height KEEPZEROBOX</div></div><div style="height:24px"></div>'),
}
KEPT_FAR: dict[str, str] = {f"{k}FAR": v.replace(k, f"{k}FAR") for k, v in KEPT.items()}
# Every popover, those a click adds later too (the changes reader), is shown over its parent.
TAIL = ("<script>const pops = () => { for (const p of document.querySelectorAll('.pop:not(:popover-open)')) {"
        " const r = p.parentElement.getBoundingClientRect(); p.style.left = r.left + scrollX + 'px';"
        " p.style.top = r.top + scrollY - 2 + 'px'; p.showPopover(); } };"
        " pops(); new MutationObserver(pops).observe(document.body, {childList: true, subtree: true});</script>")
STYLE = "body { font: 16px sans-serif; margin: 8px; color: #111; background: #fff } .case { margin: 10px 0 }"

MATRIX = rm.Matrix(carriers=CARRIERS, far=FAR, kept=KEPT, kept_far=KEPT_FAR, style=STYLE, tail=TAIL,
                   ready="[...document.querySelectorAll('.pop')].every((p) => p.matches(':popover-open'))")

KNOWN_HOLES: dict[tuple[str, str], str] = {}

reads, test_no_carrier_reaches_the_model, test_each_reader_reads_the_visible_words, \
    test_text_a_person_reads_is_kept = rm.matrix_tests(MATRIX, KNOWN_HOLES)
