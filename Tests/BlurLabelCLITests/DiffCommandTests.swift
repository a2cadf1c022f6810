import BlurredLabelCore
import Foundation
import Testing

@testable import BlurLabelCLI

@Suite("diff: metric, report, outputs that must not clobber inputs")
struct DiffCommandTests {
    /// Two 4×4 pictures that pixelmatch's issue #127 scores apart: YIQ sees a difference,
    /// OKLab sees the same colour (0,254,252) against (94,254,252).
    func cyanPair() throws -> (String, String) {
        let folder = try temporaryFolder()
        try FileIO.write(
            try PNGEncoder().encode(try Image(width: 4, height: 4, fill: Color(red: 0, green: 254, blue: 252))),
            to: folder + "/a.png"
        )
        try FileIO.write(
            try PNGEncoder().encode(try Image(width: 4, height: 4, fill: Color(red: 94, green: 254, blue: 252))),
            to: folder + "/b.png"
        )
        return (folder + "/a.png", folder + "/b.png")
    }

    /// A white and a fully transparent picture: pixelmatch 7 counts every pixel.
    func whiteAndClear() throws -> (String, String) {
        let folder = try temporaryFolder()
        try FileIO.write(
            try PNGEncoder().encode(try Image(width: 8, height: 8, fill: .white)),
            to: folder + "/white.png"
        )
        try FileIO.write(try PNGEncoder().encode(try Image(width: 8, height: 8)), to: folder + "/clear.png")
        return (folder + "/white.png", folder + "/clear.png")
    }

    @Test func metricChoosesTheDistance() throws {
        let (a, b) = try cyanPair()
        let oklab = run(["diff", a, b])
        #expect(oklab.status == 0 && oklab.out.hasPrefix("equal within the threshold: 16 pixels differ below it"))
        let yiq = run(["diff", a, b, "--metric", "yiq"])
        #expect(yiq.status == 1 && yiq.out.contains("16 of 16 pixels differ") && yiq.out.contains("yiq metric"))
        let bad = run(["diff", a, b, "--metric", "lab"])
        #expect(bad.status == 2 && bad.err == "blurlabel diff: --metric must be yiq or oklab, got 'lab'\n")
    }

