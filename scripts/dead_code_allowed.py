"""Names the dead-code check (vulture, in `make check`) would report, that are used where it cannot see: each says
by whom. A name only tests call does not belong here: remove the code, or say why tests need it in the product.

This file is read by vulture only; it is never imported.
"""

# ruff: noqa: B018
# mypy: ignore-errors

from app.agent import context
from app.agent.page_text import flagger
from app.bridge import bridge, tab_mirror, win_pipe_server
from app.core import background, lanes, sessions
from app.demo.scripted_model import server
from app.protocol import envelope
from app.protocol.safety import LANGUAGES
from app.store import blocklist, db
from app.ui import tray
from installer import registry

context.RuntimeContext.user_id, context.RuntimeContext.sandbox, context.RuntimeContext.workspace  # the fields a
context.RuntimeContext.timezone  # subagent's context may carry over (isolated_from copies them by dataclass fields)
context.Deps.todos, context.Deps.reminders  # the parent state a subagent never inherits (the isolation tests)
flagger.Pattern.lang  # which language a pattern is for, from the data file (the coverage tests count by it)
flagger.flag  # one string flagged alone: `python -m bench flagger` (its false positives and cost per page) and the tests
envelope.ErrorBody.candidates, envelope.ErrorBody.next_step  # pydantic fields: sent and read as JSON
sessions.SessionRow.last_action_type  # a row's field, read through asdict() by the popup and `bua status`
lanes.Lane.answered_ahead  # the e2e test tells a get_tabs bua mcp answered from the push from one the core did
tab_mirror.TabMirror.answered  # the e2e test and `bench mcp` tell a mirrored get_tabs from one the extension answered
bridge.BrowserBridge.pending_tasks  # the e2e tests tell an action in flight from the core's own controls
background.CoreThread  # a core on a thread of its own: the test harness, the benches and scripts/screenshots.py
server.ScriptedModelServer.calls_by  # the offline model's record of who called it: the agent tests read it
blocklist.is_blocked  # the blocklist rule's Python twin, checked against the extension's vectors
db.Store.task_history  # finished tasks kept for the main agent's memory across restarts (tests read it back)
LANGUAGES  # the 20 languages the sensitive words cover, checked against the data file
tray.Tray.open_chat_action, tray.Tray.stop_all_action, tray.Tray.popup_action  # Qt actions kept alive by
tray.Tray.settings_action, tray.Tray.quit_action  # their owner (Qt frees an action nobody holds)
registry.InMemoryRegistry, registry.InMemoryRegistry.create_key  # the Windows registry, on a temporary root
win_pipe_server.RestrictedPipeServer._server_pipe_handle  # asyncio's Windows pipe server calls these overrides
win_pipe_server._accept_pipe_future  # (Windows only: the registry and pipes cannot run here)
