import BlurredLabelCore
import Foundation
import Synchronization
import Testing

@testable import BlurLabelCLI

func writeManifest(_ lines: [String], in folder: String, name: String = "m.jsonl") throws -> String {
    let path = folder + "/" + name
    try FileIO.write(Array((lines.joined(separator: "\n") + "\n").utf8), to: path)
    return path
}

func files(in folder: String) -> [String] {
    let enumerator = FileManager.default.enumerator(atPath: folder)
    var out: [String] = []
    while let name = enumerator?.nextObject() as? String {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: folder + "/" + name, isDirectory: &isDirectory),
            !isDirectory.boolValue
        {
            out.append(name)
        }
    }
    return out.sorted()
}

@Suite("batch command")
struct BatchTests {
    static let good = (1...6).map { #"{"text":"\#($0).99 €","output":"tag\#($0).png"}"# }

    @Test func rendersEveryLineLikeRender() throws {
        let folder = try temporaryFolder()
        let manifest = try writeManifest(
            Self.good + [
                ##"{"text":"Sale","output":"sub/s.png","radius":0,"color":"#c00","features":["tnum","-liga"]}"##
            ],
            in: folder
        )
        let result = run(["batch", manifest, "--out", folder + "/out", "--jobs", "2"])
        #expect(result.status == 0 && result.err.contains("rendered 7, skipped 0, failed 0"))
        #expect(files(in: folder + "/out") == ["sub/s.png"] + (1...6).map { "tag\($0).png" })
        #expect(run(["render", "3.99 €", "-o", folder + "/single.png"]).status == 0)
        #expect(try FileIO.read(folder + "/out/tag3.png") == FileIO.read(folder + "/single.png"))
    }

    @Test func outputDoesNotDependOnJobs() throws {
        let folder = try temporaryFolder()
        let manifest = try writeManifest(Self.good, in: folder)
        #expect(run(["batch", manifest, "--out", folder + "/one", "--jobs", "1"]).status == 0)
        #expect(run(["batch", manifest, "--out", folder + "/four", "--jobs", "4"]).status == 0)
        for name in files(in: folder + "/one") {
            #expect(try FileIO.read(folder + "/one/" + name) == FileIO.read(folder + "/four/" + name))
        }
    }

    @Test func badLinesAreReportedAndDoNotStopTheOthers() throws {
        let folder = try temporaryFolder()
        let manifest = try writeManifest(
            [
                Self.good[0], "{not json", #"{"text":"a","output":"u.png","colour":"red"}"#, #"{"output":"v.png"}"#,
                #"{"text":"a","output":"w.png","color":"blurple"}"#, #"{"text":"a","output":"/etc/x.png"}"#,
                #"{"text":"a","output":"y.png","size":-4}"#, Self.good[1],
                #"{"text":"12.34 SECRET","output":"d.png","secure":true,"secure":false}"#,
                #"{"text":"a","output":"o.png","radius":{"x":1}}"#, #"["text","a"]"#,
                "\u{FEFF}" + #"{"text":"a","output":"b.png"}"#, #"{"text":"a","output":"r.png","radius":"0x10"}"#,
            ],
            in: folder
        )
        let result = run(["batch", manifest, "--out", folder + "/out"])
        #expect(result.status == 2)
        for (line, reason) in [
            (2, "invalid JSON"), (3, "unknown option 'colour'"), (4, "missing \"text\""),
            (5, "unknown colour 'blurple'"), (6, "must be a file name under"), (7, "--size must be"),
            (9, "a key appears twice"), (10, "unsupported type"), (11, "each line must be one JSON object"),
            (12, "starts with a byte order mark"), (13, "--radius needs a finite decimal number"),
        ] {
            #expect(result.err.contains("line \(line): ") && result.err.contains(reason), "line \(line)")
        }
        #expect(!result.err.contains("SECRET"), "a refused line's text is never printed")
        #expect(files(in: folder + "/out") == ["tag1.png", "tag2.png"])
    }

    @Test func invalidUTF8InALineNamesTheOffset() throws {
        let folder = try temporaryFolder()
        var bytes = Array(#"{"text":"ab"#.utf8) + [0xFF] + Array(#"","output":"z.png"}"#.utf8) + [0x0A]
        bytes += Array((Self.good[0] + "\n").utf8)
        try FileIO.write(bytes, to: folder + "/m.jsonl")
        let result = run(["batch", folder + "/m.jsonl", "--out", folder + "/out"])
        #expect(result.err.contains("line 1: text is not valid UTF-8 (bad byte at offset 11)"), "\(result.err)")
    }

    @Test func duplicatesAreFoundBeforeRendering() throws {
        let folder = try temporaryFolder()
        let manifest = try writeManifest(
            [Self.good[0], Self.good[1], #"{"text":"x","output":"tag1.png"}"#],
            in: folder
        )
        let result = run(["batch", manifest, "--out", folder + "/out"])
        #expect(result.status == 2 && result.err.contains("line 3: output 'tag1.png' is also named by line 1"))
        #expect(files(in: folder + "/out").isEmpty)
    }

    @Test func resumeSkipsAndForceRedoes() throws {
        let folder = try temporaryFolder()
        let manifest = try writeManifest(Self.good, in: folder)
        #expect(run(["batch", manifest, "--out", folder + "/out"]).status == 0)
        let again = run(["batch", manifest, "--out", folder + "/out"])
        #expect(again.status == 2 && again.err.contains("6 output(s) already exist"))
        try FileManager.default.removeItem(atPath: folder + "/out/tag2.png")
        let resumed = run(["batch", manifest, "--out", folder + "/out", "--resume"])
        #expect(resumed.status == 0 && resumed.err.contains("rendered 1, skipped 5"))
        let forced = run(["batch", manifest, "--out", folder + "/out", "--force"])
        #expect(forced.status == 0 && forced.err.contains("rendered 6, skipped 0"))
        #expect(run(["batch", manifest, "--out", folder + "/out", "--force", "--resume"]).status == 2)
    }

    @Test func shardsAreDisjointAndCoverTheManifest() throws {
        let folder = try temporaryFolder()
        let lines = (1...23).map { #"{"text":"\#($0)","output":"l\#($0).png","radius":0}"# }
        let manifest = try writeManifest(lines, in: folder)
        var seen: [String] = []
        for i in 1...3 {
            #expect(run(["batch", manifest, "--out", folder + "/s\(i)", "--shard", "\(i)/3"]).status == 0)
            seen += files(in: folder + "/s\(i)")
        }
        #expect(seen.count == 23 && Set(seen).count == 23)
        #expect(files(in: folder + "/s2").contains("l2.png") && files(in: folder + "/s2").contains("l5.png"))
        #expect(run(["batch", manifest, "--out", folder + "/x", "--shard", "4/3"]).status == 2)
    }

    @Test func stdinToStdoutContract() throws {
        let folder = try temporaryFolder()
        var pipe: [Int32] = [0, 0]
        #expect(Darwin_or_Glibc_pipe(&pipe) == 0)
        let text = ([Self.good[0], "oops", Self.good[1]].joined(separator: "\n") + "\n")
        _ = text.withCString { write(pipe[1], $0, strlen($0)) }
        close(pipe[1])
        let captured = Captured()
        let output = CommandLineTool.Output(
            standardOutput: { captured.appendOut($0) },
            standardError: { captured.appendErr($0) }
        )
        let runner = BatchRunner(
            reader: ManifestReader(descriptor: pipe[0]),
            folder: try OutputFolder(path: folder, create: true)!,
            jobs: 2,
            shard: .all,
            existing: .refuse,
            streaming: true,
            progress: BatchProgress(total: nil, output: output),
            output: output
        )
        #expect(runner.run() == 2)
        close(pipe[0])
        let lines = captured.out.split(separator: "\n").map(String.init)
        #expect(
            lines == [
                #"{"line":1,"output":"tag1.png","ok":true}"#,
                #"{"line":2,"ok":false,"error":"invalid JSON (each line must be one JSON object)"}"#,
                #"{"line":3,"output":"tag2.png","ok":true}"#,
            ]
        )
        for line in lines { #expect((try? JSONSerialization.jsonObject(with: Data(line.utf8))) != nil) }
    }

    @Test func missingCharactersAreWarnedPerLineAndNeverNamedForSecureLines() throws {
        let folder = try temporaryFolder()
        let manifest = try writeManifest(
            [
                #"{"text":"价 1","output":"a.png","no-system-fonts":true}"#,
                #"{"text":"1.00","output":"b.png"}"#,
                ##"{"text":"价 2","output":"c.png","no-system-fonts":true,"secure":true,"format":"#.##"}"##,
            ],
            in: folder
        )
        let result = run(["batch", manifest, "--out", folder + "/out"])
        #expect(result.status == 0)
        let warnings = result.err.split(separator: "\n").filter { $0.contains("warning") }
        #expect(
            warnings == [
                "blurlabel batch: line 1: warning: no font has U+4EF7 '价'; drawn as the font's missing-glyph box"
            ],
            "\(result.err)"
        )
        // The same through standard input: the warning joins that line's JSON result.
        var pipe: [Int32] = [0, 0]
        #expect(Darwin_or_Glibc_pipe(&pipe) == 0)
        let text = try String(contentsOfFile: manifest, encoding: .utf8)
        _ = text.withCString { write(pipe[1], $0, strlen($0)) }
        close(pipe[1])
        let captured = Captured()
        let output = CommandLineTool.Output(
            standardOutput: { captured.appendOut($0) },
            standardError: { captured.appendErr($0) }
        )
        let runner = BatchRunner(
            reader: ManifestReader(descriptor: pipe[0]),
            folder: try OutputFolder(path: folder + "/stdin", create: true)!,
            jobs: 2,
            shard: .all,
            existing: .refuse,
            streaming: true,
            progress: BatchProgress(total: nil, output: output),
            output: output
        )
        #expect(runner.run() == 0)
        close(pipe[0])
        let lines = captured.out.split(separator: "\n").map(String.init)
        #expect(
            lines.first
                == #"{"line":1,"output":"a.png","ok":true,"warnings":["no font has U+4EF7 '价'; drawn as the font's missing-glyph box"]}"#
        )
        #expect(lines.dropFirst().allSatisfy { !$0.contains("warnings") && !$0.contains("价") }, "\(lines)")
    }

    @Test func readerStreamsLongAndShortLines() throws {
        let folder = try temporaryFolder()
        let long = String(repeating: "x", count: 200_000)
        let path = try writeManifest(["a", long, "", "b"], in: folder)
        let reader = try ManifestReader(path: path)
        var lines: [Int] = []
        while let (_, bytes) = reader.next() { lines.append(bytes.count) }
        #expect(lines == [1, 200_000, 0, 1])
    }
}

func Darwin_or_Glibc_pipe(_ fds: inout [Int32]) -> Int32 {
    fds.withUnsafeMutableBufferPointer { pipe($0.baseAddress!) }
}

@Suite("manifest lines")
struct ManifestLineTests {
    @Test(
        "the quick output scan agrees with full decoding or steps aside",
        arguments: [
            #"{"text":"a","output":"x.png"}"#,
            #"{"output" : "y.png", "text":"output"}"#,
            #"{"text":"output","output":"z.png"}"#,
            #"{"text":"say \"output\": \"no\"","output":"w.png"}"#,
            #"{"text":"a", "output":"sub/v.png","size":20}"#,
            #"{"text":"a"}"#,
        ]
    )
    func quickScan(line: String) throws {
        let bytes = Array(line.utf8)
        let full = try? ManifestLine(bytes: bytes).output
        if let quick = ManifestLine.quickOutput(bytes) { #expect(quick == full) }
    }

    @Test func numbersBooleansAndListsStayTyped() throws {
        let line = try ManifestLine(
            bytes: Array(
                ##"{"text":"t","output":"o.png","size":40,"radius":7.5,"secure":true,"format":"#","features":["tnum","-liga"]}"##
                    .utf8
            )
        )
        #expect(
            line.options
                == GivenOptions([
                    "size": .number(40), "radius": .number(7.5), "secure": .flag(true), "format": .text("#"),
                    "features": .list(["tnum", "-liga"]),
                ])
        )
        let style = try line.style()
        #expect(
            style.typography.size == 40 && style.radius == 7.5 && style.secure != nil
                && style.typography.features == ["tnum", "-liga"]
        )
        #expect(throws: LineError.self) {
            try ManifestLine(bytes: Array(#"{"text":"t","output":"o.png","size":true}"#.utf8)).style()
        }
        #expect(throws: LineError.self) {
            try ManifestLine(bytes: Array(#"{"text":"t","output":"o.png","size":null}"#.utf8))
        }
        #expect(throws: LineError.self) { try ManifestLine(bytes: Array(#"["text"]"#.utf8)) }
    }
}

@Suite("batch interruption")
struct BatchInterruptionTests {
    @Test func aStoppedRunLeavesOnlyWholeFiles() throws {
        let folder = try temporaryFolder()
        var fds: [Int32] = [0, 0]
        #expect(Darwin_or_Glibc_pipe(&fds) == 0)
        let writeEnd = fds[1]
        signal(SIGPIPE, SIG_IGN)  // the producer may write after the run stopped reading
        // A producer that keeps feeding lines until the run stops reading.
        let producer = Thread {
            for i in 0..<5000 {
                let line = #"{"text":"\#(i).00 €","output":"p\#(i).png"}"# + "\n"
                if line.withCString({ write(writeEnd, $0, strlen($0)) }) < 0 { break }
            }
            close(writeEnd)
        }
        producer.start()
        let captured = Captured()
        let output = CommandLineTool.Output(standardOutput: { _ in }, standardError: { captured.appendErr($0) })
        let stop = BatchStop()
        let runner = BatchRunner(
            reader: ManifestReader(descriptor: fds[0]),
            folder: try OutputFolder(path: folder, create: true)!,
            jobs: 2,
            shard: .all,
            existing: .refuse,
            streaming: false,
            progress: BatchProgress(total: nil, output: output),
            output: output,
            stop: stop
        )
        let stopper = Thread {
            usleep(300_000)
            stop.request()
        }  // what the SIGINT handler does for this run
        stopper.start()
        let status = runner.run()
        close(fds[0])
        #expect(status == 130 && captured.err.contains("interrupted"))
        let names = try FileManager.default.contentsOfDirectory(atPath: folder)
        #expect(!names.isEmpty && names.count < 5000)
        #expect(
            names.allSatisfy { $0.hasSuffix(".png") && !$0.hasPrefix(".") },
            "temporary files left: \(names.filter { $0.hasPrefix(".") })"
        )
        for name in names.prefix(50) {
            #expect(throws: Never.self) { try PNGDecoder.decode(contentsOf: folder + "/" + name) }
        }
    }

    /// Started with SIGINT ignored (`nohup`, a script's background job), batch keeps it ignored,
    /// as every other command does: it used to install its handler and stop.
    @Test func anIgnoredInterruptStaysIgnored() throws {
        let executable = try BuiltExecutable.path()
        let out = try temporaryFolder() + "/out"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "trap '' INT; exec \"$0\" batch - --out \"$1\"", executable, out]
        let input = Pipe()
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        func send(_ i: Int) {
            input.fileHandleForWriting.write(Data((#"{"text":"\#(i)","output":"i\#(i).png"}"# + "\n").utf8))
        }
        send(1)
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline && !FileManager.default.fileExists(atPath: out + "/i1.png") { usleep(10_000) }
        kill(process.processIdentifier, SIGINT)
        usleep(200_000)
        send(2)
        try input.fileHandleForWriting.close()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(FileManager.default.fileExists(atPath: out + "/i2.png"))
    }

    /// Ctrl-C on the real command. The manifest comes through a pipe that a producer keeps
    /// feeding until the command exits, so the run cannot finish before the signal however slow
    /// or fast the machine is; the signal is sent once the first output file exists (an observable
    /// condition, not a fixed delay), with a generous timeout for a loaded machine or a TSan build.
    @Test func ctrlCStopsTheCommandWithWholeFiles() throws {
        let folder = try temporaryFolder()
        let out = folder + "/out"
        signal(SIGPIPE, SIG_IGN)  // the producer writes until the command has exited
        let input = Pipe()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try BuiltExecutable.path())
        process.arguments = ["batch", "-", "--out", out, "--jobs", "2"]
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Only the command holds the read end: its exit ends the producer (EPIPE).
        try? input.fileHandleForReading.close()
        let writeEnd = input.fileHandleForWriting.fileDescriptor
        let written = Atomic<Int>(0)
        let producerDone = DispatchSemaphore(value: 0)
        let producer = Thread {
            for i in 0..<1_000_000 {
                let line = #"{"text":"\#(i).00 €","output":"c\#(i).png"}"# + "\n"
                if line.withCString({ write(writeEnd, $0, strlen($0)) }) < 0 { break }
                written.add(1, ordering: .relaxed)
            }
            producerDone.signal()
        }
        producer.start()
        let deadline = Date().addingTimeInterval(120)
        func rendered() -> [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: out)) ?? []).filter {
                $0.hasSuffix(".png") && !$0.hasPrefix(".")
            }
        }
        while Date() < deadline && process.isRunning && rendered().isEmpty { usleep(10_000) }
        let started = !rendered().isEmpty
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        #expect(producerDone.wait(timeout: .now() + 60) == .success)
        try? input.fileHandleForWriting.close()
        #expect(started, "no output file within 120 s")
        let names = try FileManager.default.contentsOfDirectory(atPath: out)
        #expect(process.terminationStatus == 130)
        #expect(!names.isEmpty && names.count <= written.load(ordering: .relaxed))
        #expect(
            names.allSatisfy { $0.hasSuffix(".png") && !$0.hasPrefix(".") },
            "temporary files left: \(names.filter { $0.hasPrefix(".") })"
        )
    }
}
