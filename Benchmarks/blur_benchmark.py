#!/usr/bin/env python3
"""Side-by-side Gaussian blur benchmark: blurlabel against OpenCV, Pillow and libvips, on the
same 2048x2048 RGBA (premultiplied) and mask pictures, in one run.

For every library and sigma it prints the best time of several runs (each library in turn, run
after run: blurlabel through `blurlabel-bench serve`, the peers in this process), MPix/s, and the error
against a float64 sampled Gaussian (support ±6σ, edges repeated), in 8-bit levels: the largest
and the mean difference from the rounded reference. Then blurlabel's time as a ratio to each peer
at the same thread count (below 1 means blurlabel is faster). Rows are given for every core and
for one core (--threads), and for each forced CPU variant of blurlabel (--isa: BLURLABEL_ISA).
--emulate no-avx2 (or no-avx) measures, on this CPU, what a CPU without AVX2 (or without AVX) would
run: blurlabel's avx (or v2) variant against OpenCV with its AVX2 and AVX-512 (and AVX) code paths
switched off through OPENCV_CPU_DISABLE, which OpenCV reads when it is imported. libvips and Pillow
are left out there: their vector code cannot be limited the same way.
--plot writes ms against σ (log scales) for blurlabel, OpenCV and libvips as a PNG (matplotlib).
Run it with Benchmarks/run-blur (README).
"""
import argparse, os, subprocess, sys, tempfile, time
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))


def reference(img, sigma):
    """float64 sampled Gaussian, normalized over ±ceil(6σ), edges repeated (clamp), via FFT."""
    r = int(np.ceil(6 * sigma))
    x = np.arange(-r, r + 1, dtype=np.float64)
    k = np.exp(-x * x / (2 * sigma * sigma))
    k /= k.sum()
    out = img.astype(np.float64)
    for axis in (0, 1):
        pad = [(0, 0)] * out.ndim
        pad[axis] = (r, r)
        p = np.pad(out, pad, mode="edge")
        n = 1 << int(np.ceil(np.log2(p.shape[axis] + 2 * r + 1)))
        shape = [1] * out.ndim
        shape[axis] = -1
        c = np.fft.irfft(np.fft.rfft(p, n, axis=axis) * np.fft.rfft(k, n).reshape(shape), n, axis=axis)
        sl = [slice(None)] * out.ndim
        sl[axis] = slice(2 * r, 2 * r + out.shape[axis])
        out = c[tuple(sl)]
    return out


def set_threads(count):
    """Limits the peers to `count` threads (None: their default, every core)."""
    try:
        import cv2
        cv2.setNumThreads(count if count else os.cpu_count())
    except ImportError:
        pass
    try:
        import pyvips
        pyvips.concurrency_set(count if count else os.cpu_count())
    except (ImportError, OSError):
        pass


# What --emulate switches off in OpenCV (its names for them), and the blurlabel variant that runs.
EMULATED = {
    "no-avx2": (["AVX2", "FMA3", "AVX512F"], "avx"),
    "no-avx": (["AVX", "AVX2", "FMA3", "FP16", "AVX512F"], "v2"),
}


def emulate(name):
    """Switches OpenCV's code paths above `name`'s CPU off (before cv2 is imported); returns the
    blurlabel variant to run. Features this CPU lacks are not named (OpenCV warns about those)."""
    flags = set()
    try:
        with open("/proc/cpuinfo") as info:
            for line in info:
                if line.startswith("flags"):
                    flags = set(line.split(":", 1)[1].split())
                    break
    except OSError:
        pass
    present = {"AVX": "avx", "AVX2": "avx2", "FMA3": "fma", "FP16": "f16c", "AVX512F": "avx512f"}
    features, variant = EMULATED[name]
    os.environ["OPENCV_CPU_DISABLE"] = ",".join(f for f in features if present[f] in flags)
    return variant


def peers(only_opencv=False):
    found = {}
    try:
        import cv2
        found["OpenCV " + cv2.__version__] = lambda img, s: cv2.GaussianBlur(img, (0, 0), sigmaX=s, sigmaY=s, borderType=cv2.BORDER_REPLICATE)
    except ImportError:
        print("(OpenCV not installed: skipped)")
    if only_opencv:
        return found
    try:
        from PIL import Image, ImageFilter, __version__ as pil_version

        def pillow(img, s):
            mode = "RGBa" if img.ndim == 3 else "L"
            im = Image.frombuffer(mode, (img.shape[1], img.shape[0]), img.tobytes(), "raw", mode, 0, 1)
            return np.asarray(im.filter(ImageFilter.GaussianBlur(s))).reshape(img.shape)
        found["Pillow " + pil_version] = pillow
    except ImportError:
        print("(Pillow not installed: skipped)")
    try:
        import pyvips

        def vips(img, s):
            bands = img.shape[2] if img.ndim == 3 else 1
            v = pyvips.Image.new_from_memory(img.tobytes(), img.shape[1], img.shape[0], bands, "uchar")
            out = v.gaussblur(s)
            return np.ndarray(buffer=out.write_to_memory(), dtype=np.uint8, shape=img.shape)
        found["libvips %d.%d" % (pyvips.version(0), pyvips.version(1))] = vips
    except (ImportError, OSError):
        print("(pyvips not installed: skipped)")
    return found


