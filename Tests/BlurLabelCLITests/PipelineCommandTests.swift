import BlurredLabelCore
import BlurredLabelKit
import Foundation
import Synchronization
import Testing

@testable import BlurLabelCLI

#if canImport(Glibc)
import Glibc
#endif

/// Runs the built `blurlabel` as a child process (output discarded); with `stopAfter`, sends it
/// SIGINT after that many seconds. Returns its exit status, its CPU time (user and system, from
/// wait4) and its peak resident memory in MB:
/// the child's own VmHWM from /proc, read every millisecond or so until it exits. (wait4's
/// ru_maxrss would not do: a child started by vfork or fork inherits its parent's high-water
/// mark when it execs.)
func runChild(
    _ arguments: [String],
    stopAfter: Double? = nil
) throws -> (
    status: Int32, peakMB: Double, cpuSeconds: Double
) {
    let childDeadline = 300.0
    let executable = try BuiltExecutable.path()
    let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    var pid: pid_t = 0
    let spawned = argv.withUnsafeBufferPointer {
        posix_spawn(&pid, executable, &actions, nil, $0.baseAddress!, environ)
    }
    try #require(spawned == 0)
    let started = Date()
    var peakKB = 0
    var status: Int32 = 0
    var usage = rusage()
    var stopped = false
    while true {
        if let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
            let kb = Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
        {
            peakKB = max(peakKB, kb)
        }
        if let stopAfter, !stopped, Date().timeIntervalSince(started) >= stopAfter {
            kill(pid, SIGINT)
            stopped = true
        }
        // A child that outlives any sane run (e.g. one that ignored the SIGINT) is killed, so a
        // failing test never leaves a `batch /dev/zero` running on the machine.
        if Date().timeIntervalSince(started) >= childDeadline {
            kill(pid, SIGKILL)
            Issue.record(
                "blurlabel \(arguments.joined(separator: " ")) still ran after \(Int(childDeadline)) s; killed"
            )
        }
        let done = wait4(pid, &status, WNOHANG, &usage)
        if done == pid { break }
        if done < 0 && errno != EINTR { break }
        usleep(1_000)
    }
    let exit = status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
    return (exit, Double(peakKB) / 1024, seconds(usage.ru_utime) + seconds(usage.ru_stime))
}

@Suite("animate: secure, validated, streamed")
struct AnimatePipelineTests {
    @Test func secureAnimationsOfTwoSecretsAreByteIdentical() throws {
        let folder = try temporaryFolder()
        for (name, secret) in [("a", "12.34 €"), ("b", "5.00 €")] {
            let result = run([
                "animate", secret, "--secure", "--format", "##.## €", "--seed", "7", "--steps", "5", "--max-radius",
                "6", "-o", "\(folder)/\(name).png",
            ])
            #expect(result.status == 0, "\(result.err)")
        }
        #expect(try FileIO.read(folder + "/a.png") == FileIO.read(folder + "/b.png"))
        // No sharp frame: the animation starts at the first blur step.
        #expect(
            run([
                "animate", "12.34 €", "--secure", "--format", "##.## €", "--seed", "7", "--steps", "5", "--max-radius",
                "6",
                "--frames", folder + "/f",
            ]).status == 0
        )
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder + "/f").count == 5)
        #expect(run(["animate", "12.34 €", "--steps", "5", "--frames", folder + "/p"]).status == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder + "/p").count == 6)
        #expect(run(["animate", "--help"]).out.contains("first blur step"))
    }

    @Test func streamedAPNGEqualsTheWholeSetsEncoding() throws {
        let folder = try temporaryFolder()
        #expect(
            run([
                "animate", "56.00 €", "--steps", "4", "--max-radius", "6", "--bounce", "--color", "#c00", "-o",
                folder + "/a.png",
            ]).status == 0
        )
        var frames = try BlurLevels.build(
            text: "56.00 €",
            style: LabelStyle(color: try Color(parsing: "#c00")),
            maxRadius: 6,
            steps: 4
        )
        frames += frames.dropFirst().dropLast().reversed()
        #expect(try FileIO.read(folder + "/a.png") == APNGWriter().encode(frames, delay: 1.0 / Double(frames.count)))
    }

    @Test(
        "impossible animations are refused before any frame is made",
        arguments: [
            (["--duration", "3600", "--steps", "1"], "a frame may last at most"),
            (["--duration", "4000"], "--duration must be from 0 to 3600"),
            (["--steps", "1001"], "--steps must be from 1 to 1000"),
            (["--max-radius", "1001"], "--max-radius must be from 0 to 1000"),
            (["--steps", "1000", "--max-radius", "1000"], "exceed the limit"),
            (["--seed", "3"], "only apply with --secure"),
        ]
    )
    func refusedUpFront(extra: [String], message: String) throws {
        let folder = try temporaryFolder()
        let result = run(["animate", "56", "-o", folder + "/x.png"] + extra)
        #expect(result.status == 2 && result.err.contains(message), "\(result.err)")
        #expect(result.err.filter { $0 == "\n" }.count == 1)
        #expect(!FileManager.default.fileExists(atPath: folder + "/x.png"))
    }

    @Test
    func framesStreamSoMemoryDoesNotGrowWithTheirCount() throws {
        let folder = try temporaryFolder()
        // 101 frames of about 640x625 RGBA: 160 MB if they were all held at once.
        let child = try runChild(["animate", "56", "--steps", "100", "--max-radius", "100", "-o", folder + "/a.png"])
        #expect(child.status == 0)
        #expect(child.peakMB < 100, "peak \(child.peakMB) MB")
        let file = try FileIO.read(folder + "/a.png")
        let fcTL = Array("fcTL".utf8)
        #expect((0..<(file.count - 4)).filter { file[$0..<($0 + 4)].elementsEqual(fcTL) }.count == 101)
    }
}

