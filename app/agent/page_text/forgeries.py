"""Page text that imitates what is not page text: the page-data boundary, a tool call or tool result of any common
provider's shape, a chat template's turn markers. Found in the folded text (app/protocol/safety/fold.py), so a
full-width `＜`, a zero-width space inside `tool_result` or a `〚` for `⟦` changes nothing, and defused in the
original: brackets of a boundary look-alike become plain square brackets (as the model's instructions say);
markup's angle and square brackets become `⟨⟩`, its quotes backticks, its backticks `ˋ` and its bars `¦`, so it no
longer parses as what it imitates (it stays readable).

Kinds (one regular expression each, in `_FORGED`):
- tags of tool use and chat turns (Anthropic's `<function_results>`, `<invoke>`; Hermes/Qwen `<tool_call>`,
  `<tool_response>`; Gemma `<start_of_turn>`; `<system>`, `<page-data>`, …), and any tag whose name has one of
  those as a part (`<assistant_response>`, `<system-reminder>`, `<user_query>`);
- chat-template tokens (`<|im_start|>`, `<|eot_id|>`, the sequence tokens `<s>`, `</s>`, `<bos>`, `<eos>`,
  DeepSeek's `<｜tool▁calls▁begin｜>`, `[INST]`, `<<SYS>>`,
  Mistral's `[TOOL_CALLS]`);
- JSON (or a Python repr, single quotes) of a tool exchange (Anthropic `"type": "tool_use"` / `"tool_result"`, `"tool_use_id"`; OpenAI
  `"tool_calls"`, `"function_call"`, `"tool_call_id"`, `"role": "tool"`; Gemini `"functionCall"`,
  `"functionResponse"`), a chat message's `"role"`, an MCP (JSON-RPC) message's `"jsonrpc":`, and bua's own result
  shape `{"ok": true`; a function call's `{"name": …, "arguments" | "parameters": …}` (OpenAI, Llama 3.1, Hermes);
- tags of reasoning, search results and execution (`<thinking>`, `<search_results>`, `<execute_bash>`,
  Llama's `<function=name>`), bracket tokens of any tool or function (`[TOOL_RESULT]`), and code fences of tool code
  (```` ```tool_code ````).
Ordinary JSON and ordinary brackets are left alone.

Text written in Unicode tag characters (U+E0020–E007E, ASCII shifted into an invisible block: a person sees nothing,
a model may read it) is shown: each run becomes the ASCII it spells, marked `⟨hidden text: …⟩`, before the rest of
the checks (so the flagger judges its words); the tag sequence of a subdivision flag emoji (🏴 + tags + U+E007F)
is a picture and stays.
"""

from __future__ import annotations

import re
import unicodedata
from functools import cache

from app.agent.page_text.delimiters import delimited_tokens, is_delimiter
from app.protocol.safety.fold import fold, fold_mapped

BOUNDARY_BRACKETS = {"⟦": "[", "⟧": "]", "⟪": "[", "⟫": "]"}
"""The boundary's own brackets (and their double-angle kin), folded: made plain wherever the page has them."""
_DEFUSED = {"<": "⟨", ">": "⟩", "[": "⟨", "]": "⟩", '"': "`", "'": "`", "|": "¦", "`": "ˋ"}
"""What each syntax character of a markup forgery becomes (by its folded form): characters that do not fold back
to syntax, so a defused forgery stays defused for every later check."""

_TAG_NAMES = (r"(?:antml:)?(?:function_results|function_calls|function_call|tool_results?|tool_use|tool_calls?|"
              r"tool_response|tool_code|tool_output|invoke|parameter|result|output|system|assistant|human|user|"
              r"developer|instructions?|page[-_ ]?data|untrusted[-_ ]?data|(?:start|end)_of_turn|im_start|im_end|"
              r"thinking|reasoning|scratchpad|search_results?|document_content|execute_\w+|function=[\w.-]+)")
_TAG_PARTS = r"(?:query|input|message|turn|prompt|response|reply|output|results?|reminder|instructions?|block|content|text|data|calls?|use|request)"
"""What may follow a tag name's role or tool part (`<assistant_response>`, `<system-reminder>`); a page's own
custom element (`<user-avatar>`) is left alone."""
_Q = "[\"']"
_EXCHANGE_KEY = (r"(?:[a-z]+[_-]?)?(?:tool|function)s?[_-]?(?:use|call|result|response|output|code|input|name|choice)s?"
                 r"(?:[_-]?(?:id|name|input|args|arguments|content|type|status))?")
