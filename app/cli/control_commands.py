"""`bua stop`, `bua blocklist`, `bua run`: the user's controls and one agent turn, against the running core."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from app.cli.client import CoreClient, CoreUnavailable
from native_host.paths import bua_home


def _client() -> CoreClient | None:
    try:
        return CoreClient(bua_home())
    except CoreUnavailable as err:
        print(f"bua: {err}", file=sys.stderr)
        return None


def stop(args: argparse.Namespace) -> int:
    client = _client()
    if client is None:
        return 2
    with client:
        reply = client.call("stop", task_id=args.task)
    result = reply["result"]
    scope = f"task {args.task}" if args.task else "everything"
    print(f"stopped {scope}: {len(result['cancelled_tasks'])} running task(s) cancelled, "
          f"{result['settled_requests']} pending request(s) settled, "
          f"{sum(1 for b in result['browsers'] if b.get('ok'))}/{len(result['browsers'])} browser(s) ended sessions")
    return 0


def blocklist(args: argparse.Namespace) -> int:
    client = _client()
    if client is None:
        return 2
    with client:
        reply = client.call("blocklist", action=args.action, entry=args.entry or "")
    if not reply.get("ok"):
        error = reply["error"]
        print(f"bua blocklist: {error['message']}" + (f"\n  next: {error['next_step']}" if error.get("next_step") else ""),
              file=sys.stderr)
        return 1 if reply["error"]["code"] == "not_found" else 2
    entries = reply["result"]["blocklist"]
    print("\n".join(entries) if entries else "(the blocklist is empty)")
    browsers = reply["result"].get("browsers") or []
    if args.action in ("add", "remove"):
        applied = sum(1 for b in browsers if b.get("ok"))
        print(f"now in force in {applied}/{len(browsers)} connected browser(s)"
              + ("" if browsers else "; each browser gets it when its extension connects"), file=sys.stderr)
    return 0


def run(args: argparse.Namespace) -> int:
    client = _client()
    if client is None:
        return 2

    def on_event(kind: str, data: dict[str, Any]) -> None:
        if kind == "text":
            sys.stdout.write(data.get("text", ""))
            sys.stdout.flush()
        elif kind in ("milestone", "subagent_milestone"):
            print(f"  · [{data.get('step')}] {data.get('summary')}", file=sys.stderr, flush=True)

    with client:
        reply = client.call("run", on_event=on_event, prompt=args.prompt, conversation_id=args.conversation)
    print()
    result = reply.get("result") or {}
    usage = result.get("usage") or {}
    print(f"[{result.get('status')}] conversation {result.get('conversation_id')} — main agent: "
          f"{usage.get('calls', 0)} calls, {usage.get('input_tokens', 0) + usage.get('cache_read_input_tokens', 0) + usage.get('cache_creation_input_tokens', 0)} input tokens",
          file=sys.stderr)
    if result.get("error"):
        print(f"bua run: {result['error']}", file=sys.stderr)
    return 0 if reply.get("ok") else 1


def add_parsers(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser("stop", help="Stop all: cancel running tasks, settle pending actions, end every session")
    p.add_argument("--task", default=None, help="stop only this task")
    p.set_defaults(func=stop)
    p = sub.add_parser("blocklist", help="sites the agent may never act on (domain or *.domain)")
    p.add_argument("action", choices=["add", "remove", "list"])
    p.add_argument("entry", nargs="?", help="e.g. bank.example or *.bank.example")
    p.set_defaults(func=blocklist)
    p = sub.add_parser("run", help="one main-agent turn: text to stdout, milestones to stderr")
    p.add_argument("prompt")
    p.add_argument("--conversation", default=None, help="continue this conversation id")
    p.set_defaults(func=run)
