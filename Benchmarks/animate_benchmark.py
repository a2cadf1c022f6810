#!/usr/bin/env python3
"""A user's job, timed side by side: the PNG frames of a screenshot's blur from sharp to σ R in N
steps (default 21 frames, σ 0 to 20, of a 3840x2160 screenshot).

blurlabel: `blurlabel animate --image shot.png --steps N --max-radius R --frames DIR`, one process.
OpenCV: Python reading the same PNG (cv2.imread), then for every frame cv2.GaussianBlur with that
σ (edges repeated, as blurlabel's) and cv2.imwrite with its default PNG settings, the frames
spread over a thread pool of every core (OpenCV lets go of the GIL), cv2.setNumThreads(every core).
Both write into a fresh folder on the same file system; the time is the whole job, best of
--repeats. Prints both times, the ratio (goal: blurlabel at least 3x faster), both jobs' CPU
time (user + system, least of the runs: it moves less with the other workers' load), both
folders' total bytes and the largest per-frame size ratio (goal: no frame larger than OpenCV's), and the largest
pixel difference between the two (the blurs are not the same filter: OpenCV truncates its kernel).

The screenshot is made here, deterministic: flat panels, text, thin rules, a gradient and a
photo-like region (smoothed noise), opaque RGB as a screenshot is.

Benchmarks/run-animate runs it; CI runs it at a tiny size (--size 96x54 --repeats 1) so it keeps
working, where the times mean nothing. Exit status 1 only if a run fails.
"""
import argparse, os, resource, shutil, subprocess, sys, tempfile, time
from concurrent.futures import ThreadPoolExecutor

import cv2
import numpy as np