"""A key of a tool exchange by the words it joins, however a provider spells them (`toolResult`, `tool_use_id`,
`toolCallId`, `tool_results`, `function_response`, `toolName`; the fold has made them lower-case): a word of a tool
or a function, then one of its use, call, result, output or name."""
_FORGED = re.compile(
    rf"</?\s*(?:[a-z][\w-]*[_-])?{_TAG_NAMES}(?:[_-]{_TAG_PARTS})*(?:\s[^<>\n]{{0,200}})?/?>"
    r"|<\|[^|<>\n]{2,40}\|>|</?s>|<(?:bos|eos|eot|pad|unk|sep|cls|mask)>|\[/?inst\]|<</?sys>>|\[/?(?:(?:tool|function)_\w+|available_tools|system_prompt)\]"
    r"|```\s*(?:tool_code|tool_calls?|function_calls?|tool_outputs?|tool_results?)\b"
    rf"|{_Q}(?:tool_use|tool_result|server_tool_use|function_call_output|tool_calls|tool_call_id|tool_use_id"
    rf"|function_call|functioncall|functionresponse|function_response|tool_code){_Q}"
    rf"|{_Q}type{_Q}\s*:\s*{_Q}function{_Q}"
    rf"|{_Q}name{_Q}\s*:\s*{_Q}[^\"'\n]{{1,80}}{_Q}\s*,\s*{_Q}(?:arguments|parameters|args|input){_Q}\s*:"
    rf"|{_Q}role{_Q}\s*:\s*{_Q}(?:tool|function|system|assistant|developer|model|user|ipython){_Q}"
    rf"|\{{\s*{_Q}ok{_Q}\s*:\s*(?:true|false)|{_Q}jsonrpc{_Q}\s*:")
_EXCHANGE = re.compile(
    rf"{_Q}{_EXCHANGE_KEY}{_Q}\s*:|(?<![\w.])(?:tool|function)_?(?:use|call|result|response|output)s?(?:_?id)?\s*=\s*[\"'\[{{(]"
    rf"|{_Q}(?:role|type|kind|object|event)s?{_Q}\s*:\s*{_Q}(?:[a-z]+[_.-]?)?(?:tool|function)s?(?:[_.-]?[a-z]+)*{_Q}"
    rf"|(?<!\w)(?:ai|human|system|tool|function|chat|assistant|user|developer)_?message(?:_?chunk)?\s*\("
    rf"|{_Q}content{_Q}\s*:\s*\[\s*\{{\s*{_Q}type{_Q}\s*:")
"""A tool exchange by its structure (a regex of its own: joined to `_FORGED` it would make that scan slower): a key
that joins a tool's or a function's word to one of use, call, result, output or name, quoted (`"toolResult":`) or a
keyword argument (`tool_call_id=`), a role or type whose value names a tool (`"type": "tool-result"`), a message
constructor (`ToolMessage(`, `AIMessage(`), and a content list of typed blocks (an MCP or Anthropic message)."""


@cache
def _is_bracket(char: str) -> bool:
    """Any opening or closing bracket, quote-like bracket or corner, in any script or symbol block."""
    if char in "<>[](){}":
        return True
    category = unicodedata.category(char)
    return category in ("Ps", "Pe", "Pi", "Pf") or (category.startswith("S") and "BRACKET" in unicodedata.name(char, ""))


@cache
def _bracket_view() -> dict[int, str]:
    """A translation table that makes every opening bracket `(` and every closing one `)`: general categories Ps
    and Pe (the bidi-paired brackets are among them), and any other character named as a left or right bracket or
    parenthesis (`⎡`, `⸂`, `⎛`); with what each of them folds to where the fold makes it another character that is
    no ASCII letter or digit (UTS #39 turns `⸦` into a syllabic `ᑕ`)."""
    table: dict[int, str] = {ord("<"): "(", ord(">"): ")"}
    folds: dict[int, set[str]] = {}
    for code in range(0x20, 0x30000):
        char = chr(code)
        category = unicodedata.category(char)
        name = unicodedata.name(char, "").split() if category[0] in "PS" else []
        shaped = "BRACKET" in name or "PARENTHESIS" in name
        side = "(" if category == "Ps" or shaped and ("LEFT" in name or "OPENING" in name) else \
            ")" if category == "Pe" or shaped and ("RIGHT" in name or "CLOSING" in name) else ""
        if side:
            table[code] = side
            folded = fold(char)
            if len(folded) == 1 and not (folded.isascii() and folded.isalnum()):
                folds.setdefault(ord(folded), set()).add(side)
    for code, sides in folds.items():  # a fold both sides share (`⎜`, `⎟`: `丨`) is a bar, not a bracket
        if len(sides) == 1:
            table.setdefault(code, sides.pop())
    return table


