// swift-tools-version:6.0
import PackageDescription

/// A C library found through pkg-config, installed from Debian's -dev package.
func systemLibrary(_ name: String, pkgConfig: String, apt: [String]) -> Target {
    .systemLibrary(name: name, pkgConfig: pkgConfig, providers: [.apt(apt)])
}

let package = Package(
    name: "blurlabel",
    products: [
        .library(name: "BlurredLabelKit", targets: ["BlurredLabelKit"]),
        .library(name: "GoldenImage", targets: ["GoldenImage"]),
        .executable(name: "blurlabel", targets: ["blurlabel"]),
        .executable(name: "blurlabel-serve", targets: ["blurlabel-serve"]),
    ],
    targets: [
        systemLibrary("CPNG", pkgConfig: "libpng", apt: ["libpng-dev"]),
        systemLibrary("CFreeType", pkgConfig: "freetype2", apt: ["libfreetype-dev"]),
        systemLibrary("CHarfBuzz", pkgConfig: "harfbuzz", apt: ["libharfbuzz-dev"]),
        // FriBiDi, jansson and libdeflate are linked from Debian's static archives (their module
        // maps name `libfribidi.a`, `libjansson.a` and `libdeflate.a`; no pkg-config, whose flags
        // would link the shared library too): each shared library costs every process start its opening, mapping,
        // relocation and symbol searches, about 0.15 ms each of a one-label run
        // (Benchmarks/run-oneshot). HarfBuzz, FreeType, libpng and zlib stay shared: Debian ships
        // no static HarfBuzz, and HarfBuzz loads the shared FreeType, libpng and zlib anyway.
        .systemLibrary(name: "CFriBiDi", providers: [.apt(["libfribidi-dev"])]),
        // fontconfig's header only, not linked: Text/Fontconfig.swift opens the library when a family
        // name or system fallback first needs it, so most process starts never load it.
        .systemLibrary(name: "CFontconfig", providers: [.apt(["libfontconfig-dev"])]),
        systemLibrary("CZlib", pkgConfig: "zlib", apt: ["zlib1g-dev"]),
        // JSON for batch manifests and the comparison report (FoundationEssentials' coders would
        // add about 0.4 ms to every process start of the statically linked binary: README).
        .systemLibrary(name: "CJansson", providers: [.apt(["libjansson-dev"])]),
        // libdeflate compresses small PNG files (labels) whole in one call: smaller files than
        // zlib's, in fewer instructions (SmallPNGWriter). Linked from Debian's static archive, like
        // FriBiDi and jansson; zlib stays for streams (libpng, ParallelPNGWriter).
        .systemLibrary(name: "CDeflate", providers: [.apt(["libdeflate-dev"])]),
        // WebP (libwebp 1.2, no libsharpyuv beside it) from Debian's static archive, like the three above.
        .systemLibrary(name: "CWebP", providers: [.apt(["libwebp-dev"])]),
        // libavif's header only, not linked: Codecs/AVIFLibrary.swift opens libavif.so.15 when an
        // AVIF file is first written or read. Debian ships no static libavif, and the shared one
        // brings four AV1 codecs (about 20 MB) to every process start.
        .systemLibrary(name: "CAVIF", providers: [.apt(["libavif-dev"])]),
        // libpng reports errors by longjmp; this shim owns the setjmp so no Swift frame is skipped.
        .target(name: "CPNGShim", dependencies: ["CPNG", "CZlib"]),
        // The blur's inner loops, vectorized by the C compiler (see its header for why C).
        .target(name: "CBlurKernels"),
        // The PNG codec's own per-CPU loops (the Paeth filter of opaque frames), built like the blur's.
        .target(name: "CPNGKernels"),
        // ThreadSanitizer's mutex annotations for `LockedValue`: live under --sanitize=thread, empty otherwise.
        .target(name: "CThreadSanitizer"),
        // sched_getaffinity (a GNU extension Swift's Glibc does not declare): the CPUs the process may use.
        .target(name: "CCPUSet"),
        // The default fonts, embedded with .incbin from the top-level Fonts/ folder.
        .target(name: "CEmbeddedFonts", cSettings: [.headerSearchPath("../../Fonts")]),
        // The layers below the engine, each depending only on those under it (docs/DESIGN.md, "Modules"):
        // the system layer (locks, worker pool, system calls, files), pixels (pictures, colours, the
        // per-CPU kernels' choice), codecs (PNG and its deflaters, WebP, AVIF) and text (fonts, shaping, glyphs).
        .target(name: "BlurLabelSystem", dependencies: ["CThreadSanitizer", "CCPUSet"]),
        .target(name: "BlurLabelPixels", dependencies: ["BlurLabelSystem", "CBlurKernels"]),
        .target(
            name: "BlurLabelCodecs",
            dependencies: ["BlurLabelSystem", "BlurLabelPixels", "CPNGShim", "CZlib", "CDeflate", "CPNGKernels", "CWebP", "CAVIF"]
        ),
        .target(
            name: "BlurLabelText",
            dependencies: ["BlurLabelSystem", "BlurLabelPixels", "CFreeType", "CHarfBuzz", "CFriBiDi", "CFontconfig", "CEmbeddedFonts"]
        ),
        // The engine: labels, blur, redaction, levels, comparison, over the layers above (re-exported).
        // No Swift Concurrency, so the command-line tool, which links only this, starts without its
        // runtime and libdispatch.
        .target(
            name: "BlurredLabelCore",
            dependencies: ["BlurLabelSystem", "BlurLabelPixels", "BlurLabelCodecs", "BlurLabelText", "CBlurKernels", "CJansson"]
        ),
        // The library: the engine re-exported, plus the `BlurLevels` actor.
        .target(name: "BlurredLabelKit", dependencies: ["BlurredLabelCore"]),
        .target(name: "GoldenImage", dependencies: ["BlurLabelSystem", "BlurredLabelCore"]),
        // renameat2(RENAME_NOREPLACE) (a GNU extension Swift's Glibc does not declare): batch
        // publishes an output only where no other process already has.
        .target(name: "CRenameNoReplace"),
        .target(name: "BlurLabelCLI", dependencies: ["BlurLabelSystem", "BlurredLabelCore", "CRenameNoReplace"]),
        // The arguments for `CommandLine`, kept from glibc so the Swift runtime's start-up search
        // for them (a /proc/self/maps read) is not linked in.
        .target(name: "CProcessArguments"),
        // serve's, sign's and edit's settings, options and URL label options, parsed by the command
        // line's parser: blurlabel-serve runs them, and `blurlabel` lists their options in its manual
        // page, completions and option tables (it links no HTTP or crypto library for that).
        .target(name: "BlurLabelServeSettings", dependencies: ["BlurLabelCLI", "BlurredLabelCore", "BlurLabelSystem"]),
        .executableTarget(name: "blurlabel", dependencies: ["BlurLabelCLI", "BlurLabelServeSettings", "CProcessArguments"]),
        // HTTP (libmicrohttpd) and crypto (OpenSSL's libcrypto) for `blurlabel serve` and `sign`:
        // a separate executable that `blurlabel` execs, so a one-label `render` loads neither.
        systemLibrary("CMicroHTTPD", pkgConfig: "libmicrohttpd", apt: ["libmicrohttpd-dev"]),
        systemLibrary("CCrypto", pkgConfig: "libcrypto", apt: ["libssl-dev"]),
        // MHD_start_daemon's options are C variadic arguments, which Swift cannot pass.
        .target(name: "CHTTPShim", dependencies: ["CMicroHTTPD"]),
        // The HTTP layer `serve` and `edit` share: request -> handler -> response, limits, workers.
        .target(name: "HTTPServer", dependencies: ["CHTTPShim", "CMicroHTTPD", "BlurLabelSystem"]),
        // Labels over HTTP: signed URLs, encrypted texts, the cache, metrics, `sign`.
        // (BlurLabelCLI directly for three things: the version, in ETags and /metrics; `GivenOptions`,
        // a URL label's parsed options; `decodeStill`, which edit reads its picture with, as redact does.)
        .target(
            name: "BlurLabelServe",
            dependencies: ["BlurLabelServeSettings", "BlurLabelSystem", "BlurLabelCLI", "BlurredLabelCore", "HTTPServer", "CCrypto"],
            // `blurlabel edit`'s page, compiled into the binary as bytes: nothing to install beside it.
            resources: [.embedInCode("Resources/edit.html")]
        ),
        .executableTarget(name: "blurlabel-serve", dependencies: ["BlurLabelServe", "CProcessArguments"]),
        // Benchmark and test-only targets stay in this manifest rather than a Benchmarks/Package.swift
        // (swift-nio's layout): they measure and check stages that are `package`, not public (the PNG
        // writers, file output, the blur's CPU variants, the pipeline's phases), and `package` access
        // reaches only this package's own targets. They are in no product, so a package that depends
        // on blurlabel never builds them.
        .executableTarget(
            name: "blurlabel-bench",
            dependencies: ["BlurredLabelCore", "BenchPictures", "CReferencePNGFilter", "CReferenceRunDeflate", "CZlib", "CDeflate"],
            path: "Benchmarks/Sources/blurlabel-bench"
        ),
        // The checks for another machine (16 cores, AVX-512), without Foundation so its static
        // build travels light: scripts/device/prepare.
        .executableTarget(
            name: "blurlabel-device",
            dependencies: ["BlurredLabelCore", "BenchPictures"],
            path: "Benchmarks/Sources/blurlabel-device"
        ),
        // The benchmarks' shared test picture.
        .target(name: "BenchPictures", dependencies: ["BlurredLabelCore"], path: "Benchmarks/Sources/BenchPictures"),
        // The C PNG row filter the package replaced with Swift, kept only to re-check that choice.
        .target(name: "CReferencePNGFilter", path: "Benchmarks/Sources/CReferencePNGFilter"),
        // The C run-length deflate `RunDeflateEncoder` (Swift) replaced, kept to re-check that choice.
        .target(name: "CReferenceRunDeflate", path: "Benchmarks/Sources/CReferenceRunDeflate"),
        // Test only: the AVX-512 kernels' source built for any x86-64, its AVX-512 instructions
        // emulated by SIMDe, so their bytes are checked on CPUs without AVX-512.
        .target(name: "CBlurKernelsAVX512Emulated", dependencies: ["CBlurKernels"], path: "Tests/CBlurKernelsAVX512Emulated",
                cSettings: [.headerSearchPath("../../Sources/CBlurKernels/include")]),
        // The engine's tests; BlurredLabelKitTests checks what the Kit adds (BlurLevels, its errors' texts).
        .testTarget(name: "BlurredLabelCoreTests", dependencies: ["BlurLabelSystem", "BlurLabelPixels", "BlurLabelCodecs", "BlurLabelText", "BlurredLabelCore", "GoldenImage", "CBlurKernelsAVX512Emulated", "CPNGKernels"],
                    resources: [.copy("Fixtures")]),
        .testTarget(name: "BlurredLabelKitTests", dependencies: ["BlurLabelSystem", "BlurLabelPixels", "BlurLabelCodecs", "BlurLabelText", "BlurredLabelKit", "BlurredLabelCore", "GoldenImage"]),
        .testTarget(name: "BlurLabelSystemTests", dependencies: ["BlurLabelSystem", "CCPUSet"]),
        .testTarget(name: "GoldenImageTests", dependencies: ["GoldenImage"], resources: [.copy("Fixtures")]),
        .testTarget(
            name: "BlurLabelCLITests",
            dependencies: ["BlurLabelSystem", "BlurLabelPixels", "BlurLabelCodecs", "BlurLabelText", "BlurLabelCLI", "BlurLabelServeSettings", "BlurredLabelCore", "BlurredLabelKit"]
        ),
        .testTarget(
            name: "BlurLabelServeTests",
            dependencies: ["BlurLabelSystem", "BlurLabelPixels", "BlurLabelCodecs", "BlurLabelText", "BlurLabelServe", "BlurLabelServeSettings", "HTTPServer", "BlurLabelCLI", "BlurredLabelCore"]
        ),
    ]
)
