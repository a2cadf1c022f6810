import Foundation
import Testing

@testable import BlurLabelCLI

/// The man page and the completion scripts are made from the command tables: every option of every
/// command appears in each, so a new option cannot be left out of them.
@Suite("Man page and shell completions")
struct ReferenceDocsTests {
    static let specs = CommandLineTool.commands.map { $0.load().spec }

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
