import BlurLabelSystem
import BlurredLabelCore

/// The `blurlabel` command: subcommand dispatch, `--help`, `--version`, and the exit-code
/// contract (0 success, 1 a difference found by `diff`, 2 bad input, one line on stderr).
public enum CommandLineTool {
    public static let version = "0.1.0"

    /// Where a command writes; tests capture it, the executable uses the real streams.
    struct Output: Sendable {
        var standardOutput: @Sendable (String) -> Void = { writeText($0, toDescriptor: STDOUT_FILENO) }
        var standardError: @Sendable (String) -> Void = { writeText($0, toDescriptor: STDERR_FILENO) }
    }

    /// A subcommand: its table and what it does with the parsed arguments.
    struct Command: Sendable {
        let spec: CommandSpec
        let run: @Sendable (ParsedArguments, Output) throws -> Int32
        /// Called when the command could not start (its arguments refused, or `run` threw), after
        /// the error line: the raw arguments and the message. `batch -` answers every input line
        /// with a failure there, so a pipe's caller can count what was lost.
        var failedToStart: (@Sendable (_ arguments: [String], _ message: String, _ output: Output) -> Void)? = nil
    }

    /// A subcommand as `blurlabel --help` lists it. Its option table and code are made only when
    /// it runs (`load`), so one command's start-up builds no other command's table.
    struct Listing: Sendable {
        let name: String
        let summary: String
        let load: @Sendable () -> Command
    }

    static let commands: [Listing] = [
        RenderCommand.listing, AnimateCommand.listing, BatchCommand.listing,
        BlurCommand.listing, RedactCommand.listing, DiffCommand.listing,
    ]

    /// The tables of the commands `blurlabel-serve` runs (`serve`, `sign`, `edit`: their options
    /// are declared in `BlurLabelServeSettings`, above this module), which the `blurlabel`
    /// executable passes in; made only for the man page, the completions and the option tables.
    package typealias HelperSpecs = @Sendable () -> [CommandSpec]

    /// Every command's table, those `blurlabel-serve` runs too: what the man page, the completions
    /// and docs/command-line.md's option tables are made from.
    package static func referenceSpecs(helpers: HelperSpecs) -> [CommandSpec] {
        commands.map { $0.load().spec } + helpers()
    }

    /// The listing of the command called `name`, if there is one.
    static func listing(named name: String) -> Listing? {
        commands.first { $0.name == name }
    }

    /// Runs the tool (`runMain`) and ends the process with its exit status: `blurlabel`'s main.
    package static func exitAfterRunning(helpers: HelperSpecs) -> Never {
        exit(runMain(helpers: helpers))
    }

    /// Runs the tool on this process's own arguments, refusing any that are not valid UTF-8;
    /// `helpers` makes the tables of `blurlabel-serve`'s commands (`referenceSpecs`).
    package static func runMain(helpers: HelperSpecs) -> Int32 {
        // Ctrl-C or SIGTERM during a large write removes the temporary file (exit 130 or 143).
        TemporaryFiles.removeOnInterrupt()
        var arguments: [String] = []
        for index in 1..<Int(CommandLine.argc) {
            guard let raw = CommandLine.unsafeArgv[index] else { continue }
            let bytes = Array(
                UnsafeBufferPointer(
                    start: UnsafeRawPointer(raw).assumingMemoryBound(to: UInt8.self),
                    count: strlen(raw)
                )
            )
            do { arguments.append(try decodeUTF8(bytes)) } catch {
                writeText("blurlabel: argument \(index) \(error)\n", toDescriptor: STDERR_FILENO)
                return 2
            }
        }
        let status = run(arguments, output: Output(), helpers: helpers)
        if let failure = standardOutputFailure {
            let command = arguments.first.flatMap { listing(named: $0) }.map { "blurlabel \($0.name)" } ?? "blurlabel"
            writeText("\(command): cannot write to standard output: \(failure)\n", toDescriptor: STDERR_FILENO)
            return 2
        }
        return status
    }

    /// Runs the tool on `arguments` (without the program name) and returns the exit status; its
    /// man page, completions and option tables lack `blurlabel-serve`'s commands.
    public static func run(_ arguments: [String]) -> Int32 {
        run(arguments, output: Output(), helpers: { [] })
    }

    static func run(_ arguments: [String], output: Output, helpers: HelperSpecs) -> Int32 {
        guard let first = arguments.first else {
            output.standardError(generalHelp + "\n")
            return 2
        }
        switch first {
        case "--help", "-h", "help":
            output.standardOutput(generalHelp + "\n")
            return 0
        case "--version", "-V":
            output.standardOutput("blurlabel \(version)\n")
            return 0
        case "--man":
            output.standardOutput(ManPage.render(commands: referenceSpecs(helpers: helpers), version: version))
            return 0
        case "--options-markdown":  // not in --help: what scripts/update-option-tables writes into the docs
            output.standardOutput(OptionTables.markdown(commands: referenceSpecs(helpers: helpers)))
            return 0
        case "--completions":
            let shell = arguments.count == 2 ? arguments[1] : ""
            guard let script = ShellCompletions.script(for: shell, commands: referenceSpecs(helpers: helpers)) else {
                let shells = ShellCompletions.shells.joined(separator: ", ")
                output.standardError("blurlabel: --completions needs one shell: \(shells)\n")
                return 2
            }
            output.standardOutput(script)
            return 0
        default:
            break
        }
        guard let command = listing(named: first)?.load() else {
            if let external = ExternalCommands.all.first(where: { $0.name == first }) {
                return ExternalCommands.exec(external, Array(arguments), output: output)
            }
            let known = (commands.map(\.name) + ExternalCommands.all.map(\.name)).joined(separator: ", ")
            output.standardError("blurlabel: unknown command '\(first)' (commands: \(known); see 'blurlabel --help')\n")
            return 2
        }
        do {
            let parsed = try command.spec.parse(Array(arguments.dropFirst()))
            if parsed.wantsHelp {
                output.standardOutput(command.spec.help + "\n")
                return 0
            }
            return try command.run(parsed, output)
        } catch {
            var message = FlagMessages.message(for: error)
            // With --secure no argument is quoted: any of them might be the secret.
            if command.spec.hidesArguments(Array(arguments.dropFirst())) {
                let names = Set(command.spec.options.flatMap { [$0.name, $0.short].compactMap { $0 } })
                message = SecureMessages.withoutValues(
                    message,
                    arguments.dropFirst().filter { !names.contains($0) && $0 != "--" }
                )
            }
            output.standardError("blurlabel \(first): \(message)\n")
            command.failedToStart?(Array(arguments.dropFirst()), message, output)
            return 2
        }
    }

    static var generalHelp: String {
        var lines = [
            "blurlabel \(version): render text labels and blur them; blur images.",
            "",
            "usage: blurlabel COMMAND [arguments] [options]",
            "",
            "commands:",
        ]
        for command in commands {
            lines.append("  " + command.name.padded(to: 10) + command.summary)
        }
        for command in ExternalCommands.all {
            lines.append("  " + command.name.padded(to: 10) + command.summary)
        }
        lines += [
            "",
            "'blurlabel COMMAND --help' describes a command. '-' as an input reads standard input;",
            "'-o -' writes to standard output. Exit status: 0 success, 1 a difference (diff), 2 bad input.",
            "'blurlabel --man' prints the manual page; 'blurlabel --completions bash|zsh|fish' a completion script.",
        ]
        return lines.joined(separator: "\n")
    }
}
