#!/usr/bin/env python3
"""blurlabel serve and edit stopped as a load balancer and an impatient operator stop them.

1. Readiness: SIGTERM with --shutdown-delay 1 --drain 30 while two renders run: /readyz answers
   503 from the signal on (the listener still open), /healthz 200, both renders complete, exit 0.
2. A stop that outlives --drain: --drain 0 with a render running and two queued: every client gets
   a whole response (503 with Connection: close for the cut ones), no abort, exit 0.
3. edit: a heavy preview then Done: exit 0, no abort.

  scripts/checks/serve-stop-check.py BIN_DIR   (the folder with blurlabel and blurlabel-serve)
"""
import os, re, signal, socket, subprocess, sys, tempfile, threading, time

bin_dir = sys.argv[1]
tool = os.path.join(bin_dir, "blurlabel")


def fail(message):
    print(f"serve-stop-check: FAIL: {message}", file=sys.stderr)
    sys.exit(1)


def start(arguments, pattern):
    process = subprocess.Popen([tool] + arguments, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = process.stdout.readline()
    found = re.search(pattern, line)
    if not found:
        process.kill()
        fail(f"{arguments[0]} did not start: {line!r} {process.stderr.read()!r}")
    return process, found


def request(port, method, path, body=b"", headers=""):
    """One request on its own connection: (status, headers text, whole body received)."""
    s = socket.create_connection(("127.0.0.1", port))
    s.settimeout(60)
    s.sendall(f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n{headers}Content-Length: {len(body)}\r\n\r\n".encode() + body)
    data = b""
    while True:
        try:
            chunk = s.recv(65536)
        except OSError:
            break
        if not chunk:
            break
        data += chunk
        head, sep, rest = data.partition(b"\r\n\r\n")
        if sep:
            length = re.search(rb"(?i)content-length: *(\d+)", head)
            if length and len(rest) >= int(length.group(1)):
                break
    s.close()
    head, _, rest = data.partition(b"\r\n\r\n")
    if not head:
        return None, "", False
    length = re.search(rb"(?i)content-length: *(\d+)", head)
    return int(head.split(b" ")[1]), head.decode("latin-1"), bool(length) and len(rest) == int(length.group(1))


def fetch_all(port, paths):
    results = [None] * len(paths)

    def one(index):
        results[index] = request(port, "GET", paths[index])

    threads = [threading.Thread(target=one, args=(i,)) for i in range(len(paths))]
    for thread in threads:
        thread.start()
    return threads, results


def heavy(index):
    return subprocess.run([tool, "sign", "--unsigned", f"{index} heavy", "--size", "400", "--radius", "150"],
                          capture_output=True, text=True, check=True).stdout.strip()


def finish(process, what):
    try:
        status = process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        process.kill()
        fail(f"{what}: still running 30 s after SIGTERM")
    errors = process.stderr.read()
    if status != 0 or "Fatal" in errors:
        fail(f"{what}: exit {status}: {errors[-400:]}")
    return errors


# 1. Readiness turns 503 at SIGTERM while in-flight renders complete.
serve, found = start(["serve", "--unsigned", "--listen", "127.0.0.1:0", "--workers", "1", "--cache-mb", "0",
                      "--shutdown-delay", "1", "--drain", "30"], r"http://127\.0\.0\.1:(\d+)")
port = int(found.group(1))
if request(port, "GET", "/readyz")[0] != 200:
    fail("/readyz is not 200 while serving")
threads, results = fetch_all(port, [heavy(0), heavy(1)])
time.sleep(0.3)
serve.send_signal(signal.SIGTERM)
time.sleep(0.3)
ready, healthy = request(port, "GET", "/readyz")[0], request(port, "GET", "/healthz")[0]
for thread in threads:
    thread.join()
finish(serve, "serve (readiness)")
if ready != 503 or healthy != 200:
    fail(f"during the shutdown delay /readyz was {ready} (503 wanted), /healthz {healthy} (200 wanted)")
if [r[0] for r in results] != [200, 200] or not all(r[2] for r in results):
    fail(f"in-flight renders did not complete during the drain: {results}")
readiness = f"readyz {ready}, healthz {healthy}, in flight {[r[0] for r in results]}"

# 2. A render that outlives --drain 0, two more queued: every client answered, exit 0.
serve, found = start(["serve", "--unsigned", "--listen", "127.0.0.1:0", "--workers", "1", "--cache-mb", "0",
                      "--drain", "0"], r"http://127\.0\.0\.1:(\d+)")
port = int(found.group(1))
threads, results = fetch_all(port, [heavy(2), heavy(3), heavy(4)])
time.sleep(0.4)
began = time.monotonic()
serve.send_signal(signal.SIGTERM)
for thread in threads:
    thread.join()
finish(serve, "serve (past --drain)")
stopped = time.monotonic() - began
if not all(r[2] and r[0] in (200, 503) for r in results) or not any(r[0] == 503 for r in results):
    fail(f"a client was not answered whole at the stop: {results}")
if not all("connection: close" in r[1].lower() for r in results if r[0] == 503):
    fail("a 503 at the stop did not close its connection")
if stopped > 5:
    fail(f"the stop took {stopped:.1f} s with --drain 0")
cut = f"--drain 0: {[r[0] for r in results]} in {stopped:.1f} s"

# 3. edit: a heavy preview, then Done while it runs.
with tempfile.TemporaryDirectory() as folder:
    picture = os.path.join(folder, "in.png")
    subprocess.run([tool, "render", "x" * 12, "--size", "800", "--radius", "0", "-o", picture], check=True)
    with open(picture, "rb") as file:
        header = file.read(24)
    width, height = int.from_bytes(header[16:20], "big"), int.from_bytes(header[20:24], "big")
    edit, found = start(["edit", picture, "-o", os.path.join(folder, "out.png")], r"http://127\.0\.0\.1:(\d+)/(\w+)/")
    port, token = int(found.group(1)), found.group(2)
    body = "\n".join([f"--rect\n{x},0,{width - x},{height}:blur" for x in range(24)] + ["--radius\n200"]).encode()
    previewed = []
    began = time.monotonic()
    preview = threading.Thread(target=lambda: previewed.append(request(port, "POST", f"/{token}/preview", body)))
    preview.start()
    time.sleep(0.3)
    done = request(port, "POST", f"/{token}/done")[0]
    preview.join()
    finish(edit, "edit (Done during a preview)")
    took = time.monotonic() - began
    if done != 200:
        fail(f"Done answered {done}")
    # The preview (24 blurs of σ 200) outlives edit's 2 s drain: its client gets a whole 503.
    if not previewed or not previewed[0][2] or previewed[0][0] != 503:
        fail(f"the preview's client got no whole 503 (or the preview was too quick to test the stop): {previewed}")

print(f"serve-stop-check: {readiness}; {cut}; edit Done during a preview ({previewed[0][0]}): exit 0 after {took:.1f} s",
      file=sys.stderr)
