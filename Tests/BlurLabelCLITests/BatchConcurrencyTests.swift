import BlurredLabelCore
import Foundation
import Testing

@testable import BlurLabelCLI

#if canImport(Glibc)
import Glibc
#endif

/// Many `batch` processes writing into one folder at once (shards, Spark partitions, a manifest
/// run twice), what `batch -` answers when it cannot start or is killed, and messages that reach
/// a log file as they happen. These run the built executable, as a shell or Spark would.
@Suite("batch: many processes, one folder")
struct BatchConcurrencyTests {

    /// 60 labels, some in subfolders (which several processes then make at once).
    static let manifestLines = (1...60).map { i in
        #"{"text":"\#(i).\#(i % 10)0 €","output":"\#(i % 3 == 0 ? "sub/" : "")c\#(i).png"}"#
    }

    /// Starts the executable with `arguments`; standard error to `errorLog` (a file) or discarded.
    static func start(
        _ arguments: [String],
        input: Any? = nil,
        output: Any? = nil,
        errorLog: String? = nil
    ) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try BuiltExecutable.path())
        process.arguments = arguments
        process.standardInput = input ?? FileHandle.nullDevice
        process.standardOutput = output ?? FileHandle.nullDevice
        if let errorLog {
            _ = FileManager.default.createFile(atPath: errorLog, contents: nil)
            process.standardError = FileHandle(forWritingAtPath: errorLog)
        } else {
            process.standardError = FileHandle.nullDevice
        }
        try process.run()
        return process
    }

    /// Names under `folder` (recursively) that start with a dot: temporary files left behind.
    static func leftovers(in folder: String) -> [String] {
        let enumerator = FileManager.default.enumerator(atPath: folder)
        var found: [String] = []
        while let name = enumerator?.nextObject() as? String {
            if name.split(separator: "/").last?.hasPrefix(".") == true { found.append(name) }
        }
        return found
    }

    /// The same files with the same bytes in both folders.
    static func expectSameFiles(_ a: String, _ b: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let names = files(in: a)
        #expect(names == files(in: b), sourceLocation: sourceLocation)
        for name in names {
            #expect(
                try FileIO.read(a + "/" + name) == FileIO.read(b + "/" + name),
                "\(name)",
                sourceLocation: sourceLocation
            )
        }
    }

    @Test func threeShardProcessesAtOnceIntoOneFolder() throws {
        let folder = try temporaryFolder()
        let manifest = try writeManifest(Self.manifestLines, in: folder)
        #expect(run(["batch", manifest, "--out", folder + "/reference"]).status == 0)
        let shards = try (1...3).map { i in
            try Self.start(
                ["batch", manifest, "--out", folder + "/out", "--shard", "\(i)/3", "--jobs", "2"],
                errorLog: folder + "/shard\(i).log"
            )
        }
        for (i, shard) in shards.enumerated() {
            shard.waitUntilExit()
            let log = (try? String(contentsOfFile: folder + "/shard\(i + 1).log", encoding: .utf8)) ?? ""
            #expect(shard.terminationStatus == 0, "shard \(i + 1): \(log)")
            #expect(log.contains("rendered 20, skipped 0, failed 0"), "shard \(i + 1): \(log)")
        }
        #expect(files(in: folder + "/out").count == 60)
        try Self.expectSameFiles(folder + "/out", folder + "/reference")
        #expect(Self.leftovers(in: folder + "/out").isEmpty)
    }

    @Test func theSameManifestTwiceAtOnce() throws {
        let folder = try temporaryFolder()
        let manifest = try writeManifest(Self.manifestLines, in: folder)
        #expect(run(["batch", manifest, "--out", folder + "/reference"]).status == 0)
        for flag in ["--resume", "--force"] {
            let out = folder + "/out" + flag
            let runs = try (1...2).map { i in
                try Self.start(["batch", manifest, "--out", out, flag, "--jobs", "2"], errorLog: out + ".\(i).log")
            }
            for (i, run) in runs.enumerated() {
                run.waitUntilExit()
                let log = (try? String(contentsOfFile: out + ".\(i + 1).log", encoding: .utf8)) ?? ""
                #expect(run.terminationStatus == 0, "\(flag) run \(i + 1): \(log)")
                #expect(log.contains("failed 0"), "\(flag) run \(i + 1): \(log)")
            }
            try Self.expectSameFiles(out, folder + "/reference")
            #expect(Self.leftovers(in: out).isEmpty, "\(flag)")
        }
    }

    /// Without --resume or --force an output is only ever published where nothing has its name:
    /// one that is there (written before, or by another process after the scan) is kept, and the
    /// line is done only when it holds the same bytes.
    @Test func anOutputWrittenMeanwhileIsKept() throws {
        let folder = try temporaryFolder()
        let out = folder + "/out"
        #expect(
            run(["batch", try writeManifest(Array(BatchTests.good.prefix(2)), in: folder), "--out", out]).status == 0
        )
        try FileIO.write(Array("not a picture".utf8), to: out + "/tag2.png")
        let reference = try FileIO.read(out + "/tag1.png")
        let outputFolder = try #require(try OutputFolder(path: out, create: false))
        #expect(try outputFolder.write(reference, to: "tag1.png", publish: .keeping) == .found(sameBytes: true))
        #expect(try outputFolder.write(reference, to: "tag2.png", publish: .keeping) == .found(sameBytes: false))
        #expect(try FileIO.read(out + "/tag2.png") == Array("not a picture".utf8))
        #expect(try outputFolder.write(reference, to: "new.png", publish: .keeping) == .written)
        #expect(Self.leftovers(in: out).isEmpty)

        // A run whose scan found none of them (as when they appear after it), or `batch -`.
        var pipe: [Int32] = [0, 0]
        #expect(Darwin_or_Glibc_pipe(&pipe) == 0)
        let text = BatchTests.good.prefix(3).joined(separator: "\n") + "\n"
        _ = text.withCString { write(pipe[1], $0, strlen($0)) }
        close(pipe[1])
        let captured = Captured()
        let output = CommandLineTool.Output(standardOutput: { _ in }, standardError: { captured.appendErr($0) })
        let status = BatchRunner(
            reader: ManifestReader(descriptor: pipe[0]),
            folder: outputFolder,
            jobs: 2,
            shard: .all,
            existing: .refuse,
            streaming: false,
            progress: BatchProgress(total: nil, output: output),
            output: output
        ).run()
        close(pipe[0])
        #expect(status == 2)
        #expect(
            captured.err.contains("line 2: output 'tag2.png' already exists and holds something else; kept")
                && captured.err.contains("rendered 2, skipped 0, failed 1"),
            "\(captured.err)"
        )
        #expect(try FileIO.read(out + "/tag2.png") == Array("not a picture".utf8))
        #expect(Self.leftovers(in: out).isEmpty)
    }

    /// The parsed results of `batch -`: every one must be a whole JSON object with its line number.
    static func results(_ data: Data) -> [(line: Int, ok: Bool)] {
        String(decoding: data, as: UTF8.self).split(separator: "\n").map { text in
            let object = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any]
            return ((object?["line"] as? Int) ?? -1, (object?["ok"] as? Bool) ?? false)
        }
    }

    @Test func standardInputRefusedAnswersEveryLine() throws {
        let folder = try temporaryFolder()
        try FileIO.write([], to: folder + "/file")
        let manifest = try writeManifest(Self.manifestLines, in: folder)
        for arguments in [
            ["--out", folder + "/file/out"],  // a folder that cannot be made
            ["--out", folder + "/out", "--jobs", "0"],  // a bad value
            ["--out", folder + "/out", "--no-such-option"],  // refused by the parser
        ] {
            let results = Pipe()
            let process = try Self.start(
                ["batch", "-"] + arguments,
                input: FileHandle(forReadingAtPath: manifest),
                output: results,
                errorLog: folder + "/log"
            )
            let data = results.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            let answered = Self.results(data)
            #expect(process.terminationStatus == 2, "\(arguments)")
            #expect(answered.map(\.line) == Array(1...60), "\(arguments)")
            #expect(answered.allSatisfy { !$0.ok }, "\(arguments)")
            #expect(String(decoding: data, as: UTF8.self).contains("batch did not start: "), "\(arguments)")
        }
        #expect(!FileManager.default.fileExists(atPath: folder + "/out"))
    }

    /// `batch -` given lines it already rendered (a Spark task retried) finds the same bytes there:
    /// every line is done, exit 0; a line whose output holds something else fails, and is kept.
    @Test func standardInputGivenTheSameLinesAgainFinishesThem() throws {
        let folder = try temporaryFolder()
        let manifest = try writeManifest(Array(Self.manifestLines.prefix(10)), in: folder)
        for round in 1...2 {
            if round == 2 { try FileIO.write(Array("other".utf8), to: folder + "/out/c1.png") }
            let results = Pipe()
            let process = try Self.start(
                ["batch", "-", "--out", folder + "/out"],
                input: FileHandle(forReadingAtPath: manifest),
                output: results
            )
            let answered = Self.results(results.fileHandleForReading.readDataToEndOfFile())
            process.waitUntilExit()
            #expect(answered.map(\.line) == Array(1...10), "round \(round)")
            #expect(answered.map(\.ok) == [round == 1] + Array(repeating: true, count: 9), "round \(round)")
            #expect(process.terminationStatus == (round == 1 ? 0 : 2), "round \(round)")
        }
        #expect(try FileIO.read(folder + "/out/c1.png") == Array("other".utf8))
        #expect(Self.leftovers(in: folder + "/out").isEmpty)
    }

    /// Killed in the middle (SIGKILL: nothing of its own runs), `batch -` has answered a gap-free
    /// prefix of the lines, each result whole, so its caller counts what was lost.
    @Test func standardInputKilledMidRunLeavesACountablePrefix() throws {
        let folder = try temporaryFolder()
        signal(SIGPIPE, SIG_IGN)
        let input = Pipe()
        let results = Pipe()
        let process = try Self.start(
            ["batch", "-", "--out", folder + "/out", "--jobs", "2"],
            input: input,
            output: results
        )
        try? input.fileHandleForReading.close()
        let sent = 30
        input.fileHandleForWriting.write(Data(Self.manifestLines.prefix(10).map { $0 + "\n" }.joined().utf8))
        // Wait for the first result, then send the rest and kill the run while it works on them.
        var received = Data()
        while !received.contains(0x0A) {
            let chunk = results.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            received += chunk
        }
        input.fileHandleForWriting.write(Data(Self.manifestLines[10..<sent].map { $0 + "\n" }.joined().utf8))
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        try? input.fileHandleForWriting.close()
        received += results.fileHandleForReading.readDataToEndOfFile()
        #expect(process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGKILL)
        // Whole lines only (a caller drops an unfinished last one), numbered 1...k in order.
        let whole = received.lastIndex(of: 0x0A).map { received[...$0] } ?? Data()
        let answered = Self.results(Data(whole))
        #expect(!answered.isEmpty && answered.count <= sent)
        #expect(answered.map(\.line) == Array(1...max(1, answered.count)))
        #expect(answered.allSatisfy { $0.ok })
        let lost = sent - answered.count
        #expect(lost >= 0, "the caller knows \(lost) line(s) were lost")
    }

    /// A message reaches a log file as soon as its line is done, not when the run ends: the
    /// manifest is a FIFO kept open, so the run can only end by being killed, and the log must
    /// already hold every message (a bad line, a warning, a line over the limit still being read).
    @Test func messagesReachALogFileAsTheyHappen() throws {
        let folder = try temporaryFolder()
        let fifo = folder + "/manifest"
        #expect(mkfifo(fifo, 0o600) == 0)
        let log = folder + "/log"
        let process = try Self.start(["batch", fifo, "--out", folder + "/out", "--jobs", "2"], errorLog: log)
        // Opened once the run has opened it for reading (without a reader, ENXIO).
        var writer: Int32 = -1
        let opening = Date().addingTimeInterval(60)
        while writer < 0 && Date() < opening && process.isRunning {
            writer = open(fifo, O_WRONLY | O_NONBLOCK | O_CLOEXEC)
            if writer < 0 { usleep(10_000) }
        }
        try #require(writer >= 0, "the run never opened the FIFO")
        _ = fcntl(writer, F_SETFL, 0)  // blocking writes from here on
        defer { close(writer) }
        signal(SIGPIPE, SIG_IGN)
        let lines =
            [
                "{not json", #"{"text":"1.00","output":"a.png"}"#,
                #"{"text":"价","output":"b.png","no-system-fonts":true}"#,
                #"{"text":"a","output":"c.png","colour":"red"}"#,
            ].joined(separator: "\n") + "\n" + String(repeating: "x", count: Limits.maximumManifestLineBytes + 10)
        _ = lines.withCString { write(writer, $0, strlen($0)) }
        let expected = [
            "line 1: invalid JSON", "line 3: warning: no font has U+4EF7", "line 4: unknown option 'colour'",
            "line 5: line is longer than",
        ]
        let deadline = Date().addingTimeInterval(60)
        var text = ""
        while Date() < deadline {
            text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            if expected.allSatisfy({ text.contains($0) }) { break }
            usleep(20_000)
        }
        #expect(process.isRunning, "the run is still waiting for the FIFO's next line")
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        for message in expected { #expect(text.contains(message), "\(message) not in the log: \(text)") }
        #expect(FileManager.default.fileExists(atPath: folder + "/out/a.png"))
    }
}
