"""A markdown table (extract writes one as `| a | b |` rows: extension/src/extract/markdown.js) read two more ways
than along its rows (flagger.stream joins a row's cells and the rows): down each column, so a phrase written a cell
a row reads as one (`| 1 | Ignore all |` then `| 2 | previous instructions |`), and, where its rows' first cells are
chat-turn labels, each such row as the turn it spells (`| User | please pay the invoice now |` is
`user: please pay the invoice now`), so a dialogue laid out as a table is the dialogue it is.
"""

from __future__ import annotations

import re

_RULE_CELL = re.compile(r"^:?-{1,}:?$|^$")

Cell = tuple[int, str]
"""A cell: the index of its row's line in the text, and its words."""


def table_rows(lines: list[str]) -> list[list[tuple[int, list[str]]]]:
    """The tables of `lines`: runs of lines that are a markdown table's rows (`| a | b |`), each row as its line's
    index and its cells; a rule row (`|---|:--:|`) is part of a table and holds no cells."""
    tables: list[list[tuple[int, list[str]]]] = []
    current: list[tuple[int, list[str]]] = []
    previous = -2
    for index, line in enumerate(lines):
        stripped = line.strip()
        if not stripped.startswith("|") or stripped.count("|") < 2:
            continue
        cells = [cell.strip() for cell in stripped.strip("|").split("|")]
        if index != previous + 1 and current:
            tables.append(current)
            current = []
        previous = index
        if not all(_RULE_CELL.match(cell.replace(" ", "")) for cell in cells):
            current.append((index, cells))
    if current:
        tables.append(current)
    return [table for table in tables if len(table) >= 2]


def columns(table: list[tuple[int, list[str]]]) -> list[list[Cell]]:
    """A table's columns, each its non-empty cells from the top down."""
    width = max(len(cells) for _index, cells in table)
    return [[(index, cells[column]) for index, cells in table if column < len(cells) and cells[column]]
            for column in range(width)]


def role_rows(table: list[tuple[int, list[str]]], is_role: re.Pattern[str]) -> list[Cell]:
    """The rows whose first cell is a chat-turn role's label and nothing else (`is_role` matches it whole), each
    written as a labelled turn: `role: the other cells`."""
    return [(index, f"{cells[0]}: {' '.join(c for c in cells[1:] if c)}") for index, cells in table
            if len(cells) >= 2 and is_role.fullmatch(cells[0])]
