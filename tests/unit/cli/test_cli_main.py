"""The `bua` command line's own answers: --version, -v alone, and the action list in `bua act --help`."""

from __future__ import annotations

import pytest

from app import __version__
from app.cli.main import main
from app.protocol.actions.registry import ACTION_TYPES


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["--version"])
    assert exited.value.code == 0
    assert capsys.readouterr().out.strip() == f"bua {__version__}"


def test_v_alone_says_the_version_instead_of_starting_the_app(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["-v"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"bua {__version__}") and "--verbose" in out


def test_act_help_lists_every_declared_action_and_the_exit_codes(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["act", "--help"])
    out = capsys.readouterr().out
    listed = {line.split()[0] for line in out.split("actions (fields with ? are optional):")[1].splitlines()
              if line.startswith("  ")}
    assert listed == set(ACTION_TYPES)
    assert "2 usage or connection errors" in out
