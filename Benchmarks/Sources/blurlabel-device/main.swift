import BenchPictures
import BlurredLabelCore

#if canImport(Glibc)
import Glibc
#endif

/// The checks that need another machine (the 16-core device, an AVX-512 CPU), in one small
/// executable with no Foundation, so its static build is small enough to carry there
/// (`scripts/device/prepare`, which also runs it here for the expected answers):
///
///     blurlabel-device variants          every CPU variant this CPU runs, at 1, 3 and every thread,
///                                        against the baseline at one thread; a digest of the bytes
///     blurlabel-device scaling [SIZE] [SIGMAS] [THREADS] [REPEATS]
///                                        blur time by thread count, best of REPEATS, and the
///                                        speed-up over the first count (one thread by default) (default 4096, 1,2.5,8,20,
///                                        1,2,4,8,16, 5)

func seconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

/// A line on standard error (write(2): the C library's `stderr` is shared mutable state to Swift 6).
func printError(_ line: String) {
    let bytes = Array((line + "\n").utf8)
    _ = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
}

func fail(_ message: String) -> Never {
    printError("blurlabel-device: \(message)")
    exit(2)
}

/// Decimal text of `value` with `places` digits after the point (no Foundation formatting).
func fixed(_ value: Double, _ places: Int) -> String {
    let scale = (0..<places).reduce(1) { result, _ in result * 10 }
    let scaled = Int((value * Double(scale)).rounded())
    let whole = String(scaled / scale)
    let fraction = String(scaled % scale)
    return places == 0 ? whole : whole + "." + String(repeating: "0", count: places - fraction.count) + fraction
}

/// FNV-1a, 64 bits: the same bytes give the same digest on every machine.
struct Digest {
    var value: UInt64 = 0xcbf2_9ce4_8422_2325
    mutating func add(_ bytes: [UInt8]) {
        for byte in bytes { value = (value ^ UInt64(byte)) &* 0x100_0000_01b3 }
    }
    var hex: String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}

func checkVariants() -> Int32 {
    let variants = BlurKernelVariant.allCases.filter(\.isSupported)
    let sigmas: [Double] = [0.25, 0.5, 0.7, 1, 1.2, 1.7, 2.5, 2.99, 3, 8, 8.99, 9, 20, 60]
    let threadCounts = Array(Set([1, 3, defaultThreadCount])).sorted()
    print("cores: \(defaultThreadCount); variants this CPU runs: \(variants.map(\.rawValue).joined(separator: " "))")
    var digest = Digest()
    var checked = 0
    var differing: [String] = []
    do {
        for (width, height) in [(203, 71), (517, 29), (1031, 257)] {
            let image = try Image(
                width: width,
                height: height,
                premultipliedRGBA: testPicture(width: width, height: height, channels: 4)
            )
            let mask = try CoverageMask(
                width: width,
                height: height,
                values: testPicture(width: width, height: height, channels: 1)
            )
            for sigma in sigmas {
                for edges in [BlurEdges.clamp, .transparent] {
                    let blur = try GaussianBlur(sigma: sigma, edges: edges)
                    let reference = (
                        blur.using(.baseline).apply(to: image, threads: 1).pixels,
                        blur.using(.baseline).apply(to: mask, threads: 1).values
                    )
                    digest.add(reference.0)
                    digest.add(reference.1)
                    for variant in variants {
                        for threads in threadCounts {
                            let what =
                                "\(variant.rawValue) \(width)x\(height) sigma \(sigma) \(edges) \(threads) threads"
                            if blur.using(variant).apply(to: image, threads: threads).pixels != reference.0 {
                                differing.append("RGBA " + what)
                            }
                            if blur.using(variant).apply(to: mask, threads: threads).values != reference.1 {
                                differing.append("mask " + what)
                            }
                            checked += 2
                        }
                    }
                }
            }
        }
    } catch {
        fail("\(error)")
    }
    for line in differing.prefix(20) { print("DIFFERS: \(line)") }
    print("checked \(checked) blurs against the baseline at one thread: \(differing.count) differ")
    print("digest \(digest.hex)")
    return differing.isEmpty ? 0 : 1
}

func measureScaling(arguments: [String]) {
    func list<T>(_ index: Int, _ fallback: String, _ parse: (Substring) -> T?) -> [T] {
        let text = arguments.count > index ? arguments[index] : fallback
        return text.split(separator: ",").map { field in
            guard let value = parse(field) else { fail("cannot read \"\(field)\" in \(text)") }
            return value
        }
    }
    let size = list(2, "4096") { Int($0) }[0]
    let sigmas = list(3, "1,2.5,8,20") { Double($0) }
    let threadCounts = list(4, "1,2,4,8,16") { Int($0) }
    let repeats = list(5, "5") { Int($0) }[0]
    guard size > 0, size <= 16384, repeats > 0, threadCounts.allSatisfy({ $0 > 0 }) else {
        fail("size 1...16384, counts above 0")
    }
    print(
        "\(size)x\(size), best of \(repeats), variant \(BlurKernelVariant.active.rawValue), \(defaultThreadCount) cores"
    )
    print("picture sigma threads ms speed-up")
    do {
        let (image, mask) = try testPictures(size: size)
        for kind in ["rgba", "mask"] {
            for sigma in sigmas {
                let blur = try GaussianBlur(sigma: sigma, edges: .clamp)
                var first = 0.0
                for threads in threadCounts {
                    var best = Double.infinity
                    for _ in 0..<repeats {
                        let start = seconds()
                        if kind == "rgba" {
                            _ = blur.apply(to: image, threads: threads)
                        } else {
                            _ = blur.apply(to: mask, threads: threads)
                        }
                        best = min(best, seconds() - start)
                    }
                    if threads == threadCounts[0] { first = best }
                    print("\(kind) \(sigma) \(threads) \(fixed(best * 1000, 2)) \(fixed(first / best, 2))x")
                }
            }
        }
    } catch {
        fail("\(error)")
    }
}

let arguments = CommandLine.arguments
switch arguments.count > 1 ? arguments[1] : "" {
case "variants": exit(checkVariants())
case "scaling": measureScaling(arguments: arguments)
default:
    printError("usage: blurlabel-device variants | scaling [SIZE] [SIGMAS] [THREADS] [REPEATS]")
    exit(2)
}
