#!/usr/bin/env python3
"""Store load and CPU of 1 and N fleet-server processes sharing one Redis and one PostgreSQL, and the time until a
killed instance's schedulers are owned (and so ticked) again.

usage: measure-scale-out.py FLEET_JAR [--schedulers 1000] [--instances 1,4] [--warmup 30] [--window 60]

Starts a fresh redis-server (REDIS_SERVER, else the binary inside the embedded-redis jar in ~/.m2) and a fresh
PostgreSQL (initdb/pg_ctl on PATH) for each instance count, starts the instances with --ownership true, creates the
schedulers (min 0: every tick observes and decides, no room churn in the instances' in-memory drivers), waits the
warm-up, then measures over the window: Redis commands/s (INFO commandstats), PostgreSQL transactions/s
(pg_stat_database; every statement here is its own transaction) and each instance's CPU (/proc). With more than one
instance it then kills one (SIGKILL: no hand-over) and prints the time until GET /ownership on a survivor shows every
scheduler held again. Prints the ratios against the single instance measured in the same run."""
import argparse, glob, json, os, shutil, signal, socket, subprocess, sys, tempfile, time, urllib.request, zipfile

def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]

def redis_binary(tmp):
    if os.environ.get("REDIS_SERVER"):
        return os.environ["REDIS_SERVER"]
    jars = sorted(glob.glob(os.path.expanduser("~/.m2/repository/com/github/codemonstur/embedded-redis/*/embedded-redis-*.jar")))
    if not jars:
        sys.exit("no redis-server: set REDIS_SERVER or build the project once (embedded-redis in ~/.m2)")
    with zipfile.ZipFile(jars[-1]) as jar:
        name = next(n for n in jar.namelist() if "linux" in n and "amd64" in n and "redis-server" in n and not n.endswith("/"))
        path = os.path.join(tmp, "redis-server")
        with jar.open(name) as src, open(path, "wb") as dst:
            shutil.copyfileobj(src, dst)
    os.chmod(path, 0o755)
    return path

def http(port, method, path, body=None, timeout=30):
    req = urllib.request.Request(f"http://127.0.0.1:{port}{path}", data=body.encode() if body else None, method=method)
    try:
        with urllib.request.urlopen(req, timeout=timeout) as resp:
            return resp.status, resp.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode()

def redis_calls(cli_port):
    with socket.create_connection(("127.0.0.1", cli_port)) as s:
        s.sendall(b"INFO commandstats\r\n")
        data = b""
        while True:
            chunk = s.recv(65536)
            data += chunk
            if data.startswith(b"$"):
                size = int(data[1:data.index(b"\r\n")])
                if len(data) >= data.index(b"\r\n") + 2 + size:
                    break
    total = 0
    for line in data.decode().splitlines():
        if line.startswith("cmdstat_") and not line.startswith("cmdstat_info"):
            total += int(line.split("calls=")[1].split(",")[0])
    return total

def pg_xacts(pg_port):
    out = subprocess.check_output(["psql", "-h", "127.0.0.1", "-p", str(pg_port), "-U", "postgres", "-d", "postgres", "-tAc",
                                   "SELECT sum(xact_commit + xact_rollback) FROM pg_stat_database"], text=True)
    return int(out.strip())

def cpu_seconds(pid):
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

