#!/usr/bin/env python3
"""Thread count and answer times of a fleet-server jar during a Redis outage and during 300 unfinished requests.
usage: measure.py JAR LABEL"""
import os, socket, subprocess, sys, time, json, threading, urllib.request, statistics
JAR, LABEL = sys.argv[1], sys.argv[2]
RPORT, PORT = 16379, 18080
def threads(pid): return len(os.listdir(f"/proc/{pid}/task"))
def req(method, path, body=None, timeout=120):
    t0 = time.monotonic()
    r = urllib.request.Request(f"http://127.0.0.1:{PORT}{path}", data=body.encode() if body else None, method=method)
    try:
        with urllib.request.urlopen(r, timeout=timeout) as resp: code = resp.status
    except urllib.error.HTTPError as e: code = e.code
    except Exception as e: code = type(e).__name__
    return code, time.monotonic() - t0
redis = subprocess.Popen([os.environ.get("REDIS_SERVER", "redis-server"), "--port", str(RPORT), "--save", "", "--appendonly", "no"], stdout=subprocess.DEVNULL)
time.sleep(0.5)
# No authentication: a local measurement (the server warns about it every minute).
svc = subprocess.Popen(["java", "-jar", JAR, "--port", str(PORT), "--redis-uri", f"redis://127.0.0.1:{RPORT}", "--insecure-no-auth"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
for line in svc.stdout:
    if "listening" in line: break
pid = svc.pid
print(f"[{LABEL}] threads at rest: {threads(pid)}")
print(f"[{LABEL}] create:", req("POST", "/scheduler", "name: pong\ngame: pong\nimage: pong:1\nautoscaling:\n  min: 1\n"))
# Only a room the service created may report: take its name from the room list.
ROOM = None
while ROOM is None:
    with urllib.request.urlopen(f"http://127.0.0.1:{PORT}/scheduler/pong/rooms?page=1", timeout=30) as resp:
        listed = json.load(resp)["rooms"]
    ROOM = listed[0]["id"] if listed else None
    time.sleep(0.2)
now = int(time.time())
print(f"[{LABEL}] ping with Redis up:", req("PUT", f"/scheduler/pong/rooms/{ROOM}/ping", json.dumps({"timestamp": now, "status": "ready"})))
# --- 300 unfinished requests
socks = []
for i in range(300):
    s = socket.create_connection(("127.0.0.1", PORT))
    s.sendall(f"PUT /scheduler/pong/rooms/{ROOM}/ping HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{{\"time".encode())
    socks.append(s)
time.sleep(5)
peak = threads(pid)
hc = req("GET", "/healthcheck", timeout=90)
print(f"[{LABEL}] 300 half-sent requests: JVM threads 5 s in: {peak}; /healthcheck {hc[0]} in {hc[1]:.3f}s")
for s in socks: s.close()
time.sleep(3)
print(f"[{LABEL}] threads 3 s after the sockets closed: {threads(pid)}")
# --- Redis outage
redis.kill(); redis.wait()
time.sleep(0.5)
results = []
def one(i):
    results.append(req("PUT", f"/scheduler/pong/rooms/{ROOM}/ping", json.dumps({"timestamp": int(time.time()), "status": "ready"}), timeout=90))
ts = [threading.Thread(target=one, args=(i,)) for i in range(300)]
t0 = time.monotonic()
for t in ts: t.start()
time.sleep(5)
peak = threads(pid)
hc = req("GET", "/healthcheck", timeout=90)
for t in ts: t.join()
times = sorted(r[1] for r in results)
codes = {}
for c, _ in results: codes[c] = codes.get(c, 0) + 1
print(f"[{LABEL}] Redis down, 300 concurrent pings: answers {codes}, time p50 {statistics.median(times):.2f}s max {times[-1]:.2f}s; JVM threads 5 s in: {peak}; /healthcheck {hc[0]} after {hc[1]:.2f}s; all done after {time.monotonic()-t0:.1f}s")
redis = subprocess.Popen([os.environ.get("REDIS_SERVER", "redis-server"), "--port", str(RPORT), "--save", "", "--appendonly", "no"], stdout=subprocess.DEVNULL)
t0 = time.monotonic()
while True:
    c, _ = req("PUT", f"/scheduler/pong/rooms/{ROOM}/ping", json.dumps({"timestamp": int(time.time()), "status": "ready"}), timeout=90)
    if c == 200 or time.monotonic() - t0 > 120: break
    time.sleep(0.2)
print(f"[{LABEL}] Redis back: ping {c} after {time.monotonic()-t0:.1f}s")
time.sleep(2)
print(f"[{LABEL}] threads after recovery: {threads(pid)}")
svc.terminate(); svc.wait(timeout=60); redis.kill()
print(f"[{LABEL}] exit status on SIGTERM: {svc.returncode}")