class Ours:
    """A `blurlabel-bench serve` process for one CPU variant (BLURLABEL_ISA is read once per process):
    each call blurs once and returns blurlabel's own time for it, so the peers can be timed in turn
    with it, run after run."""

    def __init__(self, bench, n, isa, folder):
        env = dict(os.environ, BENCH_SIZE=str(n))
        env.pop("BLURLABEL_ISA", None)
        if isa != "auto":
            env["BLURLABEL_ISA"] = isa
        self.folder = folder
        os.makedirs(folder, exist_ok=True)
        self.process = subprocess.Popen([bench, "serve", folder], env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.PIPE, text=True, bufsize=1)
        first = self.process.stdout.readline().strip()
        if not first.startswith("isa="):
            raise SystemExit(f"blurlabel-bench serve did not start: {first} {self.process.stderr.read().strip()}")
        self.ran = first[len("isa="):]

    def blur(self, kind, sigma, threads, output=None):
        """Seconds for one blur; with `output`, the result is written there."""
        return self.ask(f"{kind} {sigma!r} {threads}" + (f" {output}" if output else ""))

    def copies(self, kind, threads):
        """Seconds for two copies of the picture on `threads` threads (memory's floor for two passes)."""
        return self.ask(f"copies {kind} {threads}")

    def ask(self, line):
        """Sends one request line and returns the seconds it answers (it answers milliseconds)."""
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()
        answer = self.process.stdout.readline()
        if not answer:
            raise SystemExit(f"blurlabel-bench serve stopped: {self.process.stderr.read().strip()}")
        return float(answer) / 1000

    def close(self):
        self.process.stdin.close()
        self.process.wait()


