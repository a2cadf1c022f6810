import BlurLabelServeSettings
import BlurredLabelCore
import Foundation
import Testing

@testable import BlurLabelCLI

/// The man page, the completion scripts, `--help` and docs/command-line.md's option tables are made
/// from the option declarations: every option of every command appears in each, so a new option
/// cannot be left out of them, and the checked-in tables are the ones the declarations make.
@Suite("Man page, shell completions and option tables")
struct ReferenceDocsTests {
    static let specs = CommandLineTool.referenceSpecs(helpers: ServeCommandSpecs.all)
    static let page =
        (try? String(
            contentsOfFile: #filePath.components(separatedBy: "/Tests/")[0] + "/docs/command-line.md",
            encoding: .utf8
        )) ?? ""

    /// docs/command-line.md's option tables, as checked in.
    static var checkedInTables: String {
        let start = page.range(of: OptionTables.begin)?.lowerBound ?? page.endIndex
        let stop = page.range(of: OptionTables.end)?.upperBound ?? page.endIndex
        return start < stop ? String(page[start..<stop]) + "\n" : ""
    }

    @Test func docsOptionTablesAreTheDeclarations() {
        let made = run(["--options-markdown"])
        #expect(made.status == 0)
        #expect(made.out == OptionTables.markdown(commands: Self.specs))
        #expect(
            Self.checkedInTables == made.out,
            "docs/command-line.md's option tables differ from the declarations: run scripts/update-option-tables"
        )
    }

    @Test func everyDeclaredOptionIsInHelpAndTheDocsTable() {
        for command in Self.specs {
            let section = Self.checkedInTables.components(separatedBy: "### \(command.name)\n").dropFirst().first
                .map { $0.components(separatedBy: "\n### ")[0] }
            #expect(section != nil, "docs/command-line.md has no table for \(command.name)")
            for option in command.options {
                #expect(command.help.contains(option.help), "\(command.name) --help lacks \(option.name)'s help")
                #expect(
                    section?.contains("`\(option.name)`") == true,
                    "docs/command-line.md's \(command.name) table lacks \(option.name)"
                )
            }
        }
        // The manifest keys and the label URLs' names are the declared label options' names.
        for key in LabelOptions.keys { #expect(ManifestLine.keys.contains(key) && URLLabelOptions.names.contains(key)) }
        // A line's output may be WebP or AVIF, so it takes their quality; a label URL is PNG for now.
        #expect(Set(ManifestLine.keys) == Set(["text", "output", OutputEncoding.quality.key] + URLLabelOptions.names))
    }

    /// Every help line shows the range from `Limits` and the default from the library.
    @Test func helpLinesShowRangesAndLibraryDefaults() {
        let render = RenderCommand.spec.help
        #expect(
            render.contains(
                "(0 to \(Int(Limits.maximumRadius)), or unreadable: the legibility floor for --size; default \(formatNumber(LabelStyle().radius.sigma)), still legible; with --secure unreadable)"
            )
        )
        #expect(render.contains("#RGB, #RGBA, #RRGGBB, #RRGGBBAA"))
        #expect(AnimateCommand.spec.usage == "blurlabel animate [TEXT] [options]")
        #expect(AnimateCommand.spec.help.contains("(1 to \(Limits.maximumSteps); default 20)"))
        #expect(DiffCommand.spec.help.contains("default \(ImageComparison().threshold))"))
    }

    @Test func manPageListsEveryCommandAndOption() throws {
        let result = run(["--man"])
        #expect(result.status == 0)
        let page = result.out
        #expect(page.hasPrefix(".TH BLURLABEL 1"))
        for command in Self.specs {
            #expect(page.contains(".SS \(command.name)"), "man page lacks the command \(command.name)")
            for option in command.options {
                // roff writes each dash as \-.
                let name = ManPage.escape(option.name)
                #expect(page.contains("\\fB\(name)\\fR"), "man page lacks \(command.name) \(option.name)")
            }
        }
        // No text line may start with a '.' or '\'' that roff would read as a request.
        let requests: Set<String> = [".TH", ".SH", ".SS", ".TP", ".PP", ".B", ".RI", ".br"]
        for line in page.split(separator: "\n") where line.hasPrefix(".") || line.hasPrefix("'") {
            let request = String(line.split(separator: " ").first ?? "")
            #expect(requests.contains(request), "a text line reads as a roff request: \(line)")
        }
    }

    @Test(arguments: ShellCompletions.shells)
    func completionsOfferEveryCommandAndOption(shell: String) throws {
        let result = run(["--completions", shell])
        #expect(result.status == 0)
        for command in Self.specs {
            #expect(result.out.contains(command.name))
            for option in command.options {
                let token = shell == "fish" ? "-l \(option.name.dropFirst(2))" : option.name
                #expect(result.out.contains(token), "\(shell) completion lacks \(command.name) \(option.name)")
            }
        }
    }

    @Test func completionsOfAnUnknownShellAreRefused() {
        let result = run(["--completions", "tcsh"])
        #expect(result.status == 2)
        #expect(result.err.contains("bash, zsh, fish"))
        #expect(result.out.isEmpty)
    }

    /// The scripts are valid for their shells: bash and (where installed) zsh and fish parse them.
    @Test(arguments: ShellCompletions.shells)
    func completionScriptsParse(shell: String) throws {
        let candidates = ["/bin/\(shell)", "/usr/bin/\(shell)"]
        // scripts/ensure-deps installs zsh and fish, so a missing shell fails rather than skips.
        let executable = try #require(
            candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }),
            "\(shell) is not installed: run scripts/ensure-deps"
        )
        let script = try #require(ShellCompletions.script(for: shell, commands: Self.specs))
        let file = FileManager.default.temporaryDirectory.appendingPathComponent(
            "blurlabel-completion-\(UUID()).\(shell)"
        )
        try script.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = shell == "fish" ? ["--no-execute", file.path] : ["-n", file.path]
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        process.waitUntilExit()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(process.terminationStatus == 0, "\(shell) -n: \(message)")
    }
}
