import BlurLabelCLI
import BlurLabelServeSettings
import Foundation

@testable import BlurLabelServe

#if canImport(Glibc)
import Glibc
#endif

/// `blurlabel serve --unsigned` as a process of its own, started in a given folder, whose memory
/// and CPU time the tests read from /proc as an operator would.
final class ServeProcess: Sendable {
    /// The built `blurlabel` beside the test bundle, when there is one.
    static var executable: String? {
        let path = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("blurlabel").path
        return FileManager.default.isExecutableFile(atPath: path) ? path : nil
    }

    let pid: pid_t
    let port: UInt16

    enum Failure: Error { case start(String) }

    /// Starts `blurlabel serve --unsigned --listen 127.0.0.1:0 ARGUMENTS` with `folder` as its
    /// working directory and waits for its port.
    init(_ arguments: [String], in folder: String) throws {
        guard let tool = Self.executable else { throw Failure.start("no built blurlabel") }
        let log = folder + "/.serve-out"
        // The shell changes into the folder and execs the tool (which execs blurlabel-serve): one pid.
        let argv =
            ([
                "/bin/sh", "-c", "cd \"$0\" && exec \"$@\"", folder, tool, "serve", "--unsigned", "--listen",
                "127.0.0.1:0", "--no-access-log",
            ]
            + arguments).map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, log, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        var child: pid_t = 0
        guard posix_spawn(&child, "/bin/sh", &actions, nil, argv, environ) == 0 else { throw Failure.start("spawn") }
        pid = child
        var found: UInt16? = nil
        for _ in 0..<400 where found == nil {
            usleep(25_000)
            let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            if let range = text.range(of: "http://127.0.0.1:") {
                found = UInt16(text[range.upperBound...].prefix { $0.isNumber })
            }
        }
        guard let found else {
            kill(child, SIGKILL)
            var status: Int32 = 0
            waitpid(child, &status, 0)
            throw Failure.start("printed no port")
        }
        port = found
    }

    /// Stops the server (SIGTERM) and waits for it.
    func stop() {
        kill(pid, SIGTERM)
        var status: Int32 = 0
        for _ in 0..<400 {
            if waitpid(pid, &status, WNOHANG) == pid { return }
            usleep(25_000)
        }
        kill(pid, SIGKILL)
        waitpid(pid, &status, 0)
    }

    /// A line of /proc/PID/status in MiB (`VmHWM`: the peak resident memory; `VmRSS`: now).
    func megabytes(_ field: String) -> Double {
        let text = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix(field + ":") }),
            let kiB = Double(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
        else { return .infinity }
        return kiB / 1024
    }

    /// The process's user and system CPU time so far, in seconds (/proc/PID/stat, clock ticks).
    var cpuSeconds: Double {
        let text = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
        // Fields after the command's name in parentheses (which may hold spaces).
        guard let close = text.lastIndex(of: ")") else { return .infinity }
        let fields = text[text.index(after: close)...].split(separator: " ")
        // utime and stime are fields 14 and 15; fields[0] here is field 3.
        guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else {
            return .infinity
        }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// An `/unsafe/` path for `text` with `pairs`.
    static func path(_ text: String, _ pairs: [(String, String)] = []) -> String {
        "/unsafe" + URLPairs.segments(pairs.map { (name: $0.0, value: $0.1) }) + "/"
            + Base64URL.encode(Array(text.utf8))
            + ".png"
    }
}
