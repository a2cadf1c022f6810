import BlurLabelServeSettings
import BlurredLabelCore
import Foundation
import Synchronization
import Testing

@testable import BlurLabelCLI

/// Runs the tool in-process and captures what it prints.
final class Captured: Sendable {
    private let text = LockedValue((out: "", err: ""))
    var out: String { text.withLock { $0.out } }
    var err: String { text.withLock { $0.err } }
    func appendOut(_ s: String) { text.withLock { $0.out += s } }
    func appendErr(_ s: String) { text.withLock { $0.err += s } }
}

func run(_ arguments: [String]) -> (status: Int32, out: String, err: String) {
    let captured = Captured()
    let output = CommandLineTool.Output(
        standardOutput: { captured.appendOut($0) },
        standardError: { captured.appendErr($0) }
    )
    let status = CommandLineTool.run(arguments, output: output, helpers: ServeCommandSpecs.all)
    return (status, captured.out, captured.err)
}

func temporaryFolder() throws -> String {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("blurlabel-cli-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url.path
}

@Suite("Command line")
struct CommandLineTests {
    @Test func helpAndVersion() {
        let help = run(["--help"])
        #expect(help.status == 0 && help.out.contains("commands:") && help.out.contains("render"))
        let version = run(["--version"])
        #expect(version.status == 0 && version.out == "blurlabel \(CommandLineTool.version)\n")
        for listing in CommandLineTool.commands {
            let sub = run([listing.name, "--help"])
            #expect(sub.status == 0 && sub.out.hasPrefix("usage: blurlabel \(listing.name)"), "\(listing.name)")
            #expect(sub.out.contains("\n\n\(listing.summary)\n"), "\(listing.name)")
            #expect(help.out.contains("  \(listing.name.padded(to: 10))\(listing.summary)\n"), "\(listing.name)")
            // Each listing loads the command of its own name.
            #expect(listing.load().spec.name == listing.name)
        }
    }

    /// `BlurRadius` checks every σ once; each σ option says its refusal in its own name, as typed
    /// (a command line's text, a manifest's number).
    @Test func sigmaRefusalsNameTheOptionGiven() throws {
        let folder = try temporaryFolder()
        let animate = run(["animate", "x", "-o", folder + "/o.png", "--max-radius", "-0.5"])
        #expect(
            animate.status == 2 && animate.err == "blurlabel animate: --max-radius must be from 0 to 1000, got -0.5\n"
        )
        let render = run(["render", "x", "-o", folder + "/o.png", "-r", "1e9"])
        #expect(render.err == "blurlabel render: --radius must be from 0 to 1000, got 1e9\n")
        let line = try ManifestLine(bytes: Array(#"{"text":"t","output":"o.png","radius":1000.5}"#.utf8))
        #expect { try line.style() } throws: { "\($0)" == "--radius must be from 0 to 1000, got 1000.5" }
        #expect(!FileManager.default.fileExists(atPath: folder + "/o.png"))
    }

    /// The command line's range messages quote `Limits`, the one table (not a literal of their own).
    @Test func limitMessagesQuoteTheTable() throws {
        let folder = try temporaryFolder()
        let picture = folder + "/in.png"
        try FileIO.write(try PNGEncoder().encode(try Image(width: 4, height: 4, fill: .white)), to: picture)
        let sigma = Int(Limits.maximumRadius)
        let cases: [([String], String)] = [
            (
                ["render", "x", "-o", folder + "/o.png", "--radius", "\(sigma + 1)"],
                "--radius must be from 0 to \(sigma), got"
            ),
            (
                ["animate", "x", "-o", folder + "/o.png", "--max-radius", "\(sigma + 1)"],
                "--max-radius must be from 0 to \(sigma), got"
            ),
            (
                ["blur", picture, "-o", folder + "/o.png", "--radius", "\(sigma + 1)"],
                "--radius must be from 0 to \(sigma), got"
            ),
            (
                ["redact", picture, "--rect", "0,0,2,2", "-o", folder + "/o.png", "--radius", "\(sigma + 1)"],
                "--radius must be from 0 to \(sigma), got"
            ),
            (
                [
                    "redact", picture, "--rect", "0,0,2,2", "-o", folder + "/o.png", "--block",
                    "\(Limits.maximumPixelateBlock + 1)",
                ],
                "--block must be from 2 to \(Limits.maximumPixelateBlock), got"
            ),
            (
                [
                    "render", "x", "-o", folder + "/o.png", "--letter-spacing",
                    "\(Int(Limits.maximumLetterSpacing) + 1)",
                ],
                "--letter-spacing must be from -\(Int(Limits.maximumLetterSpacing)) to \(Int(Limits.maximumLetterSpacing)), got"
            ),
        ]
        for (arguments, message) in cases {
            let result = run(arguments)
            #expect(result.status == 2 && result.err.contains(message), "\(arguments): \(result.err)")
        }
        // The help quotes the same numbers.
        #expect(run(["redact", "--help"]).out.contains("0 to \(sigma)"))
        #expect(run(["blur", "--help"]).out.contains("0 to \(sigma)"))
    }

    /// A radius whose square underflows (about 1e-162 and below) is in range and made every
    /// command that blurs stop with a trap; in batch it ended the whole run.
    @Test func underflowingRadiusIsABlurInEveryCommand() throws {
        let folder = try temporaryFolder()
        let picture = folder + "/in.png"
        try FileIO.write(try PNGEncoder().encode(try Image(width: 8, height: 8, fill: .white)), to: picture)
        let manifest = folder + "/m.jsonl"
        try FileIO.write(
            Array(
                ("{\"text\":\"5\",\"output\":\"a.png\",\"radius\":1e-200}\n"
                    + "{\"text\":\"6\",\"output\":\"b.png\",\"radius\":1e-200,\"secure\":true,\"format\":\"#\"}\n").utf8
            ),
            to: manifest
        )
        for arguments in [
            ["render", "56", "-r", "1e-200"],
            ["blur", picture, "-r", "1e-200"], ["redact", picture, "--rect", "0,0,4,4:secure", "-r", "1e-200"],
            ["animate", "56", "--max-radius", "1e-200"],
        ] {
            let result = run(arguments + ["-o", folder + "/out.png"])
            #expect(result.status == 0, "\(arguments): \(result.err)")
        }
        // In secure mode it is under the legibility floor: refused.
        let secure = run(["render", "56", "-r", "1e-200", "--secure", "--format", "##", "-o", folder + "/s.png"])
        #expect(secure.status == 2 && secure.err.contains("legibility floor"), "\(secure.err)")
        let batch = run(["batch", manifest, "--out", folder + "/batch"])
        #expect(batch.err.contains("legibility floor"), "\(batch.err)")
        #expect(
            FileManager.default.fileExists(atPath: folder + "/batch/a.png")
                && !FileManager.default.fileExists(atPath: folder + "/batch/b.png")
        )
    }

    @Test(
        "argument errors: one line on stderr, exit 2",
        arguments: [
            (["bogus"], "unknown command 'bogus'"),
            (["render"], "needs TEXT"),
            (["render", "hi"], "missing -o"),
            (["render", "hi", "-o", "x.png", "--size"], "--size needs a value"),
            (["render", "hi", "-o", "x.png", "--colour", "red"], "unknown option '--colour'"),
            (["render", "hi", "-o", "x.png", "--size", "0"], "--size must be from"),
            (["render", "hi", "-o", "x.png", "--size", "-3"], "--size must be from"),
            (["render", "hi", "-o", "x.png", "--size", "nan"], "--size needs a finite decimal number"),
            (
                ["render", "hi", "-o", "x.png", "--radius", "0x10"],
                "--radius needs a finite decimal number, got '0x10'"
            ),
            (["render", "hi", "-o", "x.png", "--font", ""], "--font needs a font file or a family name"),
            (["render", "hi", "-o", "x.png", "--size", "5000"], "--size must be from"),
            (["render", "hi", "-o", "x.png", "--radius", "-1"], "--radius must be from"),
            (["render", "hi", "-o", "x.png", "--color", "#12"], "bad hex colour"),
            (["render", "hi", "-o", "x.png", "--canvas", "-5x10"], "--canvas sides must be"),
            (["render", "hi", "-o", "x.png", "--canvas", "big"], "--canvas needs WIDTHxHEIGHT"),
            (["render", "hi", "-o", "x.png", "--canvas", "0x10"], "--canvas sides must be"),
            (["render", "hi", "-o", "x.png", "--direction", "up"], "--direction must be"),
            (
                ["render", "hi", "-o", "x.png", "--font", "/no/such/font.ttf"],
                "cannot read font file /no/such/font.ttf"
            ),
            (["render", "hi", "-o", "x.png", "--features", "t@num"], "invalid OpenType feature"),
            (["render", "hi", "there", "-o", "x.png"], "unexpected argument 'there'"),
            (["blur", "in.png"], "missing -o"),
            (["blur", "/no/such.png", "-o", "x.png"], "cannot read /no/such.png"),
            (["diff", "a.png"], "needs ACTUAL.png"),
            (["render", "hi", "-o", ""], "cannot write a file with an empty name"),
            (["blur", "", "-o", "x.png"], "cannot read a file with an empty name"),
        ]
    )
    func argumentErrors(arguments: [String], message: String) {
        let result = run(arguments)
        #expect(result.status == 2, "\(arguments)")
        #expect(result.err.contains(message), "\(arguments): \(result.err)")
        #expect(result.err.filter { $0 == "\n" }.count == 1, "one line: \(result.err)")
    }

    @Test func renderWritesAPNGAndNothingOnFailure() throws {
        let folder = try temporaryFolder()
        let path = folder + "/tag.png"
        #expect(run(["render", "56.00 €", "-o", path]).status == 0)
        let image = try PNGDecoder.decode(contentsOf: path)
        #expect(image.width > 50 && image.height > 20)
        let failed = run(["render", "56.00 €", "-o", folder + "/bad.png", "--color", "nope"])
        #expect(failed.status == 2)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["tag.png"])
    }

    @Test func renderWarnsAboutClippingAndMissingGlyphs() throws {
        let folder = try temporaryFolder()
        let clipped = run(["render", "A long price tag", "-o", folder + "/c.png", "--canvas", "40x20"])
        #expect(clipped.status == 0 && clipped.err.contains("clipped"))
        #expect(try PNGDecoder.decode(contentsOf: folder + "/c.png").width == 40)
        let missing = run(["render", "a\u{6F22}b", "-o", folder + "/m.png", "--radius", "0", "--no-system-fonts"])
        #expect(missing.status == 0 && missing.err.contains("U+6F22"))
    }

    @Test func blurCommandBlursAndKeepsGrey() throws {
        let folder = try temporaryFolder()
        var image = try Image(width: 30, height: 20, fill: .white)
        for x in 10..<20 {
            for y in 5..<15 {
                let i = (y * 30 + x) * 4
                image[byte: i] = 0
                image[byte: i + 1] = 0
                image[byte: i + 2] = 0
            }
        }
        try FileIO.write(try PNGEncoder().encode(image), to: folder + "/in.png")
        #expect(run(["blur", folder + "/in.png", "--radius", "3", "-o", folder + "/out.png"]).status == 0)
        let (out, header) = try PNGDecoder.decodeWithHeader(contentsOf: folder + "/out.png")
        #expect(header.colorType == 0)
        #expect(out == (try GaussianBlur(sigma: 3, edges: .clamp).apply(to: image)))
    }

    @Test func blurRefusesBrokenPNGWithoutWriting() throws {
        let folder = try temporaryFolder()
        try FileIO.write(Array("not a png at all".utf8), to: folder + "/in.png")
        let result = run(["blur", folder + "/in.png", "-o", folder + "/out.png"])
        #expect(result.status == 2 && result.err.contains("not a PNG"))
        #expect(!FileManager.default.fileExists(atPath: folder + "/out.png"))
    }

    @Test func diffExitCodes() throws {
        let folder = try temporaryFolder()
        let white = try Image(width: 8, height: 8, fill: .white)
        var dotted = white
        dotted[byte: 0] = 0
        dotted[byte: 1] = 0
        dotted[byte: 2] = 0
        try FileIO.write(try PNGEncoder().encode(white), to: folder + "/a.png")
        try FileIO.write(try PNGEncoder().encode(dotted), to: folder + "/b.png")
        try FileIO.write(try PNGEncoder().encode(try Image(width: 9, height: 8)), to: folder + "/c.png")
        #expect(run(["diff", folder + "/a.png", folder + "/a.png"]).status == 0)
        let different = run(["diff", folder + "/a.png", folder + "/b.png", "--diff", folder + "/d.png"])
        #expect(different.status == 1 && different.out.contains("1 of 64 pixels differ"))
        #expect(FileManager.default.fileExists(atPath: folder + "/d.png"))
        #expect(run(["diff", folder + "/a.png", folder + "/b.png", "--max-diff-pixels", "1"]).status == 0)
        #expect(
            run(["diff", folder + "/a.png", folder + "/c.png"]).out.contains("size mismatch: expected 8x8, actual 9x8")
        )
        #expect(run(["diff", folder + "/a.png", folder + "/missing.png"]).status == 2)
    }
}

