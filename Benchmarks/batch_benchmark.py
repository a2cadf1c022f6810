#!/usr/bin/env python3
"""Batch rendering benchmark: blurlabel's `batch` against Pillow with Raqm doing the same job
(text in DejaVu Sans at --size px, 48 by default, Gaussian blur sigma 2.5 on a canvas padded by
ceil(3*sigma), black on white, written as PNG files), side by side in one run.

Prints labels/s on one core and on all cores, peak memory (max RSS of the process doing the
work), and bytes per PNG; then blurlabel's speed as a multiple of Pillow's. The goal's measure
(one job against one Pillow RGB process) is the median of --goal-rounds interleaved rounds. Also renders a
100,000-line manifest to show that memory stays flat as manifests grow (lines are streamed).
Output goes to a tmpfs folder when there is one, so the file system's cost is the same small
part for both sides. Run it with Benchmarks/run-batch (README).

With --jobs 1,2,... it measures scaling instead: blurlabel's labels/s at each job count (best of
--repeat runs), the speed-up over one job and the efficiency (speed-up / jobs). --compare PATH
runs another blurlabel binary (say, a build of an older commit) in the same rounds, interleaved,
so both see the same machine load, and prints the median of the rounds' ratios (wall time and CPU
time). --check-method runs the same rounds against an identical copy of the binary first (an A/A
run): an A/B ratio means something only when the A/A one is within 3% of 1.

With --pairs N it measures what one process with two jobs gives against two separate one-job
processes, each taking half the manifest, at the same time: N interleaved rounds, the median of
the rounds' ratios (labels/s of the one process / labels/s of the two).

--smoke runs every mode once at its smallest size without the peers (CI: it keeps working).
"""
import argparse, math, os, random, shutil, subprocess, sys, tempfile, time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, "..")

