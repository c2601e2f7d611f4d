#!/usr/bin/env python3
"""Records a Prometheus' answers to one netdoctor run, then serves them again (issue 20).

On the benchmark machine netdoctor and Prometheus share two cores, so the wall time of
`diagnose --prometheus` mixes both programs' work. Replaying the recorded answers takes
Prometheus' work out: what is left is netdoctor's own end-to-end time, as it would be against a
Prometheus on a machine of its own.

  prometheus_replay.py record UPSTREAM_URL DIR PORT_FILE   # proxy; answers kept in DIR at exit
  prometheus_replay.py replay DIR PORT_FILE                # serves DIR's answers; 404 otherwise

Both listen on 127.0.0.1 on a free port, written to PORT_FILE once listening; SIGTERM stops them.
Answers are fetched and served without compression (the same bytes a loopback client inflates).
"""
import hashlib
import http.server
import json
import os
import signal
import sys
import urllib.error
import urllib.request


def key_of(method, path, body):
    return hashlib.sha256(method.encode() + b"\0" + path.encode() + b"\0" + body).hexdigest()


class Recorded:
    def __init__(self, directory):
        self.directory = directory
        self.index = {}
        index_file = os.path.join(directory, "index.json")
        if os.path.exists(index_file):
            with open(index_file) as f:
                self.index = json.load(f)
        self.bodies = {}
        for key, (status, content_type) in self.index.items():
            with open(os.path.join(directory, key), "rb") as f:
                self.bodies[key] = (status, content_type, f.read())

    def keep(self, key, status, content_type, body):
        self.bodies[key] = (status, content_type, body)
        with open(os.path.join(self.directory, key), "wb") as f:
            f.write(body)
        self.index[key] = (status, content_type)

    def save(self):
        with open(os.path.join(self.directory, "index.json"), "w") as f:
            json.dump(self.index, f)


def handler_for(mode, upstream, recorded):
    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args):
            pass

        def answer(self, status, content_type, body):
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def handle_any(self, method):
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length else b""
            key = key_of(method, self.path, body)
            if mode == "replay":
                kept = recorded.bodies.get(key)
                if kept is None:
                    self.answer(404, "text/plain", b"not recorded\n")
                else:
                    self.answer(*kept)
                return
            request = urllib.request.Request(upstream + self.path, data=body or None, method=method)
            if self.headers.get("Content-Type"):
                request.add_header("Content-Type", self.headers["Content-Type"])
            try:
                with urllib.request.urlopen(request, timeout=600) as reply:
                    status, content_type, data = reply.status, reply.headers.get(
                        "Content-Type", "application/json"), reply.read()
            except urllib.error.HTTPError as refused:
                status, content_type, data = refused.code, refused.headers.get(
                    "Content-Type", "application/json"), refused.read()
            recorded.keep(key, status, content_type, data)
            self.answer(status, content_type, data)

        def do_GET(self):
            self.handle_any("GET")

        def do_POST(self):
            self.handle_any("POST")

    return Handler


def stop_serving(*_):
    raise KeyboardInterrupt  # serve_forever() returns through it, on the main thread


def main(argv):
    if len(argv) == 5 and argv[1] == "record":
        mode, upstream, directory, port_file = "record", argv[2].rstrip("/"), argv[3], argv[4]
    elif len(argv) == 4 and argv[1] == "replay":
        mode, upstream, directory, port_file = "replay", None, argv[2], argv[3]
    else:
        sys.stderr.write(__doc__)
        return 2
    os.makedirs(directory, exist_ok=True)
    recorded = Recorded(directory)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0),
                                             handler_for(mode, upstream, recorded))
    signal.signal(signal.SIGTERM, stop_serving)
    with open(port_file + ".tmp", "w") as f:
        f.write(str(server.server_address[1]))
    os.replace(port_file + ".tmp", port_file)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    if mode == "record":
        recorded.save()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