@Suite("manifest options are typed and strict")
struct StrictManifestTests {
    @Test("a flag must be a JSON boolean", arguments: ["\"yes\"", "1", "\"TRUE\"", "\"true\"", "0", "\"\""])
    func flagsAreStrict(value: String) throws {
        let folder = try temporaryFolder()
        let manifest = try writeManifest([#"{"text":"12.34 €","output":"a.png","secure":\#(value)}"#], in: folder)
        let result = run(["batch", manifest, "--out", folder + "/out"])
        #expect(
            result.status == 2 && result.err.contains("line 1: \"secure\" must be true or false (a JSON boolean)"),
            "\(result.err)"
        )
        #expect(files(in: folder + "/out").isEmpty)
    }

    @Test func trueAndFalseWork() throws {
        let folder = try temporaryFolder()
        let manifest = try writeManifest(
            [
                ###"{"text":"12.34 €","output":"s.png","secure":true,"format":"##.## €","seed":7}"###,
                #"{"text":"12.34 €","output":"p.png","secure":false}"#,
            ],
            in: folder
        )
        #expect(run(["batch", manifest, "--out", folder + "/out"]).status == 0)
        #expect(
            run(["render", "12.34 €", "--secure", "--format", "##.## €", "--seed", "7", "-o", folder + "/s.png"]).status
                == 0
        )
        #expect(run(["render", "12.34 €", "-o", folder + "/p.png"]).status == 0)
        #expect(try FileIO.read(folder + "/out/s.png") == FileIO.read(folder + "/s.png"))
        #expect(try FileIO.read(folder + "/out/p.png") == FileIO.read(folder + "/p.png"))
    }

    @Test func numbersStayNumbers() throws {
        let line = try ManifestLine(
            bytes: Array(#"{"text":"t","output":"o.png","size":40.5,"seed":"18446744073709551615"}"#.utf8)
        )
        #expect(line.options["size"] == .number(40.5))
        #expect(try LabelOptions.seed.value(in: line.options) == UInt64.max)
        #expect(throws: UsageError.self) {
            try CommonOptions.compression.value(in: GivenOptions(["compression": .number(2.5)]))
        }
        #expect(throws: UsageError.self) { try LabelOptions.size.value(in: GivenOptions(["size": .text("big")])) }
        #expect(try LabelOptions.size.value(in: GivenOptions(["size": .text("12")])) == 12)
        #expect(try LabelOptions.size.value(in: GivenOptions()) == LabelStyle().typography.size)
    }
}