@Suite("Argument parser")
struct ArgumentParserTests {
    let spec = CommandSpec(
        name: "t",
        summary: "test",
        positionals: ["A", "B"],
        optionalPositionals: 1,
        options: [
            OptionSpec(name: "--size", short: "-s", value: "N", help: ""),
            OptionSpec(name: "--rect", value: "R", repeatable: true, help: ""),
            OptionSpec(name: "--flag", help: ""),
        ]
    )

    @Test func parsesLongShortInlineRepeatedAndFlags() throws {
        let p = try spec.parse(["a", "--size", "3", "--rect=1,2,3,4", "--rect", "5,6,7,8", "--flag", "b"])
        #expect(
            p.positionals == ["a", "b"] && p.value("--size") == "3" && p.all("--rect").count == 2 && p.has("--flag")
        )
        #expect(try spec.parse(["a", "-s", "9"]).value("--size") == "9")
    }

    @Test func negativeNumbersAndDashAreValues() throws {
        #expect(try spec.parse(["-", "-5"]).positionals == ["-", "-5"])
        #expect(try spec.parse(["a", "--size", "-2"]).value("--size") == "-2")
        #expect(try spec.parse(["--", "--size"]).positionals == ["--size"])
    }

    @Test func errors() {
        #expect(throws: UsageError.self) { try spec.parse([]) }
        #expect(throws: UsageError.self) { try spec.parse(["a", "b", "c"]) }
        #expect(throws: UsageError.self) { try spec.parse(["a", "--size", "1", "--size", "2"]) }
        #expect(throws: UsageError.self) { try spec.parse(["a", "--flag=yes"]) }
        #expect(throws: UsageError.self) { try spec.parse(["a", "--size"]) }
    }

    @Test func helpListsEveryOption() {
        for option in spec.options { #expect(spec.help.contains(option.name)) }
        #expect(spec.usage == "blurlabel t A [B] [options]")
    }
}

