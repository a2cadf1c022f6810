#!/usr/bin/env python3
"""Side-by-side Gaussian blur benchmark: blurlabel against OpenCV, Pillow and libvips, on the
same 2048x2048 RGBA (premultiplied) and mask pictures, in one run.

For every library and sigma it prints the best time of several runs, MPix/s, and the error
against a float64 sampled Gaussian (support ±6σ, edges repeated), in 8-bit levels: the largest
and the mean difference from the rounded reference. Then blurlabel's time as a ratio to each peer
(below 1 means blurlabel is faster). Run it with Benchmarks/run-blur (README).
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


def best_of(fn, repeats):
    best, result = float("inf"), None
    for _ in range(repeats):
        t0 = time.perf_counter()
        result = fn()
        best = min(best, time.perf_counter() - t0)
    return best, result


def peers():
    found = {}
    try:
        import cv2
        found["OpenCV " + cv2.__version__] = lambda img, s: cv2.GaussianBlur(img, (0, 0), sigmaX=s, sigmaY=s, borderType=cv2.BORDER_REPLICATE)
    except ImportError:
        print("(OpenCV not installed: skipped)")
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


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bench", default=os.path.join(HERE, "..", ".build", "release", "blurlabel-bench"))
    parser.add_argument("--size", type=int, default=2048)
    parser.add_argument("--sigmas", default="1,2.5,8,20,50")
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    sigmas = [float(s) for s in args.sigmas.split(",")]
    libraries = peers()
    n = args.size
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, BENCH_SIZE=str(n), BENCH_REPEATS=str(args.repeats))
        lines = subprocess.run([args.bench, "blur", args.sigmas, tmp], env=env, check=True, capture_output=True, text=True).stdout
        ours = {}
        for line in lines.splitlines():
            parts = dict(p.split("=") for p in line.split()[2:])
            ours[(line.split()[1], float(parts["sigma"]))] = float(parts["ms"]) / 1000
        inputs = {"rgba": np.fromfile(os.path.join(tmp, "input-rgba.raw"), np.uint8).reshape(n, n, 4),
                  "mask": np.fromfile(os.path.join(tmp, "input-mask.raw"), np.uint8).reshape(n, n)}
        print(f"{n}x{n}, best of {args.repeats} runs, {os.cpu_count()} cores; error in 8-bit levels against a float64 Gaussian")
        print(f"{'picture':5} {'sigma':>5}  {'library':16} {'ms':>8} {'MPix/s':>8} {'max err':>7} {'mean err':>8}  blurlabel time / peer")
        for kind in ("rgba", "mask"):
            img = inputs[kind]
            for s in sigmas:
                ref = reference(img, s)
                rounded = np.clip(np.floor(ref + 0.5), 0, 255)
                rows = []
                out = np.fromfile(os.path.join(tmp, f"blurlabel-{kind}-{s}.raw"), np.uint8).reshape(img.shape)
                rows.append(("blurlabel", ours[(kind, s)], out))
                for name, fn in libraries.items():
                    t, result = best_of(lambda: fn(img, s), args.repeats)
                    rows.append((name, t, result))
                for name, t, result in rows:
                    d = np.abs(result.astype(np.float64) - rounded)
                    ratio = "" if name == "blurlabel" else f"{ours[(kind, s)] / t:6.2f}x"
                    print(f"{kind:5} {s:5g}  {name:16} {t * 1000:8.1f} {n * n / t / 1e6:8.0f} {d.max():7.0f} {d.mean():8.3f}  {ratio}")
                sys.stdout.flush()


if __name__ == "__main__":
    main()