    @Test func transparencyIsADifference() throws {
        let (white, clear) = try whiteAndClear()
        let result = run(["diff", white, clear])
        #expect(
            result.status == 1 && result.out.contains("64 of 64 pixels differ") && !result.out.contains("identical")
        )
        #expect(run(["diff", white, white]).out == "images are identical\n")
    }

    @Test("--diff or --side-by-side naming an input, even through a link or ../, is refused and writes nothing")
    func outputsThatAreInputsAreRefused() throws {
        let (white, clear) = try whiteAndClear()
        let folder = URL(fileURLWithPath: clear).deletingLastPathComponent().path
        let before = try Data(contentsOf: URL(fileURLWithPath: clear))
        try FileManager.default.createSymbolicLink(atPath: folder + "/link.png", withDestinationPath: clear)
        try FileManager.default.createDirectory(atPath: folder + "/sub", withIntermediateDirectories: true)
        for (option, path) in [
            ("--diff", clear), ("--diff", folder + "/link.png"), ("--side-by-side", folder + "/sub/../white.png"),
            ("--diff", white),
        ] {
            let result = run(["diff", white, clear, option, path])
            #expect(
                result.status == 2 && result.err.contains("\(option) \(path) would overwrite the input"),
                "\(option) \(path): \(result.err)"
            )
            #expect(result.out.isEmpty)
        }
        let hard = folder + "/hard.png"
        try FileManager.default.linkItem(atPath: clear, toPath: hard)
        #expect(run(["diff", white, clear, "--diff", hard]).status == 2)
        let same = run(["diff", white, clear, "--diff", folder + "/d.png", "--side-by-side", folder + "/./d.png"])
        #expect(same.status == 2 && same.err.contains("both write"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: clear)) == before)
        #expect(try Data(contentsOf: URL(fileURLWithPath: white)) != before)
        #expect(!FileManager.default.fileExists(atPath: folder + "/d.png"))
        #expect(run(["diff", white, clear, "--diff", "-", "--side-by-side", "-"]).err.contains("only one picture"))
    }

    @Test("--diff - writes only the PNG to standard output; the summary goes to standard error")
    func diffToStandardOutput() throws {
        let executable = try BuiltExecutable.path()
        let (white, clear) = try whiteAndClear()
        let (status, out, err) = try runProgram(executable, ["diff", white, clear, "--diff", "-"])
        #expect(status == 1)
        #expect(String(decoding: err, as: UTF8.self).hasPrefix("different: 64 of 64 pixels differ"))
        let diff = try PNGDecoder.decode(out, source: "stdout")
        #expect(diff.width == 8 && diff[0, 0] == (255, 0, 0, 255))
    }

    @Test("--report DIR writes one page; six processes at once add six entries")
    func reportFromSeveralProcesses() throws {
        let executable = try BuiltExecutable.path()
        let (white, clear) = try whiteAndClear()
        let folder = URL(fileURLWithPath: clear).deletingLastPathComponent().path
        let report = folder + "/report"
        var processes: [Process] = []
        for index in 0..<6 {
            let copy = folder + "/clear-\(index).png"
            try FileManager.default.copyItem(atPath: clear, toPath: copy)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = ["diff", white, copy, "--report", report]
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            processes.append(process)
        }
        for process in processes {
            process.waitUntilExit()
            #expect(process.terminationStatus == 1)
        }
        let entries = try ComparisonReport(folder: report).entries()
        #expect(entries.map(\.name).sorted() == (0..<6).map { "\(folder)/clear-\($0).png" })
        let html = try String(contentsOfFile: report + "/index.html", encoding: .utf8)
        #expect(html.components(separatedBy: "<section class=\"entry\"").count == 7)
        #expect(html.contains("cp -- \(folder)/clear-3.png \(folder)/white.png"))
        let stem = DiffCommand.reportStem(folder + "/clear-0.png")
        for name in ["\(stem)-expected.png", "\(stem)-actual.png", "\(stem)-diff.png"] {
            #expect(FileManager.default.fileExists(atPath: report + "/" + name))
        }
        // A pair that passes now leaves the page.
        #expect(run(["diff", white, white, "--report", report]).status == 0)
        #expect(
            run(["diff", white, folder + "/clear-0.png", "--report", report, "--max-diff-pixels", "64"]).status == 0
        )
        #expect(try ComparisonReport(folder: report).entries().count == 5)
        // ... and takes its pictures with it.
        #expect(!FileManager.default.fileExists(atPath: report + "/\(stem)-diff.png"))
        #expect(
            FileManager.default.fileExists(
                atPath: report + "/\(DiffCommand.reportStem(folder + "/clear-1.png"))-diff.png"
            )
        )
    }

    /// Entries are keyed by ACTUAL as given: the same file name in two folders is two entries
    /// (a passing `ok/b.png` once removed a failing `x1/b.png`), with pictures that do not collide.
    @Test func reportKeepsPairsFromDifferentFoldersApart() throws {
        let (white, clear) = try whiteAndClear()
        let folder = URL(fileURLWithPath: clear).deletingLastPathComponent().path
        for sub in ["x1", "x2", "ok"] {
            try FileManager.default.createDirectory(atPath: "\(folder)/\(sub)", withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: sub == "ok" ? white : clear, toPath: "\(folder)/\(sub)/b.png")
        }
        let report = folder + "/report"
        #expect(run(["diff", white, folder + "/x1/b.png", "--report", report]).status == 1)
        #expect(run(["diff", white, folder + "/x2/b.png", "--report", report]).status == 1)
        #expect(run(["diff", white, folder + "/ok/b.png", "--report", report]).status == 0)
        let entries = try ComparisonReport(folder: report).entries()
        #expect(entries.map(\.name).sorted() == [folder + "/x1/b.png", folder + "/x2/b.png"])
        let files = Set(entries.flatMap { [$0.expected?.file, $0.actual?.file, $0.diff?.file].compactMap { $0 } })
        #expect(files.count == 6 && files.allSatisfy { !$0.contains("/") && $0.hasPrefix("b-") })
        for file in files { #expect(FileManager.default.fileExists(atPath: report + "/" + file)) }
        #expect(
            DiffCommand.reportName(".//out/./b.png") == "out/b.png" && DiffCommand.reportName("/a//b.png") == "/a/b.png"
        )
        #expect(DiffCommand.reportName("-") == "(standard input)")
        // Names that differ are different entries with different pictures, whatever they look like.
        let names = [
            "x.png", "x", "Q.png", "Q.PNG", "k/a/x.png",
            "x-" + String(DiffCommand.reportStem("k/a/x.png").suffix(8)) + ".png",
        ]
        #expect(
            Set(names.map(DiffCommand.reportName)).count == names.count
                && Set(names.map(DiffCommand.reportStem)).count == names.count
        )
        #expect(
            DiffCommand.reportStem("../../etc/x.png").hasPrefix("x-")
                && !DiffCommand.reportStem("../../etc/x.png").contains("/")
        )
        #expect(DiffCommand.reportStem(String(repeating: "é", count: 200) + ".png").utf8.count <= 109)
    }

    /// Pictures of different sizes fail, and every picture asked for is still written: the
    /// part both cover compared, red where only one has pixels, grey where neither has.
    @Test func differentSizesAreShown() throws {
        let folder = try temporaryFolder()
        var wide = try Image(width: 6, height: 3, fill: .white)
        wide[byte: 0] = 0  // one changed pixel at (0, 0), inside the part both cover
        try FileIO.write(try PNGEncoder().encode(wide), to: folder + "/wide.png")
        try FileIO.write(
            try PNGEncoder().encode(try Image(width: 4, height: 5, fill: .white)),
            to: folder + "/tall.png"
        )
        let stale = folder + "/diff.png"
        try FileIO.write([1, 2, 3], to: stale)
        let result = run([
            "diff", folder + "/tall.png", folder + "/wide.png", "--diff", stale,
            "--side-by-side", folder + "/sbs.png", "--report", folder + "/report",
        ])
        #expect(result.status == 1)
        #expect(
            result.out.hasPrefix(
                "different: size mismatch: expected 4x5, actual 6x3; where they overlap (4x3): 1 of 12 pixels differ"
            ),
            "\(result.out)"
        )
        let diff = try PNGDecoder.decode(contentsOf: stale)
        #expect(diff.width == 6 && diff.height == 5)
        #expect(diff[0, 0] == (255, 0, 0, 255) && diff[1, 0].r == diff[1, 0].b)  // changed; same (faded grey)
        #expect(diff[5, 0] == (255, 0, 0, 255) && diff[0, 4] == (255, 0, 0, 255))  // only actual; only expected
        #expect(diff[5, 4] == (160, 160, 160, 255))  // neither
        #expect(try PNGDecoder.decode(contentsOf: folder + "/sbs.png").width == 4 + 6 + 6 + 8)
        let entry = try #require(try ComparisonReport(folder: folder + "/report").entries().first)
        #expect(entry.outcome == .sizeMismatch && entry.diff != nil)
    }

    /// Links planted in a report folder (the page, `.report`, a picture's name) are refused,
    /// never followed out of it; the folder itself may be a link the user named.
    @Test func reportWritesNothingThroughLinksInsideIt() throws {
        let (white, clear) = try whiteAndClear()
        let folder = URL(fileURLWithPath: clear).deletingLastPathComponent().path
        let elsewhere = try temporaryFolder()
        try FileIO.write(Array("keep".utf8), to: elsewhere + "/page.html")
        for (name, target) in [
            ("index.html", elsewhere + "/page.html"), (".report", elsewhere),
            (DiffCommand.reportStem(clear) + "-diff.png", elsewhere + "/page.html"),
        ] {
            let report = folder + "/report-" + name.prefix(7).filter(\.isLetter)
            try FileManager.default.createDirectory(atPath: report, withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(atPath: report + "/" + name, withDestinationPath: target)
            let result = run(["diff", white, "clear.png", "--report", report].map { $0 == "clear.png" ? clear : $0 })
            #expect(result.status == 2 && result.err.contains("symbolic link"), "\(name): \(result.err)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere) == ["page.html"])
        #expect(try FileIO.read(elsewhere + "/page.html") == Array("keep".utf8))
        try FileManager.default.createSymbolicLink(atPath: folder + "/named", withDestinationPath: elsewhere)
        #expect(run(["diff", white, clear, "--report", folder + "/named"]).status == 1)
        #expect(FileManager.default.fileExists(atPath: elsewhere + "/index.html"))
    }

    /// A picture sent to /dev/stdout (or to the file standard output is) takes the summary's
    /// place on standard output as '-' does: the summary used to overwrite the PNG's first bytes.
    /// And a summary that cannot be written (a full disk) is an error, not a silent exit 0 or 1.
    @Test func standardOutputByAnyNameAndItsFailures() throws {
        let executable = try BuiltExecutable.path()
        let (white, clear) = try whiteAndClear()
        let (status, out, err) = try runProgram(executable, ["diff", white, clear, "--diff", "/dev/stdout"])
        #expect(status == 1 && String(decoding: err, as: UTF8.self).hasPrefix("different: 64 of 64"))
        #expect(try PNGDecoder.decode(out, source: "stdout").width == 8)
        let full = try runProgram(executable, ["diff", white, white], standardOutput: "/dev/full")
        #expect(full.0 == 2 && String(decoding: full.2, as: UTF8.self).contains("cannot write to standard output"))
        #expect(run(["diff", "-", "-"]).err.contains("can be only one of EXPECTED and ACTUAL"))
    }

    /// A 1000000×1 against a 1×1000000 picture: the comparison needs only their shared pixel;
    /// a diff picture would need 10^12 (it was allocated anyway, and the process died). Without
    /// pictures the answer is "different"; with one asked for, a clear refusal and nothing written.
    @Test func picturesTooLargeToDrawAreRefusedNotAllocated() throws {
        let folder = try temporaryFolder()
        try FileIO.write(
            try PNGEncoder().encode(try Image(width: 1_000_000, height: 1, fill: .white)),
            to: folder + "/wide.png"
        )
        try FileIO.write(
            try PNGEncoder().encode(try Image(width: 1, height: 1_000_000, fill: .white)),
            to: folder + "/tall.png"
        )
        let plain = run(["diff", folder + "/wide.png", folder + "/tall.png"])
        #expect(plain.status == 1 && plain.out.contains("where they overlap (1x1): identical"), "\(plain.out)")
        let drawn = run([
            "diff", folder + "/wide.png", folder + "/tall.png", "--diff", folder + "/d.png", "--side-by-side",
            folder + "/s.png",
        ])
        #expect(
            drawn.status == 2 && drawn.err.contains("would be 1000000x1000000 pixels, over the limit"),
            "\(drawn.err)"
        )
        #expect(
            !FileManager.default.fileExists(atPath: folder + "/d.png")
                && !FileManager.default.fileExists(atPath: folder + "/s.png")
        )
        // Side by side too wide for one picture: one above the other instead.
        var dotted = try Image(width: 400_000, height: 1, fill: .white)
        dotted[byte: 0] = 0
        try FileIO.write(try PNGEncoder().encode(dotted), to: folder + "/dotted.png")
        let wide = run(["diff", folder + "/wide.png", folder + "/dotted.png", "--side-by-side", folder + "/s.png"])
        #expect(wide.status == 1)
        try FileIO.write(
            try PNGEncoder().encode(try Image(width: 400_000, height: 1, fill: .white)),
            to: folder + "/plain.png"
        )
        #expect(
            run(["diff", folder + "/plain.png", folder + "/dotted.png", "--side-by-side", folder + "/s.png"]).status
                == 1
        )
        let stacked = try PNGDecoder.decode(contentsOf: folder + "/s.png")
        #expect(stacked.width == 400_000 && stacked.height == 3 + 8)
    }

    @Test func maxPixelsRaisesTheInputLimit() throws {
        let (white, clear) = try whiteAndClear()
        let small = run(["diff", white, clear, "--max-pixels", "63"])
        #expect(small.status == 2 && small.err.contains("--max-pixels"))
        #expect(run(["diff", white, clear, "--max-pixels", "64"]).status == 1)
    }

    func runProgram(
        _ path: String,
        _ arguments: [String],
        standardOutput: String? = nil
    ) throws -> (Int32, [UInt8], [UInt8]) {
        let folder = try temporaryFolder()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        _ = FileManager.default.createFile(atPath: folder + "/out", contents: nil)
        _ = FileManager.default.createFile(atPath: folder + "/err", contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: standardOutput ?? folder + "/out"))
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: folder + "/err"))
        try process.run()
        process.waitUntilExit()
        return (
            process.terminationStatus, Array(try Data(contentsOf: URL(fileURLWithPath: folder + "/out"))),
            Array(try Data(contentsOf: URL(fileURLWithPath: folder + "/err")))
        )
    }
}