@Suite("animate command")
struct AnimateCommandTests {
    @Test func writesFramesAndAPNG() throws {
        let folder = try temporaryFolder()
        #expect(run(["animate", "56", "--steps", "4", "--max-radius", "5", "--frames", folder + "/f"]).status == 0)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder + "/f").sorted()
                == ["frame-000.png", "frame-001.png", "frame-002.png", "frame-003.png", "frame-004.png"]
        )
        #expect(run(["animate", "56", "--steps", "4", "--bounce", "-o", folder + "/a.png"]).status == 0)
        let first = try PNGDecoder.decode(contentsOf: folder + "/f/frame-000.png")
        #expect(first.width > 0)
    }

    /// A link planted among the frames is refused, not followed out of the folder; frames left
    /// by an earlier, longer run are named in a warning.
    @Test func framesStayInTheirFolder() throws {
        let folder = try temporaryFolder()
        let elsewhere = try temporaryFolder()
        #expect(run(["animate", "56", "--steps", "4", "--frames", folder + "/f"]).status == 0)
        let shorter = run(["animate", "56", "--steps", "2", "--frames", folder + "/f"])
        #expect(
            shorter.status == 0
                && shorter.err.contains("also holds 2 frame files from an earlier run (frame-003.png …)"),
            "\(shorter.err)"
        )
        try FileIO.write(Array("keep".utf8), to: elsewhere + "/x.png")
        try FileManager.default.removeItem(atPath: folder + "/f/frame-001.png")
        try FileManager.default.createSymbolicLink(
            atPath: folder + "/f/frame-001.png",
            withDestinationPath: elsewhere + "/x.png"
        )
        let linked = run(["animate", "56", "--steps", "2", "--frames", folder + "/f"])
        #expect(linked.status == 2 && linked.err.contains("symbolic link"), "\(linked.err)")
        #expect(try FileIO.read(elsewhere + "/x.png") == Array("keep".utf8))
    }

    @Test(
        "bad animation input",
        arguments: [
            (["animate", "56", "--steps", "0", "-o", "x.png"], "--steps must be from 1"),
            (["animate", "56", "--max-radius", "-2", "-o", "x.png"], "--max-radius must be from 0"),
            (["animate", "56"], "missing -o OUT.png or --frames DIR"),
            (["animate", "56", "-o", "x.png", "--reverse", "--bounce"], "cannot be combined"),
            (["animate", "56", "-o", "x.png", "--radius", "2"], "unknown option '--radius'"),
        ]
    )
    func badInput(arguments: [String], message: String) throws {
        let folder = try temporaryFolder()
        let result = run(arguments.map { $0 == "x.png" ? folder + "/x.png" : $0 })
        #expect(result.status == 2 && result.err.contains(message), "\(result.err)")
        #expect(!FileManager.default.fileExists(atPath: folder + "/x.png"))
    }
}