PILLOW_WORKER = r'''
import io, math, os, sys, time
from multiprocessing import Pool
from PIL import Image, ImageDraw, ImageFilter, ImageFont
mode, manifest, out, processes = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
font = ImageFont.truetype(sys.argv[5], int(sys.argv[6]), layout_engine=ImageFont.Layout.RAQM)
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


def manifest(path, count, seed=1, size=32, first=0):
    random.seed(seed)
    extra = "" if size == 32 else ',"size":%d' % size
    with open(path, "w", encoding="utf-8") as f:
        for i in range(first, first + count):
            f.write('{"text":"%d.%02d \u20ac","output":"t%07d.png"%s}\n' % (random.randint(0, 99), random.randint(0, 99), i, extra))


def median(values):
    values = sorted(values)
    n = len(values)
    return values[n // 2] if n % 2 else (values[n // 2 - 1] + values[n // 2]) / 2


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--blurlabel", default=os.path.join(ROOT, ".build", "ship", "bin", "blurlabel"))
    parser.add_argument("--count", type=int, default=10000)
    parser.add_argument("--streaming-count", type=int, default=100000)
    parser.add_argument("--jobs", help="comma-separated job counts: measure scaling only (e.g. 1,2)")
    parser.add_argument("--repeat", type=int, default=3, help="runs per job count with --jobs; the best is kept")
    parser.add_argument("--compare", help="with --jobs: another blurlabel binary measured in the same rounds")
    parser.add_argument("--check-method", action="store_true",
                        help="with --jobs: first the same rounds against an identical copy of the binary (A/A)")
    parser.add_argument("--pairs", type=int, help="rounds of one process with two jobs against two one-job processes")
    parser.add_argument("--size", type=int, default=48, help="text size in px (both sides; default 48)")
    parser.add_argument("--goal-rounds", type=int, default=3,
                        help="interleaved rounds of one job against one Pillow RGB process for the goal's ratio (median)")
    parser.add_argument("--smoke", action="store_true", help="every mode once, smallest size, no peers (CI)")
    parser.add_argument("--on-disk", action="store_true", help="outputs in the system's temporary folder, not tmpfs")
    args = parser.parse_args()
    if args.smoke:
        smoke(args)
        return
    cores = os.cpu_count()
    base = "/dev/shm" if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK) and not args.on_disk else None
    work = tempfile.mkdtemp(prefix="blurlabel-batch-", dir=base)
    if args.jobs or args.pairs:
        try:
            if args.jobs:
                if args.check_method:
                    copy = os.path.join(work, "blurlabel-copy")
                    shutil.copy2(args.blurlabel, copy)
                    print("A/A check: this build against an identical copy of itself")
                    scaling(args, work, base, compare=copy)
                    print()
                scaling(args, work, base, compare=args.compare)
            if args.pairs:
                pairs(args, work, base)
        finally:
            shutil.rmtree(work, ignore_errors=True)
        return
    try:
        m = os.path.join(work, "manifest.jsonl")
        manifest(m, args.count, size=args.size)
        font = os.path.join(ROOT, "Fonts", "DejaVuSans.ttf")
        rows = []

        def run_ours(jobs):
            out = os.path.join(work, f"blurlabel-{jobs}")
            _, wall, rss = run_measured([args.blurlabel, "batch", m, "--out", out, "--jobs", str(jobs)])
            size, n = folder_bytes(out)
            assert n == args.count
            shutil.rmtree(out)
            return args.count / wall, rss, size

        def run_pillow(mode, processes):
            out = os.path.join(work, f"pillow-{mode}-{processes}")
            os.makedirs(out)
            _, wall, rss = run_measured([sys.executable, "-c", PILLOW_WORKER, mode, m, out, str(processes), font, str(args.size)])
            size, n = folder_bytes(out)
            assert n == args.count
            shutil.rmtree(out)
            return args.count / wall, rss, size

        for jobs in (1, cores):
            rows.append((f"blurlabel batch --jobs {jobs}", jobs) + run_ours(jobs))
        for mode in ("RGB", "L"):
            for processes in (1, cores):
                label = f"Pillow+Raqm {mode}, {processes} process{'es' if processes > 1 else ''}"
                rows.append((label, processes) + run_pillow(mode, processes))
        print(f"{args.count} random price tags (\"NN.NN €\", DejaVu Sans {args.size} px, sigma 2.5, black on white), {cores} cores, output on {'tmpfs' if base else 'disk'}")
        print(f"{'renderer':34} {'labels/s':>9} {'per core':>9} {'peak MB':>8} {'bytes/PNG':>10}")
        for name, workers, rate, rss, size in rows:
            print(f"{name:34} {rate:9.0f} {rate / workers:9.0f} {rss:8.1f} {size:10.0f}")
        ours1, oursN = rows[0][2], rows[1][2]
        for name, workers, rate, rss, size in rows[2:]:
            ours = ours1 if workers == 1 else oursN
            print(f"blurlabel vs {name}: {ours / rate:.1f}x the labels/s, {rows[0][4] / size:.2f}x the bytes per file")
        rgb = next(rate for name, workers, rate, rss, size in rows[2:] if workers == 1 and " RGB" in name)
        # The goal's measure over interleaved rounds (the first is the table's), so one noisy
        # second on either side does not decide it: the median of the rounds' ratios.
        ratios = [ours1 / rgb]
        for _ in range(args.goal_rounds - 1):
            ratios.append(run_ours(1)[0] / run_pillow("RGB", 1)[0])
        print(f"one job against one Pillow+Raqm RGB process (the label-cost goal's measure): {median(ratios):.1f}x, "
              f"median of {len(ratios)} interleaved rounds ({', '.join(f'{r:.1f}' for r in ratios)}) (goal: at least 15x); "
              f"{rows[0][4]:.0f} bytes per PNG")
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


def scaling(args, work, base, compare=None):
    """labels/s per job count, speed-up and efficiency; optionally a second binary alongside."""
    counts = [int(j) for j in args.jobs.split(",")]
    m = os.path.join(work, "manifest.jsonl")
    manifest(m, args.count, size=args.size)
    binaries = [("this build", args.blurlabel)] + ([("compared", compare)] if compare else [])
    best, cpu_best = {}, {}
    rounds = []  # per round: {(name, jobs): (labels/s, CPU us/label)}
    for _ in range(args.repeat):
        rounds.append({})
        for jobs in counts:
            for name, binary in binaries:
                out = os.path.join(work, "out")
                cpu = []
                _, wall, _ = run_measured([binary, "batch", m, "--out", out, "--jobs", str(jobs)], cpu)
                assert folder_bytes(out)[1] == args.count
                shutil.rmtree(out)
                rate = args.count / wall
                best[(name, jobs)] = max(best.get((name, jobs), 0), rate)
                rounds[-1][(name, jobs)] = (rate, cpu[0] / args.count * 1e6)
                cpu_best[(name, jobs)] = min(cpu_best.get((name, jobs), math.inf), cpu[0] / args.count * 1e6)
    with open("/proc/loadavg") as f:
        load = f.read().split()[0]
    print(f"{args.count} random price tags at {args.size} px, {os.cpu_count()} cores, output on {'tmpfs' if base else 'disk'}, best of {args.repeat}, load average {load} at the end")
    print("(CPU us/label: user + system time per label; when it stays flat as jobs grow, the workers do not slow each other down)")
    print(f"{'binary':12} {'jobs':>4} {'labels/s':>9} {'speed-up':>9} {'efficiency':>10} {'CPU us/label':>13}")
    for name, binary in binaries:
        one = best.get((name, counts[0]))
        for jobs in counts:
            rate = best[(name, jobs)]
            speedup = rate / one * counts[0]
            print(f"{name:12} {jobs:4d} {rate:9.0f} {speedup:8.2f}x {speedup / jobs:9.0%} {cpu_best[(name, jobs)]:13.0f}")
    if compare:
        for jobs in counts:
            wall = median([r[("this build", jobs)][0] / r[("compared", jobs)][0] for r in rounds])
            cpu = median([r[("compared", jobs)][1] / r[("this build", jobs)][1] for r in rounds])
            print(f"jobs {jobs}: this build / compared = {best[('this build', jobs)] / best[('compared', jobs)]:.2f}x (best of each); "
                  f"median of the rounds' ratios: {wall:.3f}x labels/s, {cpu:.3f}x less CPU per label")


def pairs(args, work, base):
    """One process with two jobs against two one-job processes on the two halves, at once."""
    half = args.count // 2
    whole = os.path.join(work, "pairs.jsonl")
    manifest(whole, 2 * half, size=args.size)
    halves = [os.path.join(work, f"pairs-{i}.jsonl") for i in range(2)]
    with open(whole, encoding="utf-8") as f:
        lines = f.readlines()
    for i, path in enumerate(halves):
        with open(path, "w", encoding="utf-8") as f:
            f.writelines(lines[i * half:(i + 1) * half])
    ratios, cpu_ratios, one_rates, two_rates = [], [], [], []
    for r in range(args.pairs):
        results, cpu = {}, {}
        for kind in (("one", "two") if r % 2 == 0 else ("two", "one")):
            out = os.path.join(work, "pairs-out")
            t0 = time.perf_counter()
            if kind == "one":
                used = []
                run_measured([args.blurlabel, "batch", whole, "--out", out, "--jobs", "2"], used)
                cpu[kind] = used[0]
            else:
                # Each its own folder: two batches never share one (`batch` may lock it).
                procs = [subprocess.Popen([args.blurlabel, "batch", h, "--out", f"{out}-{i}", "--jobs", "1"],
                                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) for i, h in enumerate(halves)]
                cpu[kind] = 0
                for p in procs:
                    _, status, usage = os.wait4(p.pid, 0)
                    if os.waitstatus_to_exitcode(status) != 0:
                        sys.exit("a one-job batch failed")
                    cpu[kind] += usage.ru_utime + usage.ru_stime
            results[kind] = 2 * half / (time.perf_counter() - t0)
            folders = [out] if kind == "one" else [f"{out}-{i}" for i in range(2)]
            assert sum(folder_bytes(f)[1] for f in folders) == 2 * half
            for f in folders:
                shutil.rmtree(f)
        one_rates.append(results["one"]); two_rates.append(results["two"])
        ratios.append(results["one"] / results["two"])
        cpu_ratios.append(cpu["two"] / cpu["one"])
    with open("/proc/loadavg") as f:
        load = f.read().split()[0]
    print(f"{2 * half} price tags at {args.size} px, output on {'tmpfs' if base else 'disk'}, {args.pairs} interleaved rounds, load average {load} at the end")
    print(f"one process, --jobs 2: median {median(one_rates):.0f} labels/s; two one-job processes: median {median(two_rates):.0f} labels/s")
    print(f"one process / two processes: median of the rounds' ratios {median(ratios):.3f} in labels/s (goal: at least 0.97), "
          f"{median(cpu_ratios):.3f} in CPU time per label (two processes' / one process's); labels/s rounds "
          + ", ".join(f"{x:.3f}" for x in ratios))


def smoke(args):
    """Every mode once, at its smallest size, without the peers: the benchmark keeps working (CI)."""
    args.count, args.repeat = 40, 1
    base = "/dev/shm" if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK) else None
    work = tempfile.mkdtemp(prefix="blurlabel-batch-", dir=base)
    try:
        args.jobs, args.pairs = "1,2", 1
        copy = os.path.join(work, "blurlabel-copy")
        shutil.copy2(args.blurlabel, copy)
        scaling(args, work, base, compare=copy)
        pairs(args, work, base)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