def run(args, n, tmp):
    redis_port, pg_port = free_port(), free_port()
    pgdata = os.path.join(tmp, f"pg{n}")
    # PostgreSQL refuses to run as root: as root, run it as the postgres (else nobody) user.
    as_user = []
    if os.geteuid() == 0:
        user = "postgres" if subprocess.call(["id", "postgres"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) == 0 else "nobody"
        as_user = ["runuser", "-u", user, "--"]
        os.chmod(tmp, 0o777)
    subprocess.check_call(as_user + ["initdb", "-D", pgdata, "-U", "postgres", "-A", "trust"], stdout=subprocess.DEVNULL)
    subprocess.check_call(as_user + ["pg_ctl", "-D", pgdata, "-o", f"-p {pg_port} -k {tmp} -c max_connections=200", "-w", "start"],
                          stdout=subprocess.DEVNULL)
    redis = subprocess.Popen([redis_binary(tmp), "--port", str(redis_port), "--save", "", "--appendonly", "no"], stdout=subprocess.DEVNULL)
    instances = []
    try:
        time.sleep(0.5)
        for i in range(n):
            port = free_port()
            proc = subprocess.Popen(["java", "-Xmx512m", "-jar", args.jar, "--port", str(port), "--redis-uri",
                                     f"redis://127.0.0.1:{redis_port}/0", "--jdbc-url", f"jdbc:postgresql://127.0.0.1:{pg_port}/postgres",
                                     "--ownership", "true", "--instance-id", f"fleet-{i}", "--insecure-no-auth"],
                                    stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                    env=dict(os.environ, HOTSPARE_JDBC_USER="postgres"))
            for line in proc.stdout:
                if "listening" in line:
                    break
            threading_drain(proc)
            instances.append((proc, port))
        first = instances[0][1]
        for s in range(args.schedulers):
            status, body = http(first, "POST", "/scheduler", f"name: s{s}\ngame: g\nimage: g:1\nautoscaling: {{min: 0}}\n")
            if status != 201:
                sys.exit(f"create s{s}: {status} {body}")
        time.sleep(args.warmup)
        r0, p0, t0 = redis_calls(redis_port), pg_xacts(pg_port), time.monotonic()
        c0 = [cpu_seconds(p.pid) for p, _ in instances]
        time.sleep(args.window)
        r1, p1, t1 = redis_calls(redis_port), pg_xacts(pg_port), time.monotonic()
        c1 = [cpu_seconds(p.pid) for p, _ in instances]
        elapsed = t1 - t0
        result = {"instances": n, "redis_per_s": (r1 - r0) / elapsed, "pg_per_s": (p1 - p0) / elapsed,
                  "cpu_per_instance": [(b - a) / elapsed for a, b in zip(c0, c1)]}
        if n > 1:
            victim, _ = instances[-1]
            victim.send_signal(signal.SIGKILL)
            killed = time.monotonic()
            survivor = instances[0][1]
            while True:
                views = [json.loads(http(port, "GET", "/ownership")[1]) for _, port in instances[:-1]]
                held = sum(len(v.get("held", {}).get("scheduler", [])) for v in views)
                if held == args.schedulers:
                    result["reowned_after_s"] = time.monotonic() - killed
                    break
                if time.monotonic() - killed > 120:
                    result["reowned_after_s"] = None
                    break
                time.sleep(0.2)
        return result
    finally:
        for proc, _ in instances:
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
        for proc, _ in instances:
            try:
                proc.wait(timeout=60)
            except subprocess.TimeoutExpired:
                proc.kill()
        redis.kill()
        subprocess.call(as_user + ["pg_ctl", "-D", pgdata, "-m", "immediate", "stop"], stdout=subprocess.DEVNULL)

def threading_drain(proc):
    import threading
    threading.Thread(target=lambda: [None for _ in proc.stdout], daemon=True).start()

def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("jar")
    parser.add_argument("--schedulers", type=int, default=1000)
    parser.add_argument("--instances", default="1,4")
    parser.add_argument("--warmup", type=int, default=30)
    parser.add_argument("--window", type=int, default=60)
    args = parser.parse_args()
    tmp = tempfile.mkdtemp(prefix="hotspare-scale-out-")
    try:
        results = [run(args, int(n), tmp) for n in args.instances.split(",")]
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    base = results[0]
    for r in results:
        cpu = r["cpu_per_instance"]
        line = (f"instances={r['instances']}: redis {r['redis_per_s']:.0f} commands/s ({r['redis_per_s'] / base['redis_per_s']:.2f}x),"
                f" postgres {r['pg_per_s']:.0f} transactions/s ({r['pg_per_s'] / base['pg_per_s']:.2f}x),"
                f" cpu per instance {', '.join(f'{c:.2f}' for c in cpu)} cores (mean {sum(cpu) / len(cpu) / (sum(base['cpu_per_instance'])):.2f}x of one)")
        if "reowned_after_s" in r:
            line += f"; one killed: all schedulers held again after {r['reowned_after_s']:.1f} s" if r["reowned_after_s"] is not None \
                else "; one killed: NOT all schedulers held again within 120 s"
        print(line)

if __name__ == "__main__":
    main()