@Suite("batch: outputs stay inside --out, lines are bounded, runs are separate")
struct BatchSafetyTests {
    @Test func aSymbolicLinkInsideTheFolderCannotLeadOut() throws {
        let folder = try temporaryFolder()
        let elsewhere = try temporaryFolder()
        try FileManager.default.createDirectory(atPath: folder + "/out", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: folder + "/out/link", withDestinationPath: elsewhere)
        try FileIO.write(Array("keep".utf8), to: elsewhere + "/x.png")
        try FileManager.default.createSymbolicLink(
            atPath: folder + "/out/x.png",
            withDestinationPath: elsewhere + "/x.png"
        )
        let manifest = try writeManifest(
            [
                #"{"text":"1","output":"link/new/a.png"}"#, #"{"text":"2","output":"link/b.png"}"#,
                #"{"text":"3","output":"x.png"}"#,
                #"{"text":"4","output":"ok/c.png"}"#,
            ],
            in: folder
        )
        let result = run(["batch", manifest, "--out", folder + "/out", "--force"])
        #expect(result.status == 2)
        #expect(result.err.contains("line 1: 'link' in --out is a symbolic link or not a folder"), "\(result.err)")
        #expect(result.err.contains("line 2: 'link' in --out is a symbolic link"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere) == ["x.png"])
        #expect(try FileIO.read(elsewhere + "/x.png") == Array("keep".utf8))  // the link was replaced, not followed
        #expect(try PNGDecoder.decode(contentsOf: folder + "/out/x.png").width > 0)
        #expect(try PNGDecoder.decode(contentsOf: folder + "/out/ok/c.png").width > 0)
    }

