import BlurredLabelCore
import Foundation
import Testing

@testable import BlurLabelCLI

/// `render` and `batch` under the render budget (`--max-render-mb`), run as the attacker and
/// the shop would run them: the costly label is refused at once, in little memory; the estimate
/// is measured against the real process's peak; labels within the budget are untouched.
@Suite("render budget on the command line")
struct RenderBudgetCommandTests {
    static let emoji = String(repeating: "😀", count: 1500)
    /// Whether this build runs under ThreadSanitizer (scripts/checks/test-tsan), whose shadow
    /// memory and instrumentation make the tool's memory and CPU time no measure of its own.
    static let instrumented = dlsym(dlopen(nil, RTLD_NOW), "__tsan_init") != nil

    @Test
    func fifteenHundredEmojiAreRefusedAtOnceInLittleMemory() throws {
        let folder = try temporaryFolder()
        // Once to load fontconfig's ranking from its cache (a first run on a cold disk is slower).
        _ = try runChild(["render", Self.emoji, "--size", "2000", "-o", folder + "/warm.png"])
        let child = try runChild(["render", Self.emoji, "--size", "2000", "-o", folder + "/e.png"])
        #expect(child.status == 2)
        #expect(child.peakMB < 100 || Self.instrumented)
        // The whole process's CPU time (start, shaping, the estimate; the debug build), which a
        // busy test machine does not stretch as it does the wall-clock time.
        #expect(child.cpuSeconds < 0.1 || Self.instrumented, "took \(child.cpuSeconds) s of CPU")
        #expect(!FileManager.default.fileExists(atPath: folder + "/e.png"))
        let said = run(["render", Self.emoji, "--size", "2000", "-o", folder + "/e.png"])
        #expect(said.status == 2)
        #expect(said.err.contains("over its budget of 64 MB (--max-render-mb)"), "\(said.err)")
        #expect(said.err.split(separator: "\n").count == 1)
    }

    @Test func theCostlyOptionsAreRefusedUnderTheDefault() throws {
        let folder = try temporaryFolder()
        for arguments in [
            ["x", "--canvas", "16384x16384"],
            ["56.00 €", "--letter-spacing", "1000", "--size", "2000", "--radius", "1000"],
            ["x", "--canvas", "16384x16384", "--fit"],
        ] {
            let result = run(["render"] + arguments + ["-o", folder + "/a.png"])
            #expect(result.status == 2)
            #expect(result.err.contains("over its budget of 64 MB"), "\(arguments): \(result.err)")
        }
        #expect(run(["render", "x", "--max-render-mb", "0", "-o", folder + "/a.png"]).status == 2)
    }

    /// The estimate is an upper bound of what the process really takes: each label's peak
    /// resident memory, less that of a small label of its first character (the process itself
    /// and the fonts it loads: a colour emoji font is read whole), is at most the estimate.
    @Test(
        .enabled(if: !instrumented),
        arguments: [
            ["56.00 €", "--size", "1000"],
            ["56.00 €", "--size", "700", "--radius", "60"],
            ["56.00 €", "--size", "900", "--color", "#c0392b", "--background", "#fdebd0"],
            ["Hello 😀 world", "--size", "400"],
            [String(repeating: "😀", count: 40), "--size", "100"],
            ["x", "--canvas", "3000x2500"],
            ["56.00 €", "--canvas", "2500x2000", "--color", "red", "--background", "transparent"],
            ["56.00 €", "--size", "400", "--outline", "30"],
            [String(repeating: "price tag ", count: 600), "--size", "30", "--max-width", "3000"],
        ]
    )
    func theEstimateBoundsTheMeasuredPeak(arguments: [String]) throws {
        let folder = try temporaryFolder()
        // The most of three runs: VmHWM is read every millisecond or so, and a short run's last
        // reading may come before its end.
        let first = String(arguments[0].prefix(1))
        let base = try (0..<3).map { _ in
            try runChild(["render", first, "--size", "8", "--radius", "0", "-o", folder + "/base.png"])
        }.max { $0.peakMB < $1.peakMB }!
        let parsed = try RenderCommand.spec.parse(arguments + ["-o", "x.png"])
        let options = GivenOptions(parsed)
        let style = try LabelOptions.style(options, text: arguments[0])
        let cost = try LabelPipeline(style: style).cost(of: arguments[0])
        let child = try runChild(["render"] + arguments + ["--max-render-mb", "4096", "-o", folder + "/a.png"])
        #expect(child.status == 0)
        let estimatedMB = Double(cost.workingBytes) / Double(1 << 20)
        print("render budget: \(arguments.dropFirst()) measured \(child.peakMB - base.peakMB) MB of \(estimatedMB) MB")
        #expect(
            child.peakMB - base.peakMB <= estimatedMB,
            "measured \(child.peakMB - base.peakMB) MB, estimated \(estimatedMB)"
        )
    }

    @Test func aRaisedBudgetRendersWhatTheDefaultRefuses() throws {
        let folder = try temporaryFolder()
        let arguments = ["render", "56.00 €", "--size", "2000", "--radius", "0"]
        #expect(run(arguments + ["-o", folder + "/a.png"]).status == 2)
        let raised = run(arguments + ["--max-render-mb", "400", "-o", folder + "/a.png"])
        #expect(raised.status == 0, "\(raised.err)")
        #expect(FileManager.default.fileExists(atPath: folder + "/a.png"))
    }

    @Test func batchRefusesTheCostlyLineAndRendersTheOthers() throws {
        let folder = try temporaryFolder()
        let manifest = folder + "/m.jsonl"
        try """
        {"text":"9.99 €","output":"a.png"}
        {"text":"\(Self.emoji)","size":2000,"output":"b.png"}
        {"text":"x","canvas":"16384x16384","output":"c.png"}
        {"text":"1.00 €","output":"d.png"}

        """.write(toFile: manifest, atomically: true, encoding: .utf8)
        let result = run(["batch", manifest, "--out", folder + "/out"])
        #expect(result.status == 2)
        #expect(result.err.contains("line 2: the label would be"), "\(result.err)")
        #expect(result.err.contains("line 3: the label would be 16384x16384 px"), "\(result.err)")
        for name in ["a", "d"] { #expect(FileManager.default.fileExists(atPath: "\(folder)/out/\(name).png")) }
        for name in ["b", "c"] { #expect(!FileManager.default.fileExists(atPath: "\(folder)/out/\(name).png")) }
        // The budget is the command's, for every line: a tiny one refuses even a price tag.
        let tiny = run(["batch", manifest, "--out", folder + "/tiny", "--max-render-mb", "1", "--shard", "1/4"])
        #expect(tiny.status == 2)
        #expect(tiny.err.contains("line 1: the label would be"), "\(tiny.err)")
    }
}
