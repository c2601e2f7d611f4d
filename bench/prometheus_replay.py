#!/usr/bin/env python3
"""Records a Prometheus' answers to one netdoctor run, then serves them again (issue 20).

On the benchmark machine netdoctor and Prometheus share two cores, so the wall time of
`diagnose --prometheus` mixes both programs' work. Replaying the recorded answers takes
Prometheus' work out: what is left is netdoctor's own end-to-end time, as it would be against a
Prometheus on a machine of its own.

The third mode takes netdoctor out instead: it asks Prometheus the recorded requests again, as
netdoctor does (two at a time, gzip accepted), and only reads the bytes; what Prometheus spends
then is the server's own share of the run.

  prometheus_replay.py record UPSTREAM_URL DIR PORT_FILE   # proxy; answers kept in DIR at exit
  prometheus_replay.py replay DIR PORT_FILE                # serves DIR's answers; 404 otherwise
  prometheus_replay.py ask UPSTREAM_URL DIR                # prints the seconds the asking took

The first two listen on 127.0.0.1 on a free port, written to PORT_FILE once listening; SIGTERM
stops them. Answers are fetched and served without compression (the same bytes a loopback client
inflates).
"""
import base64
import concurrent.futures
import hashlib
import http.server
import json
import os
import signal
import sys
import threading
import time
import urllib.error
import urllib.request

IN_FLIGHT = 2  # PrometheusRequest::queries_in_flight's default


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
        self.requests = []  # (method, path, content type, body) in the order they came
        self.lock = threading.Lock()
        self.bodies = {}
        for key, (status, content_type) in self.index.items():
            with open(os.path.join(directory, key), "rb") as f:
                self.bodies[key] = (status, content_type, f.read())

    def keep(self, key, status, content_type, body, request):
        with self.lock:
            self.bodies[key] = (status, content_type, body)
            with open(os.path.join(self.directory, key), "wb") as f:
                f.write(body)
            self.index[key] = (status, content_type)
            self.requests.append(request)

    def save(self):
        with open(os.path.join(self.directory, "index.json"), "w") as f:
            json.dump(self.index, f)
        with open(os.path.join(self.directory, "requests.json"), "w") as f:
            json.dump([[method, path, content_type, base64.b64encode(body).decode()]
                       for method, path, content_type, body in self.requests], f)


def ask(upstream, directory):
    """Sends DIR's recorded requests to UPSTREAM as netdoctor did; the seconds it took."""
    with open(os.path.join(directory, "requests.json")) as f:
        requests = json.load(f)

    def one(recorded):
        method, path, content_type, body = recorded
        request = urllib.request.Request(upstream + path, data=base64.b64decode(body) or None,
                                         method=method)
        request.add_header("Accept-Encoding", "gzip")
        if content_type:
            request.add_header("Content-Type", content_type)
        try:
            with urllib.request.urlopen(request, timeout=600) as reply:
                while reply.read(1 << 20):
                    pass
        except urllib.error.HTTPError:
            pass  # a refusal is an answer too

    started = time.monotonic()
    with concurrent.futures.ThreadPoolExecutor(IN_FLIGHT) as pool:
        list(pool.map(one, requests))
    return time.monotonic() - started


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
            recorded.keep(key, status, content_type, data,
                          (method, self.path, self.headers.get("Content-Type"), body))
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
    elif len(argv) == 4 and argv[1] == "ask":
        print(f"{ask(argv[2].rstrip('/'), argv[3]):.2f}")
        return 0
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
