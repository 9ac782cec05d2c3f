"""HTTP server speaking POST /v1/messages like the Anthropic API (JSON or SSE streaming)."""

from __future__ import annotations

import collections
import itertools
import json
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Callable

from app.demo.scripted_model.cache_sim import CacheSimulator, tokens


@dataclass
class Reply:
    content: list[dict[str, Any]]
    stop_reason: str = "end_turn"


@dataclass
class Fault:
    """An error the server answers instead of a reply (status, error type, headers)."""
    status: int
    error_type: str
    message: str = "scripted fault"
    headers: dict[str, str] = field(default_factory=dict)


@dataclass
class CallRecord:
    role: str
    model: str
    prompt_chars: int
    usage: dict[str, int]
    tools: list[str]
    body: dict[str, Any]


Policy = Callable[[dict[str, Any]], Reply]


def role_of(body: dict[str, Any]) -> str:
    names = {t.get("name") for t in body.get("tools") or []}
    return "subagent" if "complete" in names else "main"


class ScriptedModelServer:
    def __init__(self, policy: Policy, reply_delay_s: float = 0.0) -> None:
        self.policy = policy
        self.reply_delay_s = reply_delay_s
        self.stall_after_text_s = 0.0
        """A pause after each text block of a streamed reply (a model still writing its tool call)."""
        self.faults: collections.deque[Fault] = collections.deque()
        self.calls: list[CallRecord] = []
        self.cache = CacheSimulator()
        self._lock = threading.Lock()
        self._ids = itertools.count(1)
        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self.httpd.daemon_threads = True
        self.base_url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self._thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()

    def calls_by(self, role: str) -> list[CallRecord]:
        return [c for c in self.calls if c.role == role]

    def _answer(self, body: dict[str, Any]) -> tuple[Fault | None, dict[str, Any] | None]:
        with self._lock:
            if self.faults:
                return self.faults.popleft(), None
            usage = self.cache.account(body)
        reply = self.policy(body)
        message_id = f"msg_{next(self._ids):04d}"
        out_chars = len(json.dumps(reply.content))
        usage_out = {k: v for k, v in usage.items() if k != "prompt_chars"} | {"output_tokens": tokens(out_chars)}
        with self._lock:
            self.calls.append(CallRecord(role_of(body), body.get("model", ""), usage["prompt_chars"], usage_out,
                                         [t.get("name") for t in body.get("tools") or []], body))
        return None, {"id": message_id, "type": "message", "role": "assistant", "model": body.get("model", ""),
                      "content": reply.content, "stop_reason": reply.stop_reason, "stop_sequence": None,
                      "usage": usage_out}

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, _format: str, *_args: object) -> None:
                pass

            def do_POST(self) -> None:
                if not self.path.startswith("/v1/messages"):
                    self._json(404, {"type": "error", "error": {"type": "not_found_error", "message": self.path}})
                    return
                body = json.loads(self.rfile.read(int(self.headers.get("content-length", 0))) or b"{}")
                if server.reply_delay_s:
                    time.sleep(server.reply_delay_s)
                fault, message = server._answer(body)
                if fault is not None:
                    self._json(fault.status, {"type": "error", "error": {"type": fault.error_type,
                                                                         "message": fault.message}}, fault.headers)
                elif message is None:
                    self._json(500, {"type": "error", "error": {"type": "api_error", "message": "no reply scripted"}})
                elif body.get("stream"):
                    self._stream(message)
                else:
                    self._json(200, message)

            def _json(self, status: int, payload: dict[str, Any], headers: dict[str, str] | None = None) -> None:
                data = json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(data)))
                for key, value in (headers or {}).items():
                    self.send_header(key, value)
                self.end_headers()
                self.wfile.write(data)

            def _stream(self, message: dict[str, Any]) -> None:
                self.send_response(200)
                self.send_header("content-type", "text/event-stream")
                self.send_header("connection", "close")
                self.end_headers()
                try:
                    for event in stream_events(message):
                        self.wfile.write(f"event: {event['type']}\ndata: {json.dumps(event)}\n\n".encode())
                        self.wfile.flush()
                        if (event["type"] == "content_block_stop" and server.stall_after_text_s
                                and message["content"][event["index"]]["type"] == "text"):
                            time.sleep(server.stall_after_text_s)
                except (BrokenPipeError, ConnectionResetError):
                    pass
                self.close_connection = True

        return Handler


def stream_events(message: dict[str, Any]) -> list[dict[str, Any]]:
    """The SSE event sequence of the real API for one message."""
    usage = message["usage"]
    start = {**message, "content": [], "stop_reason": None, "usage": {**usage, "output_tokens": 1}}
    events: list[dict[str, Any]] = [{"type": "message_start", "message": start}]
    for index, block in enumerate(message["content"]):
        if block["type"] == "text":
            events.append({"type": "content_block_start", "index": index, "content_block": {"type": "text", "text": ""}})
            text = block["text"]
            for i in range(0, len(text), 40):
                events.append({"type": "content_block_delta", "index": index,
                               "delta": {"type": "text_delta", "text": text[i:i + 40]}})
        else:
            events.append({"type": "content_block_start", "index": index,
                           "content_block": {"type": "tool_use", "id": block["id"], "name": block["name"], "input": {}}})
            raw = json.dumps(block["input"])
            for i in range(0, len(raw), 64):
                events.append({"type": "content_block_delta", "index": index,
                               "delta": {"type": "input_json_delta", "partial_json": raw[i:i + 64]}})
        events.append({"type": "content_block_stop", "index": index})
    events.append({"type": "message_delta", "delta": {"stop_reason": message["stop_reason"], "stop_sequence": None},
                   "usage": {"output_tokens": usage["output_tokens"]}})
    events.append({"type": "message_stop"})
    return events
