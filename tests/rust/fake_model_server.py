#!/usr/bin/env python3
"""Fake model server for tests/rust/test_http_client.cpp (standard library only).

Listens on 127.0.0.1 on a free port, prints the port as the first line of
stdout (flushed) and serves until killed.

Endpoints (POST, JSON body): /v1/completions, /v1/chat/completions, /infill.

Behaviour selection, first match wins:
  1. a path prefix /b/<behaviour>/..., e.g. POST /b/slow/infill; a client gets
     it with base_url = http://127.0.0.1:<port>/b/slow (works for every
     endpoint, and is the way to choose one for /infill);
  2. the request's "model" field (completions and chat);
  3. "echo".

Behaviours:
  echo             normal answer. completions: choice i's text is
                   "<last line of prompt>|i=<i>|seed=<seed or none>"; chat:
                   "<system>|<last line of user>|i=<i>|seed=<seed>"; choices
                   are listed in reverse index order (clients must sort by
                   index); usage.completion_tokens = 7 per choice.
                   /infill: content "<last line of prefix><FILL><first line of
                   suffix>|seed=<seed>", tokens_predicted = 5, stop_type "eos".
  fewer            like echo but only 1 choice whatever n.
  fail-twice-503   the first two calls answer 503, then echo.
  always-500       always 500 with {"error": "internal boom"}.
  429-retry-after  the first call answers 429 with "Retry-After: 1", then echo.
  429-retry-after-30  the same with "Retry-After: 30".
  null-stops       echo, but /infill's stop_type and stopped_* fields are null.
  slow             sleeps 3 s, then echo.
  malformed        200 with broken JSON.
  not-object       200 with a JSON array.
  missing-choices  200 with an object without "choices".
  bad-request      400 with an OpenAI-style error object.
  chat-codeblock   echo, but the text is prose plus a ```text block and then a
                   ```rust block.

Counters are per behaviour. Every request to an endpoint above is recorded as
{"method", "path", "behaviour", "headers": {"authorization", "content-type"},
"body"}; GET (or POST) /_requests answers {"requests": [...]}, POST /_reset
clears the records and counters.
"""

import json
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

LOCK = threading.Lock()
REQUESTS = []
COUNTERS = {}

CODEBLOCK_REPLY = (
    "Here is an example input:\n"
    "```text\n"
    "not the code\n"
    "```\n"
    "And the solution:\n"
    "```rust\n"
    "fn add(a: i32, b: i32) -> i32 {\n"
    "    a + b\n"
    "}\n"
    "```\n"
    "Hope this helps."
)


def last_line(s):
    lines = str(s).rstrip("\n").split("\n")
    return lines[-1] if lines else ""


def first_line(s):
    return str(s).split("\n")[0]


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive, as real servers do

    def log_message(self, fmt, *args):  # keep test output quiet
        pass

    def send_json(self, status, obj=None, raw=None, headers=None):
        data = raw.encode() if raw is not None else json.dumps(obj).encode()
        try:
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            for k, v in (headers or {}).items():
                self.send_header(k, v)
            self.end_headers()
            self.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client gave up (timeout test)

    def do_GET(self):
        if self.path == "/_requests":
            with LOCK:
                self.send_json(200, {"requests": list(REQUESTS)})
        else:
            self.send_json(404, {"error": "not found"})

    def do_POST(self):
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        if self.path == "/_requests":
            return self.do_GET()
        if self.path == "/_reset":
            with LOCK:
                REQUESTS.clear()
                COUNTERS.clear()
            return self.send_json(200, {})

        path = self.path
        behaviour = None
        if path.startswith("/b/"):
            name, _, rest = path[len("/b/"):].partition("/")
            behaviour, path = name, "/" + rest
        try:
            body = json.loads(raw.decode("utf-8")) if raw else None
        except ValueError:
            body = None
        if behaviour is None:
            model = body.get("model") if isinstance(body, dict) else None
            behaviour = model if isinstance(model, str) and model else "echo"

        with LOCK:
            REQUESTS.append({
                "method": "POST",
                "path": path,
                "behaviour": behaviour,
                "headers": {
                    "authorization": self.headers.get("Authorization"),
                    "content-type": self.headers.get("Content-Type"),
                },
                "body": body,
            })
            count = COUNTERS.get(behaviour, 0) + 1
            COUNTERS[behaviour] = count

        if path not in ("/v1/completions", "/v1/chat/completions", "/infill"):
            return self.send_json(404, {"error": "no such endpoint " + path})
        if not isinstance(body, dict):
            return self.send_json(400, {"error": {"message": "body is not a JSON object"}})

        if behaviour == "fail-twice-503" and count <= 2:
            return self.send_json(503, {"error": "overloaded, try again"})
        if behaviour == "always-500":
            return self.send_json(500, {"error": "internal boom"})
        if behaviour == "429-retry-after" and count == 1:
            return self.send_json(429, {"error": "rate limited"}, headers={"Retry-After": "1"})
        if behaviour == "429-retry-after-30" and count == 1:
            return self.send_json(429, {"error": "rate limited"}, headers={"Retry-After": "30"})
        if behaviour == "slow":
            time.sleep(3)
        if behaviour == "malformed":
            return self.send_json(200, raw='{"choices": [{"text": "trunc')
        if behaviour == "not-object":
            return self.send_json(200, [1, 2, 3])
        if behaviour == "missing-choices":
            return self.send_json(200, {"id": "cmpl-1", "object": "text_completion"})
        if behaviour == "bad-request":
            return self.send_json(400, {"error": {"message": "prompt is too long for this model",
                                                  "type": "invalid_request_error"}})

        seed = body.get("seed", "none")
        if path == "/infill":
            text = "%s<FILL>%s|seed=%s" % (last_line(body.get("input_prefix", "")),
                                           first_line(body.get("input_suffix", "")), seed)
            if behaviour == "null-stops":
                return self.send_json(200, {"content": text, "tokens_predicted": 5, "stop_type": None,
                                            "stopped_eos": None, "stopped_limit": None, "stopped_word": None})
            return self.send_json(200, {"content": text, "tokens_predicted": 5,
                                        "stop_type": "eos", "stopped_eos": True})

        n = body.get("n", 1)
        if not isinstance(n, int) or n < 1:
            n = 1
        if behaviour == "fewer":
            n = 1
        choices = []
        for i in range(n):
            if path == "/v1/completions":
                text = "%s|i=%d|seed=%s" % (last_line(body.get("prompt", "")), i, seed)
                choices.append({"index": i, "text": text, "finish_reason": "stop"})
            else:
                msgs = body.get("messages") or []
                system = next((m.get("content", "") for m in msgs if m.get("role") == "system"), "")
                user = next((m.get("content", "") for m in msgs if m.get("role") == "user"), "")
                if behaviour == "chat-codeblock":
                    text = CODEBLOCK_REPLY
                else:
                    text = "%s|%s|i=%d|seed=%s" % (system, last_line(user), i, seed)
                choices.append({"index": i, "finish_reason": "stop",
                                "message": {"role": "assistant", "content": text}})
        choices.reverse()
        self.send_json(200, {"id": "cmpl-fake", "object": "text_completion", "choices": choices,
                             "usage": {"prompt_tokens": 3, "completion_tokens": 7 * n,
                                       "total_tokens": 3 + 7 * n}})


def main():
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    print(server.server_address[1], flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
