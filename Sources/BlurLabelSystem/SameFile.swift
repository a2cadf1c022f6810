/// Whether two paths name the same file: the same device and inode when both exist, otherwise
/// the same absolute path once `.`, `..` and the symbolic links of the existing folders are
/// resolved (so `out/../a.png` and `a.png` are one output before either is written).
package enum SameFile {
    /// True when `path` is `-` or names what standard output is now (`/dev/stdout`, or the file
    /// it was redirected to): a picture written there must not be followed by text on it.
    package static func isStandardOutput(_ path: String) -> Bool {
        if path == "-" { return true }
        var out = stat()
        var named = stat()
        return fstat(STDOUT_FILENO, &out) == 0 && stat(path, &named) == 0 && out.st_dev == named.st_dev
            && out.st_ino == named.st_ino
    }

    package static func check(_ a: String, _ b: String) -> Bool {
        var sa = stat()
        var sb = stat()
        if stat(a, &sa) == 0, stat(b, &sb) == 0 { return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino }
        return resolved(a) == resolved(b)
    }

    /// The path made absolute and normalised: the longest existing folder prefix through
    /// `realpath` (links resolved), the rest by name.
    package static func resolved(_ path: String) -> String {
        var components = lexical(absolute(path))
        var tail: [String] = []
        while !components.isEmpty {
            let prefix = "/" + components.joined(separator: "/")
            if let real = realpath(prefix, nil) {
                defer { free(real) }
                let head = String(cString: real)
                return tail.isEmpty ? head : (head == "/" ? "" : head) + "/" + tail.reversed().joined(separator: "/")
            }
            tail.append(components.removeLast())
        }
        return "/" + tail.reversed().joined(separator: "/")
    }

    private static func absolute(_ path: String) -> String {
        if path.hasPrefix("/") { return path }
        guard let cwd = getcwd(nil, 0) else { return "/" + path }
        defer { free(cwd) }
        return String(cString: cwd) + "/" + path
    }

    /// Components with `.` dropped and `..` taking off the one before (never above the root).
    private static func lexical(_ path: String) -> [String] {
        var components: [String] = []
        for part in path.split(separator: "/") where part != "." {
            if part == ".." {
                if !components.isEmpty { components.removeLast() }
            } else {
                components.append(String(part))
            }
        }
        return components
    }
}