def screenshot(width, height):
    """A screenshot-like BGR picture, the same every run."""
    rng = np.random.default_rng(31)
    img = np.full((height, width, 3), (246, 244, 240), np.uint8)
    s = max(1, width // 384)  # scale: 10 at 3840 wide
    # Side bar, title bar, panels.
    cv2.rectangle(img, (0, 0), (width // 6, height), (58, 46, 40), -1)
    cv2.rectangle(img, (0, 0), (width, 6 * s), (90, 70, 50), -1)
    for k in range(6):
        x0 = width // 6 + s * 4 + (k % 3) * (width * 5 // 18)
        y0 = 10 * s + (k // 3) * (height // 2)
        cv2.rectangle(img, (x0, y0), (x0 + width * 5 // 18 - 4 * s, y0 + height // 2 - 12 * s), (255, 255, 255), -1)
        cv2.rectangle(img, (x0, y0), (x0 + width * 5 // 18 - 4 * s, y0 + height // 2 - 12 * s), (210, 205, 200), max(1, s // 4))
    # A gradient banner.
    g = np.linspace(0, 1, width // 2)[None, :, None]
    banner = (np.array([200, 120, 40]) * (1 - g) + np.array([60, 180, 240]) * g).astype(np.uint8)
    y0, y1 = 12 * s, 12 * s + height // 8
    img[y0:y1, width // 4:width // 4 + width // 2] = banner
    # A photo: smoothed noise.
    h, w = height // 3, width // 3
    photo = rng.integers(0, 256, (max(1, h // 8), max(1, w // 8), 3), dtype=np.uint8)
    photo = cv2.resize(photo, (w, h), interpolation=cv2.INTER_CUBIC)
    photo = cv2.add(photo, rng.integers(0, 12, (h, w, 3), dtype=np.uint8))
    img[height // 2:height // 2 + h, width // 2:width // 2 + w] = photo
    # Text and rules.
    font = cv2.FONT_HERSHEY_SIMPLEX
    for row in range(max(1, height // (4 * s)) // 3):
        y = 20 * s + row * 4 * s
        if y >= height:
            break
        cv2.putText(img, "Item %03d  56.00 EUR  blurlabel frames" % row, (width // 6 + 8 * s, y), font, s / 12, (30, 30, 30), max(1, s // 8), cv2.LINE_AA)
        cv2.line(img, (width // 6 + 8 * s, y + s), (width - 8 * s, y + s), (225, 225, 225), 1)
    for row in range(max(1, height // (6 * s))):
        cv2.putText(img, "Menu %d" % row, (2 * s, 12 * s + row * 6 * s), font, s / 10, (235, 235, 235), max(1, s // 6), cv2.LINE_AA)
    return img


def opencv_frames(src, out, sigmas, threads):
    img = cv2.imread(src, cv2.IMREAD_UNCHANGED)

    def one(i):
        frame = img if sigmas[i] == 0 else cv2.GaussianBlur(img, (0, 0), sigmas[i], borderType=cv2.BORDER_REPLICATE)
        if not cv2.imwrite(os.path.join(out, "frame-%03d.png" % i), frame):
            raise RuntimeError("cv2.imwrite failed")

    with ThreadPoolExecutor(threads) as pool:
        list(pool.map(one, range(len(sigmas))))


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--blurlabel", required=True, help="the blurlabel executable")
    p.add_argument("--size", default="3840x2160")
    p.add_argument("--steps", type=int, default=20)
    p.add_argument("--max-radius", type=float, default=20)
    p.add_argument("--repeats", type=int, default=3)
    p.add_argument("--keep", help="leave the picture and both frame folders here")
    a = p.parse_args()
    width, height = map(int, a.size.lower().split("x"))
    threads = os.cpu_count()
    cv2.setNumThreads(threads)
    sigmas = [a.max_radius * i / a.steps for i in range(a.steps + 1)]
    work = a.keep or tempfile.mkdtemp(prefix="animate-bench-")
    os.makedirs(work, exist_ok=True)
    src = os.path.join(work, "screenshot.png")
    cv2.imwrite(src, screenshot(width, height))
    print("%dx%d screenshot (%d bytes), %d frames (sigma 0 to %g), %d cores" % (width, height, os.path.getsize(src), len(sigmas), a.max_radius, threads))

    def fresh(name):
        path = os.path.join(work, name)
        shutil.rmtree(path, ignore_errors=True)
        os.makedirs(path)
        return path

    best = {"blurlabel": float("inf"), "opencv": float("inf")}
    cpu = {"blurlabel": float("inf"), "opencv": float("inf")}  # user + system seconds, least of the runs
    for _ in range(a.repeats):
        out = fresh("blurlabel")
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.perf_counter()
        subprocess.run([a.blurlabel, "animate", "--image", src, "--steps", str(a.steps), "--max-radius", repr(a.max_radius), "--frames", out], check=True)
        best["blurlabel"] = min(best["blurlabel"], time.perf_counter() - t0)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu["blurlabel"] = min(cpu["blurlabel"], after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
        out = fresh("opencv")
        c0 = time.process_time()  # every thread of this process
        t0 = time.perf_counter()
        opencv_frames(src, out, sigmas, threads)
        best["opencv"] = min(best["opencv"], time.perf_counter() - t0)
        cpu["opencv"] = min(cpu["opencv"], time.process_time() - c0)

    sizes = {}
    for name in best:
        sizes[name] = [os.path.getsize(os.path.join(work, name, "frame-%03d.png" % i)) for i in range(len(sigmas))]
    worst = max(b / o for b, o in zip(sizes["blurlabel"], sizes["opencv"]))
    difference = 0
    for i in range(len(sigmas)):
        ours = cv2.imread(os.path.join(work, "blurlabel", "frame-%03d.png" % i), cv2.IMREAD_UNCHANGED)
        theirs = cv2.imread(os.path.join(work, "opencv", "frame-%03d.png" % i), cv2.IMREAD_UNCHANGED)
        difference = max(difference, int(np.abs(ours.astype(int) - theirs.astype(int)).max()))
    ratio = best["opencv"] / best["blurlabel"]
    print("blurlabel animate --image: %8.1f ms, %11d bytes" % (best["blurlabel"] * 1000, sum(sizes["blurlabel"])))
    print("OpenCV (cv2, %d threads): %8.1f ms, %11d bytes" % (threads, best["opencv"] * 1000, sum(sizes["opencv"])))
    print("blurlabel is %.2fx as fast as OpenCV (goal: 3x or more: %s)" % (ratio, "met" if ratio >= 3 else "NOT met"))
    # CPU time moves less with the other workers' load than wall time does: shown beside it.
    print("CPU (user + system): blurlabel %.2f s, OpenCV %.2f s, %.2fx less" % (cpu["blurlabel"], cpu["opencv"], cpu["opencv"] / max(cpu["blurlabel"], 1e-9)))
    print("largest frame size ratio blurlabel/OpenCV: %.3f (goal: at most 1: %s)" % (worst, "met" if worst <= 1 else "NOT met"))
    print("largest pixel difference between the two: %d levels (different kernels)" % difference)
    if not a.keep:
        shutil.rmtree(work)


if __name__ == "__main__":
    main()