def plot(path, results, sigmas, n, cores, emulated=None):
    """ms against σ, log scales: blurlabel beside OpenCV and libvips, every core (solid) and one core (dashed)."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import matplotlib.ticker
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.4), sharey=False)
    colours = {"blurlabel": "#c0392b", "OpenCV": "#2c7fb8", "libvips": "#31a354"}
    for ax, kind in zip(axes, ("rgba", "mask")):
        for (name, threads), times in sorted(results.items(), key=lambda item: (not item[0][0].startswith("blurlabel"), item[0][0], item[0][1] or 0)):
            family = name.split()[0]
            if family not in colours:
                continue
            ys = [times[(kind, s)] * 1000 for s in sigmas]
            label = f"{name}, {'one core' if threads == 1 else f'{cores} cores'}"
            ax.plot(sigmas, ys, marker="o", markersize=3.5, color=colours[family],
                    linestyle="--" if threads == 1 else "-", label=label)
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("σ (pixels)")
        ax.set_ylabel("ms (best of runs)")
        ax.set_title(f"{n}×{n} {'RGBA (premultiplied)' if kind == 'rgba' else 'mask (one channel)'}")
        ax.grid(True, which="both", alpha=0.3)
        ax.xaxis.set_minor_formatter(matplotlib.ticker.NullFormatter())
        ax.set_xticks(sigmas)
        ax.set_xticklabels([f"{s:g}" for s in sigmas])
    axes[0].legend(fontsize=7.5)
    fig.suptitle("Gaussian blur time against σ (lower is better)"
                 + (f", a CPU {emulated.replace('no-', 'without ').upper().replace('WITHOUT ', 'without ')} emulated" if emulated else ""))
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    print(f"plot written to {path}")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bench", default=os.path.join(HERE, "..", ".build", "ship", "bin", "blurlabel-bench"))
    parser.add_argument("--size", type=int, default=2048)
    parser.add_argument("--sigmas", default="0.5,1,2.5,5,8,20,50,100")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--threads", default="all,1", help="thread counts to measure: all (every core) and/or numbers")
    parser.add_argument("--isa", default="auto", help="blurlabel CPU variants to run (BLURLABEL_ISA): auto,baseline,v2,avx,avx2,avx512")
    parser.add_argument("--emulate", choices=sorted(EMULATED), help="a CPU without AVX2 (or AVX): blurlabel's variant for it against OpenCV limited to it")
    parser.add_argument("--plot", help="write the ms-against-σ plot to this PNG")
    parser.add_argument("--copies", action="store_true",
                        help="also time two copies of each picture (memcpy, same threads, timed in turn with the blurs) "
                             "and print blurlabel's time as a multiple of it: how far a blur is from memory's floor")
    parser.add_argument("--smoke", action="store_true",
                        help="the smallest run (CI): 256x256, σ 1 and 8, one run, every core and one, with --copies; a peer missing fails it")
    args = parser.parse_args()
    if args.smoke:
        args.size, args.sigmas, args.repeats, args.threads, args.copies = 256, "1,8", 1, "all,1", True
    sigmas = [float(s) for s in args.sigmas.split(",")]
    thread_counts = [None if t == "all" else int(t) for t in args.threads.split(",")]
    isas = args.isa.split(",")
    if args.emulate:
        variant = emulate(args.emulate)
        if args.isa == "auto":
            isas = [variant]
        print(f"emulating a CPU {args.emulate}: "
              f"OpenCV with OPENCV_CPU_DISABLE={os.environ['OPENCV_CPU_DISABLE']}, blurlabel's {','.join(isas)} variant")
    libraries = peers(only_opencv=bool(args.emulate))
    if args.smoke and len(libraries) < (1 if args.emulate else 3):
        sys.exit("blur_benchmark: --smoke runs side by side with every peer, and some are missing (Benchmarks/peers-venv)")
    n = args.size
    cores = os.cpu_count()
    results = {}  # (name, threads) -> {(kind, sigma): seconds}
    with tempfile.TemporaryDirectory() as tmp:
        servers = {}
        for isa in list(isas):
            servers[isa] = Ours(args.bench, n, isa, os.path.join(tmp, isa))
            if isa != "auto" and servers[isa].ran != isa:
                print(f"(blurlabel's {isa} variant cannot run on this CPU: its rows are left out)")
                servers.pop(isa).close()
                isas.remove(isa)
        some = servers[isas[0]].folder
        inputs = {"rgba": np.fromfile(os.path.join(some, "input-rgba.raw"), np.uint8).reshape(n, n, 4),
                  "mask": np.fromfile(os.path.join(some, "input-mask.raw"), np.uint8).reshape(n, n)}
        load = "load average %.1f %.1f %.1f" % os.getloadavg()
        print(f"{n}x{n}, best of {args.repeats} runs, each library in turn run after run, {cores} cores ({load} at the start); "
              "error in 8-bit levels against a float64 Gaussian")
        print(f"{'picture':5} {'sigma':>5} {'threads':>7}  {'library':16} {'isa':8} {'ms':>8} {'MPix/s':>8} {'max err':>7} {'mean err':>8}  blurlabel time / peer")
        for kind in ("rgba", "mask"):
            img = inputs[kind]
            for s in sigmas:
                ref = reference(img, s)
                rounded = np.clip(np.floor(ref + 0.5), 0, 255)
                for threads in thread_counts:
                    set_threads(threads)
                    # blurlabel (each variant) and every peer once each, in turn, `repeats` times:
                    # a change of load on the machine reaches all of them alike. Best time kept.
                    best = {}
                    results_of = {}
                    copies = float("inf")
                    for repeat in range(args.repeats):
                        if args.copies:
                            copies = min(copies, servers[isas[0]].copies(kind, threads or cores))
                        for isa in isas:
                            output = os.path.join(tmp, f"{isa}-{kind}.raw") if repeat == 0 else None
                            t = servers[isa].blur(kind, s, threads or cores, output)
                            best[("blurlabel", isa)] = min(best.get(("blurlabel", isa), float("inf")), t)
                            if output:
                                results_of[("blurlabel", isa)] = np.fromfile(output, np.uint8).reshape(img.shape)
                        for name, fn in libraries.items():
                            t0 = time.perf_counter()
                            result = fn(img, s)
                            t = time.perf_counter() - t0
                            best[(name, "")] = min(best.get((name, ""), float("inf")), t)
                            results_of.setdefault((name, ""), result)
                    rows = []
                    for isa in isas:
                        ran = servers[isa].ran
                        t = best[("blurlabel", isa)]
                        rows.append(("blurlabel", ran if isa == "auto" else isa, t, results_of[("blurlabel", isa)]))
                        results.setdefault((f"blurlabel ({ran})" if isa != "auto" else "blurlabel", threads), {})[(kind, s)] = t
                    mine = rows[0][2]
                    for name in libraries:
                        t = best[(name, "")]
                        rows.append((name, "", t, results_of[(name, "")]))
                        results.setdefault((name, threads), {})[(kind, s)] = t
                    for name, isa, t, result in rows:
                        d = np.abs(result.astype(np.float64) - rounded)
                        ratio = "" if name == "blurlabel" else f"{mine / t:6.2f}x"
                        print(f"{kind:5} {s:5g} {threads or cores:7}  {name:16} {isa:8} {t * 1000:8.1f} {n * n / t / 1e6:8.0f} {d.max():7.0f} {d.mean():8.3f}  {ratio}")
                    if args.copies:
                        print(f"{kind:5} {s:5g} {threads or cores:7}  {'two copies':16} {'memcpy':8} {copies * 1000:8.1f} "
                              f"{n * n / copies / 1e6:8.0f} {'':7} {'':8}  {mine / copies:6.2f}x (blurlabel / two copies)")
                    sys.stdout.flush()
        for server in servers.values():
            server.close()
    set_threads(None)
    print("load average %.1f %.1f %.1f at the end" % os.getloadavg())
    if args.plot:
        # blurlabel's default variant only, or the emulated CPU's variant with --emulate
        plot(args.plot, {k: v for k, v in results.items() if args.emulate or not k[0].startswith("blurlabel (")}, sigmas, n, cores,
             emulated=args.emulate)


if __name__ == "__main__":
    main()