@Suite("redact command")
struct RedactCommandTests {
    func writeGreyPicture(_ path: String) throws {
        var image = try Image(width: 64, height: 32, fill: .white)
        for y in 8..<24 {
            for x in 4..<60 where (x / 3) % 2 == 0 {
                let i = (y * 64 + x) * 4
                image[byte: i] = 0
                image[byte: i + 1] = 0
                image[byte: i + 2] = 0
            }
        }
        try FileIO.write(try PNGEncoder().encode(image), to: path)
    }

    @Test func keepsGreyAndWarnsAboutCosmeticModes() throws {
        let folder = try temporaryFolder()
        try writeGreyPicture(folder + "/in.png")
        let result = run([
            "redact", folder + "/in.png", "--rect", "4,8,20,16", "--rect", "40,24,-10,-16:pixelate", "-o",
            folder + "/out.png",
        ])
        #expect(result.status == 0 && result.err.contains("cosmetic") && result.err.contains("secure"))
        #expect(try PNGDecoder.decodeWithHeader(contentsOf: folder + "/out.png").header.colorType == 0)
        let secure = run([
            "redact", folder + "/in.png", "--rect", "4,8,20,16", "--mode", "secure", "-o", folder + "/s.png",
        ])
        #expect(secure.status == 0 && secure.err.isEmpty)
    }

