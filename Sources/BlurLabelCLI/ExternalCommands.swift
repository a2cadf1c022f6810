import BlurLabelSystem

/// `serve`, `sign` and `edit` run in `blurlabel-serve`, installed beside `blurlabel`: it links the HTTP
/// (libmicrohttpd) and crypto (libcrypto) libraries, which a one-label `render` must not load.
/// `blurlabel` execs it with the same arguments.
enum ExternalCommands {
    struct Command: Sendable {
        let name: String
        let summary: String
    }

    static let all = [
        Command(name: "serve", summary: "serve labels over HTTP from signed URLs (docs/serve.md)"),
        Command(name: "sign", summary: "print a signed URL path for a label, for serve"),
        Command(name: "edit", summary: "draw redaction rectangles on a PNG in the browser (docs/edit.md)"),
    ]

    /// The helper's path: beside this executable (its real path, links followed).
    static var helperPath: String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard length > 0 else { return nil }
        let path = String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard let slash = path.lastIndex(of: "/") else { return nil }
        return String(path[...slash]) + "blurlabel-serve"
    }

    /// Replaces this process with the helper; returns only when that fails (exit 2).
    static func exec(_ command: Command, _ arguments: [String], output: CommandLineTool.Output) -> Int32 {
        guard let helper = helperPath, access(helper, X_OK) == 0 else {
            output.standardError(
                "blurlabel \(command.name): blurlabel-serve is not installed beside blurlabel (swift build --product blurlabel-serve)\n"
            )
            return 2
        }
        let all = ["blurlabel-serve"] + arguments
        var pointers = all.map { strdup($0) }
        pointers.append(nil)
        execv(helper, pointers)
        let reason = String(cString: strerror(errno))
        for pointer in pointers { free(pointer) }
        output.standardError("blurlabel \(command.name): cannot run \(helper): \(reason)\n")
        return 2
    }
}