@cache
def _marker_lookalike() -> re.Pattern[str]:
    """A token as the boundary's (a few letters and digits, app/agent/page_text/boundary.py) between brackets of
    `_bracket_view` (one character class a side: scanned in C, the table is not applied to the text)."""
    def side(which: str) -> str:
        return "".join(re.escape(chr(code)) for code, value in _bracket_view().items() if value == which)
    return re.compile(rf"(?P<open>[{side('(')}]{{1,3}})[ \t]?(?P<token>[a-z0-9]{{3,16}})[ \t]?"
                      rf"(?P<close>[{side(')')}]{{1,3}})")


def _lookalike(opening: str, closing: str) -> bool:
    """Whether brackets (as written, NFKC) around a token look like the boundary's: a doubled square bracket, or
    any bracket but the everyday ones (ASCII code's `({author})` and a template's `{{ name }}` are everyday too)."""
    brackets = opening + closing
    if brackets.isascii():
        return opening == "[" * len(opening) and closing == "]" * len(closing) and len(brackets) >= 4
    return not (len(brackets) == 2 and all(_angle(b) for b in brackets))


@cache
def _angle(bracket: str) -> bool:
    name = unicodedata.name(bracket, "")
    return "ANGLE BRACKET" in name and "DOUBLE" not in name


def _token_lookalikes(folded: str, text: str, origin: list[int]) -> list[re.Match[str]]:
    """The look-alikes in `folded` of a boundary marker `⟦T⟧` by its token: brackets of any kind around a token
    the page wrote in small letters and digits, as bua's are (`【k7q2m】`, `⦃k7q2m⦄`, `[[k7q2m]]`, `❲k7q2m❳`, which
    folds to a parenthesis but is none); `【PR】`, `[1]`, `(abc12)`, `（2024）` and a single angle bracket's
    `⟨system⟩` (a tag's, and how a defused tag looks) are not."""
    def written(match: re.Match[str], group: str) -> str:
        places = dict.fromkeys(origin[at] for at in range(*match.span(group)))
        return unicodedata.normalize("NFKC", "".join(text[at] for at in places))

    found = []
    for match in _marker_lookalike().finditer(folded):
        opening, closing, token = written(match, "open"), written(match, "close"), written(match, "token")
        if token == token.lower() and not token.isdigit() and _lookalike(opening, closing):
            found.append(match)
    return found


_MARKER_WORD = re.compile(r"page[\s_.-]*data")
"""The marker's word; where it ends is judged as written (`‖/page-data‖` folds to `ll/page-datall`)."""
_MARKER_LEAD = re.compile(r"\s*(?:(?:end|begin|start|close)\s*(?:of\s*)?(?:the\s*)?)?/?\s*\Z")
"""What may stand between a look-alike's opening bracket and its `page-data`: `/`, `end of the`, spaces."""


def _boundary_lookalikes(folded: str, text: str, origin: list[int]) -> list[tuple[int, int]]:
    """(opening, closing or -1) positions in `folded` of each look-alike of a boundary marker: a bracket of any kind
    or a delimiter (delimiters.py: a bar, `‖`, `¦`, `#`; judged as written, which the fold may have made letters:
    `‖` folds to `ll`), then `page-data` (spelt with any separator, `/` or `end of` for the closing one), then up to
    40 characters of the same line and another."""
    def delimits(at: int) -> bool:
        return _is_bracket(folded[at]) or is_delimiter(unicodedata.normalize("NFKC", text[origin[at]])[:1] or " ")

    found = []
    for match in _MARKER_WORD.finditer(folded):
        end = match.end()
        if end < len(folded) and text[origin[end]].isalnum() and origin[end] != origin[end - 1]:
            continue  # `page-database`
        lead = _MARKER_LEAD.search(folded, max(0, match.start() - 24), match.start())
        opening = (lead.start() if lead else match.start()) - 1
        while opening > 0 and origin[opening - 1] == origin[opening]:  # one character folded to several (`‖`: `ll`)
            opening -= 1
        if opening < 0 or not delimits(opening):
            continue
        closing = -1
        for at in range(end, min(len(folded), end + 40)):
            if folded[at] == "\n":
                break
            if delimits(at):
                closing = at
                break
        found.append((opening, closing))
    return found


