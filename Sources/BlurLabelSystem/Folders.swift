/// The few folder operations the package needs, on plain paths, straight over the C library
/// (the shipped binary links no Foundation: Benchmarks/README.md, "One label per process").
package enum Folders {
    /// Makes the folder at `path` and any missing parents, as `mkdir -p` does; nothing happens
    /// when it exists. A file (or a link to one) in the way is an error naming that component.
    package static func create(_ path: String) throws {
        guard !path.isEmpty else { throw FileError.cannotWrite(path: path, reason: "empty folder name") }
        var prefix = path.hasPrefix("/") ? "/" : ""
        for component in path.split(separator: "/", omittingEmptySubsequences: true) {
            prefix = join(prefix, String(component))
            if mkdir(prefix, 0o777) == 0 { continue }
            let code = errno
            guard code == EEXIST else {
                throw FileError.cannotWrite(path: prefix, reason: "cannot create the folder: \(systemErrorText(code))")
            }
            guard isFolder(prefix) else {
                throw FileError.cannotWrite(path: prefix, reason: "a file of that name is in the way of the folder")
            }
        }
    }

    /// Makes the folder `path` inside an output folder (its parent exists), or accepts one that
    /// is there; a symbolic link of that name is refused, not followed out of the output folder.
    package static func createInside(_ path: String) throws {
        if mkdir(path, 0o777) == 0 { return }
        let code = errno
        guard code == EEXIST else {
            throw FileError.cannotWrite(path: path, reason: "cannot create the folder: \(systemErrorText(code))")
        }
        var info = stat()
        guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
            throw FileError.cannotWrite(
                path: path,
                reason: "is a symbolic link or not a folder (not followed inside an output folder)"
            )
        }
    }

    /// True when `path` names something (a link is followed).
    package static func exists(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0
    }

    /// True when `path` is a folder (a link to one counts).
    package static func isFolder(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    /// The names in a folder (without `.` and `..`), sorted by their bytes; nil when it cannot be read.
    package static func names(in path: String) -> [String]? {
        guard let folder = opendir(path) else { return nil }
        defer { closedir(folder) }
        var names: [String] = []
        while let entry = readdir(folder) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    /// Removes a file (not a folder); true when it was there and is gone.
    @discardableResult
    package static func removeFile(_ path: String) -> Bool {
        unlink(path) == 0
    }

    /// `folder` and `name` joined by one slash.
    package static func join(_ folder: String, _ name: String) -> String {
        folder.isEmpty ? name : folder.hasSuffix("/") ? folder + name : folder + "/" + name
    }
}
