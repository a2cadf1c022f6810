import Foundation
import Testing

@testable import BlurredLabelCore

@Suite("Processor count")
struct ProcessorCountTests {
    /// `taskset -c 0 blurlabel …` (or a container's cpuset) allows one CPU: the default thread
    /// count must be 1 there, not the machine's online CPUs. The affinity is the calling thread's,
    /// so this narrows the test's own thread with `taskset -p` and gives it back afterwards.
    @Test func followsTheThreadsAffinity() throws {
        let online = Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))
        let taskset = "/usr/bin/taskset"
        try #require(FileManager.default.isExecutableFile(atPath: taskset), "taskset (util-linux) is needed")
        // The kernel's id of this thread: /proc/thread-self is a link to PID/task/TID.
        let link = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/thread-self")
        let thread = try #require(link.split(separator: "/").last.map(String.init))
        let status = try String(contentsOfFile: "/proc/thread-self/status", encoding: .utf8)
        let allowed = try #require(
            status.split(separator: "\n").first { $0.hasPrefix("Cpus_allowed_list:") }?
                .split(separator: "\t").last.map(String.init)
        )
        func setAffinity(_ list: String) throws {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: taskset)
            process.arguments = ["-p", "-c", list, thread]
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()
            try #require(process.terminationStatus == 0)
        }
        let before = ProcessorCount.available()
        #expect(before >= 1 && before <= online)
        // One CPU: nothing to narrow.
        guard online > 1, allowed.contains(where: { $0 == "-" || $0 == "," }) else { return }
        let first = String(allowed.prefix { $0.isNumber })
        try setAffinity(first)
        defer { try? setAffinity(allowed) }
        #expect(ProcessorCount.available() == 1)
    }
}
