#!/usr/bin/env python3
"""Batch rendering benchmark: blurlabel's `batch` against Pillow with Raqm doing the same job
(text in DejaVu Sans 32 px, Gaussian blur sigma 2.5 on a canvas padded by ceil(3*sigma), black on
white, written as PNG files), side by side in one run.

Prints labels/s on one core and on all cores, peak memory (max RSS of the process doing the
work), and bytes per PNG; then blurlabel's speed as a multiple of Pillow's. Also renders a
100,000-line manifest to show that memory stays flat as manifests grow (lines are streamed).
Output goes to a tmpfs folder when there is one, so the file system's cost is the same small
part for both sides. Run it with Benchmarks/run-batch (README).

With --jobs 1,2,... it measures scaling instead: blurlabel's labels/s at each job count (best of
--repeat runs), the speed-up over one job and the efficiency (speed-up / jobs). --compare PATH
runs another blurlabel binary (say, a build of an older commit) in the same rounds, interleaved,
so both see the same machine load.
"""
import argparse, math, os, random, shutil, subprocess, sys, tempfile, time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..")

PILLOW_WORKER = r'''
import io, math, os, sys, time
from multiprocessing import Pool
from PIL import Image, ImageDraw, ImageFilter, ImageFont
mode, manifest, out, processes = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
font = ImageFont.truetype(sys.argv[5], 32, layout_engine=ImageFont.Layout.RAQM)
pad = math.ceil(3 * 2.5)
def render(job):
    text, name = job
    l, t, r, b = font.getbbox(text)
    im = Image.new(mode, (r - l + 2 * pad, b - t + 2 * pad), "white")
    ImageDraw.Draw(im).text((pad - l, pad - t), text, font=font, fill="black")
    im.filter(ImageFilter.GaussianBlur(2.5)).save(os.path.join(out, name))
jobs = []
import json
with open(manifest, encoding="utf-8") as f:
    for line in f:
        o = json.loads(line); jobs.append((o["text"], o["output"]))
t0 = time.perf_counter()
if processes == 1:
    for job in jobs: render(job)
else:
    with Pool(processes) as pool: pool.map(render, jobs, chunksize=64)
print(time.perf_counter() - t0)
'''


def run_measured(args, cpu=None):
    """Runs a command; returns (stdout, wall seconds, peak RSS in MB of that process). With a
    list for `cpu`, appends the CPU seconds (user + system) the process used."""
    t0 = time.perf_counter()
    p = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    _, status, usage = os.wait4(p.pid, 0)
    wall = time.perf_counter() - t0
    if cpu is not None:
        cpu.append(usage.ru_utime + usage.ru_stime)
    out = p.stdout.read()
    err = p.stderr.read()
    p.stdout.close(); p.stderr.close()
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"{' '.join(args)} failed:\n{err}")
    return out, wall, usage.ru_maxrss / 1024


def folder_bytes(path):
    total = n = 0
    for name in os.listdir(path):
        total += os.path.getsize(os.path.join(path, name)); n += 1
    return total / max(1, n), n


