#!/usr/bin/python3
"""Hostile clients against `mancala serve`, on loopback only, each bounded in bytes and time.

Usage: scripts/bench-serve/attacks.py MANCALA [ATTACK...]

Each attack starts a fresh server (`MANCALA serve --port 0`, no tables) and prints the server's
peak memory (VmHWM) before and after it, and how a normal request (GET /api/v1/games on a new
connection, 15 s at most) fares during or after it. Attacks (default: all):
  slowN      N clients each sending a header byte a second, --http-threads 2 (slow48, slow64)
  defslowN   the same with the default connection threads (defslow200)
  flood_big  one request with up to 40 000 headers of 8 KB (320 MB offered)
  flood_small one request with up to a million headers of 8 bytes
  line       a request line of up to 100 MiB without a newline
  chunked    a chunked body of 50 chunks of 1 MiB
  refused_body 30 MiB sent after the head of a POST without a length (refused with 411)
  ranges     a Range of 2700 parts of app.js (the reply's size is printed)
"""
import re
import socket
import subprocess
import sys
import tempfile
import threading
import time

ALL = ["slow48", "slow64", "defslow200", "flood_big", "flood_small", "line", "chunked",
       "refused_body", "ranges"]


def start(binary, db, *extra):
    server = subprocess.Popen([binary, "serve", "--port", "0", "--db", db, *extra],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    port = int(re.search(r":(\d+)/", server.stdout.readline()).group(1))
    time.sleep(0.2)
    return server, port


def memory_mb(server, field):
    with open(f"/proc/{server.pid}/status") as status:
        for line in status:
            if line.startswith(field):
                return int(line.split()[1]) // 1024
    return -1


def stop(server):
    """SIGTERM; the seconds until the server exited."""
    start = time.time()
    server.terminate()
    try:
        server.wait(10)
    except subprocess.TimeoutExpired:
        server.kill()
        server.wait()
    return time.time() - start


def normal_request(port, timeout=15):
    """(milliseconds, status line start) of one GET on a new connection, or (None, 'timeout')."""
    s = socket.create_connection(("127.0.0.1", port), timeout=timeout)
    start = time.time()
    try:
        s.sendall(f"GET /api/v1/games HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                  "Connection: close\r\n\r\n".encode())
        data = s.recv(100)
        return round((time.time() - start) * 1000, 1), data[:12].decode(errors="replace")
    except socket.timeout:
        return None, "timeout"
    finally:
        s.close()


def flood(port, head, piece, limit, timeout=20):
    """Sends head, then piece until limit bytes or until a reply comes; (bytes sent, reply)."""
    s = socket.create_connection(("127.0.0.1", port), timeout=timeout)
    reply = []

    def read():
        try:
            reply.append(s.recv(200))
        except OSError as e:
            reply.append(repr(e).encode())

    reader = threading.Thread(target=read)
    reader.start()
    sent = 0
    try:
        s.sendall(head)
        while sent < limit and reader.is_alive():
            s.sendall(piece)
            sent += len(piece)
    except OSError:
        pass
    reader.join(timeout)
    s.close()
    return sent, (reply[0][:40] if reply else b"")


def slow_clients(binary, db, attack):
    count = int(attack.split("slow")[1])
    server, port = start(binary, db, *(["--http-threads", "2"] if attack.startswith("slow") else []))
    before = memory_mb(server, "VmHWM")
    clients = []
    for _ in range(count):
        s = socket.create_connection(("127.0.0.1", port))
        s.setblocking(False)
        s.send(b"GET /api/v1/games HTTP/1.1\r\nX-Slow: ")
        clients.append(s)
    sending = True

    def trickle():
        while sending:
            for s in clients:
                try:
                    s.send(b"a")
                except OSError:
                    pass
            time.sleep(1)

    trickler = threading.Thread(target=trickle)
    trickler.start()
    time.sleep(1)
    latencies = [normal_request(port) for _ in range(5)]
    peak = memory_mb(server, "VmHWM")
    took = stop(server)
    sending = False
    trickler.join()
    for s in clients:
        s.close()
    print(f"{attack}: normal requests {latencies}; server peak {before} -> {peak} MB; "
          f"SIGTERM to exit {took:.2f} s", flush=True)


def one_request(binary, db, attack):
    server, port = start(binary, db)
    before = memory_mb(server, "VmHWM")
    host = f"Host: 127.0.0.1:{port}\r\n".encode()
    games = b"GET /api/v1/games HTTP/1.1\r\n" + host
    post = b"POST /api/v1/record/parse HTTP/1.1\r\n" + host + b"Content-Type: application/json\r\n"
    if attack == "flood_big":
        sent, reply = flood(port, games, b"X-Flood: " + b"a" * 8192 + b"\r\n", 40000 * 8203)
    elif attack == "flood_small":
        sent, reply = flood(port, games, b"X-A: b\r\n" * 1000, 1000000 * 8)
    elif attack == "line":
        sent, reply = flood(port, b"GET /", b"a" * 65536, 100 << 20)
    elif attack == "chunked":
        sent, reply = flood(port, post + b"Transfer-Encoding: chunked\r\n\r\n",
                            b"100000\r\n" + b" " * (1 << 20) + b"\r\n", 50 << 20)
    elif attack == "refused_body":
        sent, reply = flood(port, post + b"\r\n", b"a" * 65536, 30 << 20)
    elif attack == "ranges":
        s = socket.create_connection(("127.0.0.1", port), timeout=20)
        s.sendall(b"GET /app.js HTTP/1.1\r\n" + host + b"Connection: close\r\nRange: bytes=0-" +
                  b",0-" * 2699 + b"\r\n\r\n")
        sent, reply = 0, b""
        while data := s.recv(1 << 16):
            reply = reply or data[:40]
            sent += len(data)  # here: the bytes of the reply
        s.close()
    else:
        sys.exit(f"no such attack: {attack}")
    time.sleep(0.5)
    peak, now = memory_mb(server, "VmHWM"), memory_mb(server, "VmRSS")
    after = normal_request(port)
    stop(server)
    print(f"{attack}: {sent} bytes, reply {reply!r}; server peak {before} -> {peak} MB "
          f"(resident after: {now} MB); then a normal request: {after}", flush=True)


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    binary = sys.argv[1]
    with tempfile.TemporaryDirectory() as db:
        for attack in sys.argv[2:] or ALL:
            (slow_clients if "slow" in attack else one_request)(binary, db, attack)


if __name__ == "__main__":
    main()
