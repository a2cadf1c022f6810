/// Completion scripts for bash, zsh and fish, made from the command tables (`blurlabel
/// --completions SHELL`; `scripts/install` puts them where each shell looks). Commands complete
/// first, then each command's options; a value completes as a file name.
enum ShellCompletions {
    /// The shells a script can be made for.
    static let shells = ["bash", "zsh", "fish"]

    /// The script for `shell`, or nil for a shell not in `shells`.
    static func script(for shell: String, commands: [CommandSpec]) -> String? {
        switch shell {
        case "bash": bash(commands)
        case "zsh": zsh(commands)
        case "fish": fish(commands)
        default: nil
        }
    }

    /// Every name an option is typed as, short ones included.
    private static func names(_ command: CommandSpec) -> [String] {
        (command.options + [CommandSpec.helpOption]).flatMap { [$0.name] + ($0.short.map { [$0] } ?? []) }
    }

    private static func bash(_ commands: [CommandSpec]) -> String {
        var lines = [
            "# bash completion for blurlabel (made by 'blurlabel --completions bash')",
            "_blurlabel() {",
            "    local cur=\"${COMP_WORDS[COMP_CWORD]}\" command=\"${COMP_WORDS[1]}\"",
            "    if [ \"$COMP_CWORD\" -eq 1 ]; then",
            "        COMPREPLY=($(compgen -W \"\(commands.map(\.name).joined(separator: " ")) --help --version\" -- \"$cur\"))",
            "        return",
            "    fi",
            "    local options=\"\"",
            "    case \"$command\" in",
        ]
        for command in commands {
            lines.append("        \(command.name)) options=\"\(names(command).joined(separator: " "))\" ;;")
        }
        lines += [
            "    esac",
            "    if [[ \"$cur\" == -* ]]; then",
            "        COMPREPLY=($(compgen -W \"$options\" -- \"$cur\"))",
            "    else",
            "        COMPREPLY=($(compgen -f -- \"$cur\"))",
            "    fi",
            "}",
            "complete -o filenames -F _blurlabel blurlabel",
        ]
        return lines.joined(separator: "\n") + "\n"
    }

    private static func zsh(_ commands: [CommandSpec]) -> String {
        var lines = [
            "#compdef blurlabel",
            "# zsh completion for blurlabel (made by 'blurlabel --completions zsh')",
            "_blurlabel() {",
            "    local -a commands",
            "    commands=(",
        ]
        for command in commands {
            lines.append("        '\(command.name):\(quoteZsh(command.summary))'")
        }
        lines += [
            "    )",
            "    if (( CURRENT == 2 )); then",
            "        _describe 'command' commands",
            "        return",
            "    fi",
            "    case \"$words[2]\" in",
        ]
        for command in commands {
            lines.append("    \(command.name))")
            lines.append("        _arguments \\")
            for option in command.options + [CommandSpec.helpOption] {
                let value = option.placeholder.map { ":\(quoteZsh($0)):_files" } ?? ""
                let repeatable = option.repeatable ? "*" : ""
                for name in [option.name] + (option.short.map { [$0] } ?? []) {
                    lines.append("            '\(repeatable)\(name)[\(quoteZsh(option.help))]\(value)' \\")
                }
            }
            lines.append("            '*:file:_files'")
            lines.append("        ;;")
        }
        lines += ["    esac", "}", "_blurlabel \"$@\""]
        return lines.joined(separator: "\n") + "\n"
    }

    private static func fish(_ commands: [CommandSpec]) -> String {
        var lines = [
            "# fish completion for blurlabel (made by 'blurlabel --completions fish')",
            "complete -c blurlabel -f",
        ]
        let all = commands.map(\.name).joined(separator: " ")
        for command in commands {
            lines.append(
                "complete -c blurlabel -n 'not __fish_seen_subcommand_from \(all)' -a \(command.name) -d '\(quoteFish(command.summary))'"
            )
        }
        for command in commands {
            for option in command.options + [CommandSpec.helpOption] {
                var line =
                    "complete -c blurlabel -n '__fish_seen_subcommand_from \(command.name)' -l \(option.name.dropFirst(2))"
                if let short = option.short { line += " -s \(short.dropFirst())" }
                if option.placeholder != nil { line += " -r -F" }
                line += " -d '\(quoteFish(option.help))'"
                lines.append(line)
            }
            lines.append("complete -c blurlabel -n '__fish_seen_subcommand_from \(command.name)' -F")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Text safe inside zsh's single quotes and `_arguments`' brackets.
    private static func quoteZsh(_ text: String) -> String {
        text.replacingText("'", with: "'\\''").replacingText("[", with: "\\[").replacingText("]", with: "\\]")
            .replacingText(":", with: "\\:")
    }

    /// Text safe inside fish's single quotes.
    private static func quoteFish(_ text: String) -> String {
        text.replacingText("\\", with: "\\\\").replacingText("'", with: "\\'")
    }
}