def manifest(path, count, seed=1):
    random.seed(seed)
    with open(path, "w", encoding="utf-8") as f:
        for i in range(count):
            f.write('{"text":"%d.%02d \u20ac","output":"t%07d.png"}\n' % (random.randint(0, 99), random.randint(0, 99), i))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--blurlabel", default=os.path.join(ROOT, ".build", "ship", "bin", "blurlabel"))
    parser.add_argument("--count", type=int, default=10000)
    parser.add_argument("--streaming-count", type=int, default=100000)
    parser.add_argument("--jobs", help="comma-separated job counts: measure scaling only (e.g. 1,2)")
    parser.add_argument("--repeat", type=int, default=3, help="runs per job count with --jobs; the best is kept")
    parser.add_argument("--compare", help="with --jobs: another blurlabel binary measured in the same rounds")
    args = parser.parse_args()
    cores = os.cpu_count()
    base = "/dev/shm" if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK) else None
    work = tempfile.mkdtemp(prefix="blurlabel-batch-", dir=base)
    if args.jobs:
        try:
            scaling(args, work, base)
        finally:
            shutil.rmtree(work, ignore_errors=True)
        return
    try:
        m = os.path.join(work, "manifest.jsonl")
        manifest(m, args.count)
        font = os.path.join(ROOT, "Fonts", "DejaVuSans.ttf")
        rows = []
        for jobs in (1, cores):
            out = os.path.join(work, f"blurlabel-{jobs}")
            _, wall, rss = run_measured([args.blurlabel, "batch", m, "--out", out, "--jobs", str(jobs)])
            size, n = folder_bytes(out)
            assert n == args.count
            rows.append((f"blurlabel batch --jobs {jobs}", jobs, args.count / wall, rss, size))
            shutil.rmtree(out)
        for mode in ("RGB", "L"):
            for processes in (1, cores):
                out = os.path.join(work, f"pillow-{mode}-{processes}")
                os.makedirs(out)
                _, wall, rss = run_measured([sys.executable, "-c", PILLOW_WORKER, mode, m, out, str(processes), font])
                size, n = folder_bytes(out)
                assert n == args.count
                label = f"Pillow+Raqm {mode}, {processes} process{'es' if processes > 1 else ''}"
                rows.append((label, processes, args.count / wall, rss, size))
                shutil.rmtree(out)
        print(f"{args.count} random price tags (\"NN.NN €\", DejaVu Sans 32 px, sigma 2.5, black on white), {cores} cores, output on {'tmpfs' if base else 'disk'}")
        print(f"{'renderer':34} {'labels/s':>9} {'per core':>9} {'peak MB':>8} {'bytes/PNG':>10}")
        for name, workers, rate, rss, size in rows:
            print(f"{name:34} {rate:9.0f} {rate / workers:9.0f} {rss:8.1f} {size:10.0f}")
        ours1, oursN = rows[0][2], rows[1][2]
        for name, workers, rate, rss, size in rows[2:]:
            ours = ours1 if workers == 1 else oursN
            print(f"blurlabel vs {name}: {ours / rate:.1f}x the labels/s, {rows[0][4] / size:.2f}x the bytes per file")
        # Streaming: memory stays flat as the manifest grows.
        big = os.path.join(work, "big.jsonl")
        manifest(big, args.streaming_count, seed=2)
        out = os.path.join(work, "big")
        _, wall, rss = run_measured([args.blurlabel, "batch", big, "--out", out, "--jobs", str(cores)])
        size, n = folder_bytes(out)
        print(f"streaming: {args.streaming_count} lines ({os.path.getsize(big) / 1e6:.1f} MB manifest) in {wall:.1f} s, "
              f"peak {rss:.1f} MB (vs {rows[1][3]:.1f} MB for {args.count} lines), {n} files")
    finally:
        shutil.rmtree(work, ignore_errors=True)


def scaling(args, work, base):
    """labels/s per job count, speed-up and efficiency; optionally a second binary alongside."""
    counts = [int(j) for j in args.jobs.split(",")]
    m = os.path.join(work, "manifest.jsonl")
    manifest(m, args.count)
    binaries = [("this build", args.blurlabel)] + ([("compared", args.compare)] if args.compare else [])
    best, cpu_best = {}, {}
    for _ in range(args.repeat):
        for jobs in counts:
            for name, binary in binaries:
                out = os.path.join(work, "out")
                cpu = []
                _, wall, _ = run_measured([binary, "batch", m, "--out", out, "--jobs", str(jobs)], cpu)
                assert folder_bytes(out)[1] == args.count
                shutil.rmtree(out)
                rate = args.count / wall
                best[(name, jobs)] = max(best.get((name, jobs), 0), rate)
                cpu_best[(name, jobs)] = min(cpu_best.get((name, jobs), math.inf), cpu[0] / args.count * 1e6)
    with open("/proc/loadavg") as f:
        load = f.read().split()[0]
    print(f"{args.count} random price tags, {os.cpu_count()} cores, output on {'tmpfs' if base else 'disk'}, best of {args.repeat}, load average {load} at the end")
    print("(CPU us/label: user + system time per label; when it stays flat as jobs grow, the workers do not slow each other down)")
    print(f"{'binary':12} {'jobs':>4} {'labels/s':>9} {'speed-up':>9} {'efficiency':>10} {'CPU us/label':>13}")
    for name, binary in binaries:
        one = best.get((name, counts[0]))
        for jobs in counts:
            rate = best[(name, jobs)]
            speedup = rate / one * counts[0]
            print(f"{name:12} {jobs:4d} {rate:9.0f} {speedup:8.2f}x {speedup / jobs:9.0%} {cpu_best[(name, jobs)]:13.0f}")
    if args.compare:
        for jobs in counts:
            print(f"jobs {jobs}: this build / compared = {best[('this build', jobs)] / best[('compared', jobs)]:.2f}x")


if __name__ == "__main__":
    main()