    @Test func inPlaceReplacesAtomicallyAndOnlyWhenAsked() throws {
        let folder = try temporaryFolder()
        try writeGreyPicture(folder + "/in.png")
        let before = try FileIO.read(folder + "/in.png")
        #expect(run(["redact", folder + "/in.png", "--rect", "0,0,10,10:fill", "-o", folder + "/in.png"]).status == 2)
        #expect(try FileIO.read(folder + "/in.png") == before)
        #expect(run(["redact", folder + "/in.png", "--rect", "0,0,10,10:fill", "--in-place"]).status == 0)
        #expect(try FileIO.read(folder + "/in.png") != before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["in.png"])
    }

    /// --in-place replaces a regular file; a FIFO (no reader: it waited for ever) or /dev/stdin
    /// (a pipe fed its own input) is refused before anything is read.
    @Test func inPlaceNeedsARegularFile() throws {
        let folder = try temporaryFolder()
        try #require(mkfifo(folder + "/fifo.png", 0o600) == 0)
        for input in [folder + "/fifo.png", "/dev/stdin"] {
            let result = run(["redact", input, "--rect", "0,0,2,2", "--in-place"])
            #expect(
                result.status == 2 && result.err.contains("--in-place needs a regular file"),
                "\(input): \(result.err)"
            )
        }
    }

    @Test(
        "bad regions: one line naming the region, exit 2, nothing written",
        arguments: [
            (["--rect", "100,100,5,5"], "region 1 (100,100,5,5) lies entirely outside"),
            (["--rect", "1,1,5,5", "--rect", "3,3,0,4"], "region 2 (3,3,0,4) has no area"),
            (["--rect", "1,1,5"], "region 1: '1,1,5' is not X,Y,W,H"),
            (["--rect", "1,1,a,5"], "region 1: '1,1,a,5' is not X,Y,W,H"),
            (["--rect", "-9223372036854775808,0,1,1"], "region 1: '-9223372036854775808,0,1,1' is out of range"),
            (["--rect", "0,0,1,-9223372036854775808"], "is out of range"),
            (["--rect", "1,1,5,5:blurry"], "unknown mode 'blurry'"),
            (["--rect", "1,1,5,5", "--mode", "smear"], "unknown mode 'smear'"),
            ([] as [String], "give at least one --rect"),
        ]
    )
    func badRegions(extra: [String], message: String) throws {
        let folder = try temporaryFolder()
        try writeGreyPicture(folder + "/in.png")
        let result = run(["redact", folder + "/in.png", "-o", folder + "/out.png"] + extra)
        #expect(result.status == 2 && result.err.contains(message), "\(result.err)")
        #expect(result.err.filter { $0 == "\n" }.count == 1)
        #expect(!FileManager.default.fileExists(atPath: folder + "/out.png"))
    }
}

