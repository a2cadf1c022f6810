import BlurLabelSystem
import BlurredLabelCore

/// Prometheus' standard process metrics (the names its client libraries use), read from /proc
/// when `/metrics` is asked for.
enum ProcessMetrics {
    /// `(name, type, help, value)` for each metric that could be read.
    static func samples() -> [(String, String, String, String)] {
        var samples: [(String, String, String, String)] = []
        let page = Double(sysconf(Int32(_SC_PAGESIZE)))
        let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
        if let statm = text("/proc/self/statm")?.split(separator: " "), statm.count >= 2,
            let virtual = Double(statm[0]), let resident = Double(statm[1])
        {
            samples.append(
                ("process_resident_memory_bytes", "gauge", "Resident memory size in bytes.", number(resident * page))
            )
            samples.append(
                ("process_virtual_memory_bytes", "gauge", "Virtual memory size in bytes.", number(virtual * page))
            )
        }
        // /proc/self/stat: after the command's closing parenthesis, field 3 is the state; utime
        // and stime are fields 14 and 15, starttime field 22 (proc(5)), in clock ticks.
        if let stat = text("/proc/self/stat"), let close = stat.lastIndex(of: ")") {
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            if fields.count >= 20, let user = Double(fields[11]), let system = Double(fields[12]),
                let started = Double(fields[19])
            {
                samples.append(
                    (
                        "process_cpu_seconds_total", "counter", "Total user and system CPU time spent in seconds.",
                        number((user + system) / ticks)
                    )
                )
                if let boot = bootTime() {
                    samples.append(
                        (
                            "process_start_time_seconds", "gauge",
                            "Start time of the process since unix epoch in seconds.",
                            number(boot + started / ticks)
                        )
                    )
                }
            }
        }
        if let names = Folders.names(in: "/proc/self/fd") {
            // Less the descriptor that reads the folder.
            samples.append(
                ("process_open_fds", "gauge", "Number of open file descriptors.", String(max(0, names.count - 1)))
            )
        }
        var limit = rlimit()
        if getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 {
            samples.append(
                ("process_max_fds", "gauge", "Maximum number of open file descriptors.", String(limit.rlim_cur))
            )
        }
        return samples
    }

    /// Seconds from an arbitrary start, never going back.
    static func monotonicSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// The boot time in seconds since the epoch (`btime` in /proc/stat).
    static func bootTime() -> Double? {
        guard let stat = text("/proc/stat") else { return nil }
        let line = stat.split(separator: "\n").first { $0.hasPrefix("btime ") }
        return line.flatMap { Double($0.dropFirst(6)) }
    }

    /// A whole small file of /proc as text; nil when it cannot be read.
    static func text(_ path: String) -> String? {
        (try? FileIO.read(path, limit: 1 << 20)).map { String(decoding: $0, as: UTF8.self) }
    }

    /// A number as Prometheus' text format writes it (integers without a fraction).
    static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }
}
