import CCPUSet

/// The processors this process may use: the online CPUs, fewer when its affinity allows fewer
/// (`taskset`, a container's cpuset) or a cgroup CPU quota allows less time (containers). Read
/// with a few system calls, not through Foundation's `ProcessInfo`, whose set-up costs more than
/// rendering a small label. (The thread count never changes the bytes made, only how fast.)
package enum ProcessorCount {
    package static func available() -> Int {
        var count = Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))
        let allowed = Int(bl_allowed_cpu_count())
        if allowed > 0 { count = min(count, allowed) }
        if let quota = cgroupQuota() { count = min(count, quota) }
        return max(1, count)
    }
    /// Whole CPUs a cgroup quota allows (rounded up), from cgroup v2's `cpu.max` ("max 100000" or
    /// "200000 100000") or v1's `cpu.cfs_quota_us` / `cpu.cfs_period_us`; nil for no quota.
    private static func cgroupQuota() -> Int? {
        if let line = readSmallFile("/sys/fs/cgroup/cpu.max") {
            let parts = line.split(separator: " ")
            guard parts.count == 2, let quota = Int(parts[0]), let period = Int(parts[1]), quota > 0, period > 0 else {
                return nil
            }
            return (quota + period - 1) / period
        }
        guard let quota = readSmallFile("/sys/fs/cgroup/cpu/cpu.cfs_quota_us").flatMap({ Int($0) }), quota > 0,
            let period = readSmallFile("/sys/fs/cgroup/cpu/cpu.cfs_period_us").flatMap({ Int($0) }), period > 0
        else { return nil }
        return (quota + period - 1) / period
    }

    /// The first line of a small file (trimmed), nil if it cannot be read.
    private static func readSmallFile(_ path: String) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 64)
        let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        guard n > 0 else { return nil }
        let line = buffer[..<n].prefix { $0 != UInt8(ascii: "\n") }
        return String(decoding: line, as: UTF8.self)
    }
}