@Suite("secure rendering from the command line")
struct SecureCommandTests {
    @Test func secretsOfDifferentLengthGiveIdenticalFiles() throws {
        let folder = try temporaryFolder()
        for (name, secret) in [("a", "56.00 €"), ("b", "3.10 €")] {
            #expect(
                run(["render", secret, "--secure", "--seed", "7", "--format", "##.## €", "-o", "\(folder)/\(name).png"])
                    .status == 0
            )
        }
        #expect(try FileIO.read(folder + "/a.png") == FileIO.read(folder + "/b.png"))
    }

    /// Without a format the decoy would be as long as the text, which shows how many digits it has.
    @Test func secureWithoutAFormatIsRefused() throws {
        let folder = try temporaryFolder()
        let result = run(["render", "56.00 €", "--secure", "-o", folder + "/a.png"])
        #expect(result.status == 2 && result.err.contains("--secure needs --format"), "\(result.err)")
        #expect(!FileManager.default.fileExists(atPath: folder + "/a.png"))
    }

    /// A secret that starts with '-' reads as an option, and an unquoted one as extra arguments:
    /// the messages say so without quoting any argument.
    @Test(
        "argument errors under --secure quote no argument",
        arguments: [
            ["render", "--secure", "-56.00 €", "-o", "/tmp/never.png"],
            ["render", "--secure", "SECRET", "56.00", "-o", "/tmp/never.png"],
            ["animate", "-SECRET 56.00", "--secure", "-o", "/tmp/never.png"],
            ["animate", "SECRET", "56.00", "--secure", "-o", "/tmp/never.png"],
        ]
    )
    func argumentErrorsKeepTheSecret(arguments: [String]) {
        let result = run(arguments)
        #expect(result.status == 2 && result.err.contains("--secure never shows the arguments"), "\(result.err)")
        #expect(!result.err.contains("SECRET") && !result.err.contains("56"), "\(result.err)")
        #expect(!FileManager.default.fileExists(atPath: "/tmp/never.png"))
        // Without --secure the same mistakes are quoted, with the way out for a leading '-'.
        let plain = run(arguments.filter { $0 != "--secure" })
        #expect(plain.status == 2 && (plain.err.contains("SECRET") || plain.err.contains("56")), "\(plain.err)")
        #expect(run(["render", "-56.00 €", "-o", "/tmp/never.png"]).err.contains("goes after '--'"))
    }

    /// Nor does any other message under --secure quote what was typed: a value may be the secret
    /// put in the wrong place. Without --secure the values are quoted, as help for the user.
    @Test func optionValuesAreNotQuotedUnderSecure() throws {
        let folder = try temporaryFolder()
        for extra in [
            ["--size", "SECRET1"], ["--color", "SECRET2"], ["--canvas", "SECRET3"], ["--format", "SECRET4"],
        ] {
            let secure = run(["render", "56", "--secure", "-o", folder + "/a.png"] + extra)
            #expect(secure.status == 2 && !secure.err.contains("SECRET"), "\(secure.err)")
            let plain = run(
                ["render", "56", "-o", folder + "/a.png"]
                    + extra.filter { $0 != "--format" && !$0.hasPrefix("SECRET4") }
            )
            #expect(extra[0] == "--format" || plain.err.contains(extra[1]), "\(plain.err)")
        }
        let manifest = folder + "/m.jsonl"
        try FileIO.write(
            Array(
                #"{"text":"12.34","output":"a.png","secure":true,"size":"SECRET05"}"#.utf8 + [10]
                    + Array(#"{"text":"12.34","output":"b.png","size":"PLAIN06"}"#.utf8) + [10]
            ),
            to: manifest
        )
        let batch = run(["batch", manifest, "--out", folder + "/out"])
        #expect(batch.status == 2 && !batch.err.contains("SECRET05") && batch.err.contains("PLAIN06"), "\(batch.err)")
    }

    @Test func seedWithoutSecureIsAnError() {
        #expect(run(["render", "5", "--seed", "3", "-o", "/tmp/never.png"]).status == 2)
        #expect(
            run(["render", "5", "--secure", "--format", "abc", "-o", "/tmp/never.png"]).err.contains(
                "no digit placeholder"
            )
        )
    }
}