    /// As everywhere else: a file `--force` replaces keeps its mode, a new one gets 0666 less
    /// the umask (it was 0644 for both).
    @Test func replacedOutputsKeepTheirMode() throws {
        let folder = try temporaryFolder()
        let manifest = try writeManifest(
            [#"{"text":"1","output":"a.png"}"#, #"{"text":"2","output":"sub/b.png"}"#],
            in: folder
        )
        #expect(run(["batch", manifest, "--out", folder + "/out"]).status == 0)
        func mode(_ name: String) throws -> Int {
            (try FileManager.default.attributesOfItem(atPath: "\(folder)/out/\(name)")[.posixPermissions] as? Int) ?? -1
        }
        let mask = umask(0o022)
        umask(mask)
        #expect(try mode("a.png") == 0o666 & ~Int(mask))
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: folder + "/out/a.png")
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder + "/out/sub/b.png")
        #expect(run(["batch", manifest, "--out", folder + "/out", "--force"]).status == 0)
        #expect(try mode("a.png") == 0o600 && mode("sub/b.png") == 0o755)
    }

    @Test func aFolderIsNotAnEmptyManifest() throws {
        let folder = try temporaryFolder()
        let result = run(["batch", folder + "/", "--out", folder + "/out"])
        #expect(result.status == 2 && result.err.contains("is a directory"), "\(result.err)")
    }

    @Test func outputNamesAreCheckedAndNormalised() throws {
        let folder = try temporaryFolder()
        let nul = try writeManifest([#"{"text":"1","output":"a\u0000b.png"}"#], in: folder, name: "nul.jsonl")
        let refused = run(["batch", nul, "--out", folder + "/n"])
        #expect(refused.status == 2 && refused.err.contains("must not contain a NUL"), "\(refused.err)")
        #expect(files(in: folder + "/n").isEmpty)
        let twice = try writeManifest(
            [#"{"text":"1","output":"b.png"}"#, #"{"text":"2","output":"./b.png"}"#],
            in: folder,
            name: "dup.jsonl"
        )
        let duplicate = run(["batch", twice, "--out", folder + "/d"])
        #expect(
            duplicate.status == 2 && duplicate.err.contains("line 2: output 'b.png' is also named by line 1"),
            "\(duplicate.err)"
        )
        let nested = try writeManifest([#"{"text":"1","output":"./s//t/./c.png"}"#], in: folder, name: "nested.jsonl")
        #expect(run(["batch", nested, "--out", folder + "/s"]).status == 0)
        #expect(files(in: folder + "/s") == ["s/t/c.png"])
    }

    @Test func aLineOverTheLimitIsReportedAndSkipped() throws {
        let folder = try temporaryFolder()
        let long =
            #"{"text":""# + String(repeating: "x", count: Limits.maximumManifestLineBytes) + #"","output":"long.png"}"#
        let manifest = try writeManifest([BatchTests.good[0], long, BatchTests.good[1]], in: folder)
        let result = run(["batch", manifest, "--out", folder + "/out"])
        #expect(
            result.status == 2
                && result.err.contains("line 2: line is longer than \(Limits.maximumManifestLineBytes) bytes"),
            "\(result.err)"
        )
        #expect(files(in: folder + "/out") == ["tag1.png", "tag2.png"])
        let reader = ManifestReader(descriptor: open(manifest, O_RDONLY), limit: 100)
        var seen: [String] = []
        while let line = reader.nextLine() {
            switch line {
            case let .line(n, _): seen.append("\(n)")
            case let .tooLong(n): seen.append("long \(n)")
            case .failed: seen.append("failed")
            }
        }
        #expect(seen == ["1", "long 2", "3"])
    }

    @Test
    func anEndlessLineCostsOneBuffer() throws {
        let folder = try temporaryFolder()
        let child = try runChild(["batch", "/dev/zero", "--out", folder + "/z"], stopAfter: 1.5)
        #expect(child.status == 130 || child.status == 2)
        #expect(child.peakMB < 100, "peak \(child.peakMB) MB")
    }

    @Test func twoBatchesInOneProcessStopOnlyThemselves() throws {
        let folder = try temporaryFolder()
        let finishing = try writeManifest(
            (0..<40).map { #"{"text":"\#($0).00 €","output":"f\#($0).png"}"# },
            in: folder,
            name: "f.jsonl"
        )
        let captured = Captured()
        let output = CommandLineTool.Output(standardOutput: { _ in }, standardError: { captured.appendErr($0) })
        // Batch A reads an endless pipe and is stopped; batch B runs at the same time and completes.
        var fds: [Int32] = [0, 0]
        #expect(Darwin_or_Glibc_pipe(&fds) == 0)
        let writeEnd = fds[1]
        signal(SIGPIPE, SIG_IGN)
        let producer = Thread {
            var i = 0
            while true {
                let line = #"{"text":"\#(i).00 €","output":"p\#(i).png"}"# + "\n"
                if line.withCString({ write(writeEnd, $0, strlen($0)) }) < 0 { break }
                i += 1
            }
            close(writeEnd)
        }
        producer.start()
        let stopA = BatchStop()
        let runnerA = BatchRunner(
            reader: ManifestReader(descriptor: fds[0]),
            folder: try OutputFolder(path: folder + "/a", create: true)!,
            jobs: 2,
            shard: .all,
            existing: .refuse,
            streaming: false,
            progress: BatchProgress(total: nil, output: output),
            output: output,
            stop: stopA
        )
        let statusA = StatusBox()
        let threadA = Thread { statusA.status.store(runnerA.run(), ordering: .relaxed) }
        threadA.start()
        usleep(200_000)
        stopA.request()
        let statusB = try BatchCommand.run(
            try BatchCommand.spec.parse([finishing, "--out", folder + "/b", "--jobs", "2"]),
            output,
            stop: BatchStop()
        )
        while statusA.status.load(ordering: .relaxed) == -1 { usleep(10_000) }
        close(fds[0])
        #expect(statusA.status.load(ordering: .relaxed) == 130)
        #expect(statusB == 0)
        #expect(files(in: folder + "/b").count == 40)
    }
}

final class StatusBox: Sendable {
    let status = Atomic<Int32>(-1)
}

@Suite("secure mode never quotes the text")
struct SecureWarningTests {
    /// The secret is never laid out, so nothing is said about its glyphs, not even a count.
    @Test func missingGlyphsAreNeitherCountedNorNamed() throws {
        let folder = try temporaryFolder()
        let result = run([
            "render", "中文 5", "--secure", "--format", "#####", "--no-system-fonts", "-o", folder + "/s.png",
        ])
        #expect(result.status == 0)
        #expect(result.err.isEmpty, "\(result.err)")
        #expect(
            !result.err.contains("中") && !result.err.contains("文") && !result.err.contains("U+4E2D")
                && !result.err.contains("U+6587")
        )
        let plain = run(["render", "中文 5", "--radius", "3", "--no-system-fonts", "-o", folder + "/p.png"])
        #expect(plain.err.contains("U+4E2D"))
    }
}