def _run_of(text: str, at: int, step: int) -> tuple[int, int]:
    """The span of the run of up to 3 delimiters (delimiters.py) at `at`, reaching back (`step` -1, an opening run)
    or on (1, a closing one): `||/page-data||` is defused whole."""
    start = end = at
    while abs(end - start) < 2 and 0 <= end + step < len(text) and is_delimiter(text[end + step]):
        end += step
    return (min(start, end), max(start, end) + 1)


_TAG_RUN = re.compile("\U0001F3F4[\U000E0030-\U000E0039\U000E0061-\U000E007A]{1,7}\U000E007F|[\U000E0020-\U000E007F]+")
HIDDEN = "⟨hidden text: {}⟩"


def _tags_shown(text: str) -> tuple[str, int]:
    """`text` with each run of tag characters that is not a flag emoji's written as the ASCII it spells."""
    count = 0

    def shown(match: re.Match[str]) -> str:
        nonlocal count
        if match.group(0).startswith("\U0001F3F4"):
            return match.group(0)
        count += 1
        return HIDDEN.format("".join(chr(ord(c) - 0xE0000) for c in match.group(0) if c != "\U000E007F"))
    return _TAG_RUN.sub(shown, text), count


@cache
def _odd_bracket() -> re.Pattern[str]:
    """A bracket a marker look-alike needs one of, in the text as written: a doubled square one, or any bracket but
    ASCII's (`(2024)` alone does not start the look-alike search, which needs the text's fold mapped)."""
    odd = "".join(re.escape(chr(code)) for code in _bracket_view() if code > 0x7F)
    return re.compile(rf"\[\[|\]\]|[{odd}]")


def _may_lookalike(text: str) -> bool:
    return _odd_bracket().search(text) is not None


def _may_forge(folded: str, text: str) -> bool:
    """Whether a text (and its fold) holds anything `neutralise` changes (most page text holds none: fast scans)."""
    return (any(bracket in folded for bracket in BOUNDARY_BRACKETS) or _MARKER_WORD.search(folded) is not None
            or _FORGED.search(folded) is not None or _EXCHANGE.search(folded) is not None or _may_lookalike(text) and _marker_lookalike().search(folded) is not None)


def neutralise(text: str) -> tuple[str, int]:
    """Page text with boundary look-alikes and tool-exchange / chat-turn markup defused; how many were defused."""
    if not text:
        return text, 0
    hidden = 0
    if _TAG_RUN.search(text):
        text, hidden = _tags_shown(text)
    delimited = delimited_tokens(text, _DEFUSED["<"] + _DEFUSED[">"])
    if not delimited and not _may_forge(fold(text), text):
        return text, hidden
    folded, origin = fold_mapped(text)
    changes: dict[int, str] = {}
    count = hidden
    for at, char in enumerate(folded):
        if char in BOUNDARY_BRACKETS:
            changes[origin[at]] = BOUNDARY_BRACKETS[char]
            count += 1
    for match in (*_FORGED.finditer(folded), *_EXCHANGE.finditer(folded)):
        count += 1
        for at in range(match.start(), match.end()):
            plain = _DEFUSED.get(folded[at])
            if plain is not None:
                changes[origin[at]] = plain
    for opening, closing in _boundary_lookalikes(folded, text, origin):
        changed = False
        for run, plain in ((_run_of(text, origin[opening], -1), "["), (_run_of(text, origin[closing], 1), "]")):
            if closing < 0 and plain == "]" or text[run[0]:run[1]] == plain:
                continue
            changes.update(dict.fromkeys(range(*run), ""))
            changes[run[0]] = plain
            changed = True
        count += changed
    for match in _token_lookalikes(folded, text, origin):
        count += 1
        for group, plain in (("open", "["), ("close", "]")):
            start, end = match.span(group)
            for at in range(start, end):
                changes[origin[at]] = ""
            changes[origin[start]] = plain  # one plain bracket for the run (a character may fold to two)
    for run_spans in delimited:
        if any(at in changes for start, end in run_spans for at in range(start, end)):
            continue  # a bracket look-alike above has it
        count += 1
        for (start, end), plain in zip(run_spans, "[]", strict=True):
            changes.update(dict.fromkeys(range(start, end), ""))
            changes[start] = plain
    if not changes:
        return text, count
    return "".join(changes.get(index, char) for index, char in enumerate(text)), count
