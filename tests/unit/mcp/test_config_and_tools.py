"""`bua mcp --print-config`, `bua install --mcp` and the tool declarations, without a browser."""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest

from app.mcp import cli as mcp_cli
from app.mcp.config_snippets import CLIENTS, snippet, write_config
from app.mcp.tools import BROWSER, browser_annotations, mcp_tools
from app.protocol.actions import ACTION_SPECS

ROOT = Path(__file__).resolve().parents[3]


def json_of(text: str) -> dict:
    """The JSON part of a snippet (after its one comment line)."""
    return json.loads(text.split("\n", 1)[1])


@pytest.mark.parametrize("client", [c for c in CLIENTS if c != "claude-code"])
def test_json_snippets_start_the_installed_bua_by_absolute_path(client, monkeypatch):
    monkeypatch.delenv("BUA_HOME", raising=False)
    config = json_of(snippet(client))
    entry = (config.get("mcpServers") or config["servers"])["bua"]
    command = Path(entry["command"])
    assert command.is_absolute() and command.exists() and os.access(command, os.X_OK)
    assert entry["args"][-1] == "mcp" and "env" not in entry
    if client == "vscode":
        assert entry["type"] == "stdio"


def test_claude_code_gets_a_command_line_and_bua_home_travels_along(monkeypatch, tmp_path):
    monkeypatch.setenv("BUA_HOME", str(tmp_path / "home"))
    line = snippet("claude-code").splitlines()[-1]
    assert line.startswith("claude mcp add bua --env BUA_HOME=") and line.endswith(" mcp")
    assert json_of(snippet("cursor"))["mcpServers"]["bua"]["env"] == {"BUA_HOME": str(tmp_path / "home")}


@pytest.mark.parametrize("client", CLIENTS)
def test_uvx_form_starts_bua_from_the_package_index(client, monkeypatch):
    monkeypatch.delenv("BUA_HOME", raising=False)
    text = snippet(client, "uvx")
    if client == "claude-code":
        assert text.splitlines()[-1] == "claude mcp add bua -- uvx --from bua-browser bua mcp"
        return
    config = json_of(text)
    entry = (config.get("mcpServers") or config["servers"])["bua"]
    assert [entry["command"], *entry["args"]] == ["uvx", "--from", "bua-browser", "bua", "mcp"]


def test_unknown_way_to_start_names_the_valid_ones():
    with pytest.raises(ValueError, match="path, uvx"):
        snippet("cursor", "npx")


def test_print_config_from_the_command_line(tmp_path):
    result = subprocess.run([sys.executable, "-m", "app", "mcp", "--print-config", "claude-desktop"], cwd=ROOT,
                            capture_output=True, text=True, timeout=60, env=dict(os.environ, BUA_HOME=str(tmp_path)))
    assert result.returncode == 0 and json.loads(result.stdout)["mcpServers"]["bua"]["args"][-1] == "mcp", \
        "stdout is the config alone (valid JSON to redirect into the file); the hint goes to stderr"
    assert "Merge into" in result.stderr
    wrong = subprocess.run([sys.executable, "-m", "app", "mcp", "--print-config", "emacs"], cwd=ROOT,
                           capture_output=True, text=True, timeout=60)
    assert wrong.returncode == 2 and "claude-code" in wrong.stderr, "bad input names the valid values"


def test_install_mcp_merges_into_the_clients_config_and_keeps_the_rest(tmp_path):
    path = tmp_path / "claude_desktop_config.json"
    path.write_text(json.dumps({"mcpServers": {"other": {"command": "x"}}, "theme": "dark"}))
    write_config("claude-desktop", path)
    config = json.loads(path.read_text())
    assert config["theme"] == "dark" and config["mcpServers"]["other"] == {"command": "x"}
    assert config["mcpServers"]["bua"]["args"][-1] == "mcp"
    path.write_text("{not json")
    with pytest.raises(ValueError, match="not valid JSON"):
        write_config("claude-desktop", path)
    assert path.read_text() == "{not json", "a config bua cannot read is left as it was"


def test_bua_install_mcp_writes_after_the_host_registration(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setattr("sys.platform", "linux")
    ran: list[str] = []
    run = mcp_cli.with_mcp_config(lambda args: ran.append("host") or 0)
    assert run(argparse.Namespace(mcp="claude-desktop")) == 0
    written = tmp_path / "config" / "Claude" / "claude_desktop_config.json"
    assert ran == ["host"] and json.loads(written.read_text())["mcpServers"]["bua"]
    assert str(written) in capsys.readouterr().out


def test_tools_have_object_schemas_and_annotations_folded_from_the_declarations():
    tools = {t.name: t for t in mcp_tools()}
    for tool in tools.values():
        jsonschema.Draft202012Validator.check_schema(tool.input_schema)
    hints = browser_annotations()
    specs = list(ACTION_SPECS.values())
    assert hints.read_only_hint is all(s.read_only for s in specs) is False
    assert hints.destructive_hint is any(s.may_be_sensitive for s in specs) is True
    assert hints.open_world_hint is any(s.may_navigate for s in specs) is True
    assert tools[BROWSER].annotations == hints


def test_the_tab_group_is_named_as_the_person_knows_the_client():
    from mcp_types import Implementation

    from app.mcp.server import label_for

    assert label_for(Implementation(name="claude-code", version="2")) == "Claude Code"
    assert label_for(Implementation(name="claude-ai", version="1")) == "Claude Desktop"
    assert label_for(Implementation(name="my-agent", version="1")) == "my-agent"
    assert label_for(Implementation(name="x", title="Shiny Agent", version="1")) == "Shiny Agent"
    assert label_for(None) == "MCP client"
