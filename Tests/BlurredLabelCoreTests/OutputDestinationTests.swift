import Foundation
import Synchronization
import Testing

@testable import BlurLabelCodecs
@testable import BlurLabelPixels
@testable import BlurLabelSystem
@testable import BlurLabelText
@testable import BlurredLabelCore

/// The kind of file system object at `path` (S_IFREG, S_IFIFO, ...), without following a link.
private func kind(_ path: String) -> mode_t {
    var info = stat()
    return lstat(path, &info) == 0 ? info.st_mode & S_IFMT : 0
}

private func mode(_ path: String) -> mode_t {
    var info = stat()
    return stat(path, &info) == 0 ? info.st_mode & 0o7777 : 0
}

private func names(in folder: String) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
}

/// The process's umask, read without changing it.
private func currentUmask() -> mode_t {
    let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
    let line = status.split(separator: "\n").first { $0.hasPrefix("Umask:") }
    return line.flatMap { mode_t($0.dropFirst(6).trimmingCharacters(in: .whitespaces), radix: 8) } ?? 0o022
}

/// Linux's number for the null device, major 1 minor 3 (makedev(1, 3); glibc's macro is not imported).
private let nullDeviceNumber: dev_t = 1 << 8 | 3

/// Whether this process may make device nodes (root with CAP_MKNOD, outside most containers).
private let canMakeDevices: Bool = {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("blurlabel-mknod-probe-\(getpid())").path
    defer { unlink(path) }
    return mknod(path, S_IFCHR | 0o600, nullDeviceNumber) == 0
}()

@Suite("Outputs respect the file system")
struct OutputDestinationTests {
    @Test func aFIFOIsWrittenIntoNotReplaced() throws {
        let folder = try Fixtures.temporaryFolder().path
        let fifo = folder + "/pipe"
        #expect(mkfifo(fifo, 0o600) == 0)
        let received = LockedValue<[UInt8]>([])
        let reader = Thread {
            let fd = open(fifo, O_RDONLY)
            var buffer = [UInt8](repeating: 0, count: 4096)
            var all: [UInt8] = []
            while true {
                let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if n <= 0 { break }
                all += buffer[0..<n]
            }
            close(fd)
            received.withLock { $0 = all }
        }
        reader.start()
        let bytes = (0..<100_000).map { UInt8(truncatingIfNeeded: $0 * 7) }
        try FileIO.write(bytes, to: fifo)
        for _ in 0..<500 where received.withLock({ $0.isEmpty }) { usleep(10_000) }
        #expect(received.withLock { $0 } == bytes)
        #expect(kind(fifo) == S_IFIFO)
        #expect(names(in: folder) == ["pipe"])
    }

    @Test func devNullStaysADevice() throws {
        try FileIO.write([1, 2, 3], to: "/dev/null")
        #expect(kind("/dev/null") == S_IFCHR)
    }

    @Test(.enabled(if: canMakeDevices, "mknod needs root with CAP_MKNOD; without it only /dev/null is checked"))
    func aPrivateCharacterDeviceIsWrittenIntoNotReplaced() throws {
        let folder = try Fixtures.temporaryFolder().path
        let device = folder + "/null-device"
        #expect(mknod(device, S_IFCHR | 0o600, nullDeviceNumber) == 0)
        try FileIO.write(Array(repeating: 9, count: 10_000), to: device)
        #expect(kind(device) == S_IFCHR)
        #expect(names(in: folder) == ["null-device"])
    }

    @Test func devFdWritesIntoWhatTheDescriptorIsOpenOn() throws {
        // As `-o /dev/stdout` with standard output redirected to a file: the same file gets the
        // bytes, and nothing in /dev or beside the file is replaced.
        let folder = try Fixtures.temporaryFolder().path
        let fd = open(folder + "/redirected", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        defer { close(fd) }
        var before = stat()
        fstat(fd, &before)
        try FileIO.write([5, 6, 7], to: "/dev/fd/\(fd)")
        var after = stat()
        stat(folder + "/redirected", &after)
        #expect(after.st_ino == before.st_ino)
        #expect(try FileIO.read(folder + "/redirected") == [5, 6, 7])
        #expect(names(in: folder) == ["redirected"])
    }

    @Test func aSymbolicLinkIsFollowedAndKept() throws {
        let folder = try Fixtures.temporaryFolder().path
        try FileManager.default.createDirectory(atPath: folder + "/real", withIntermediateDirectories: true)
        try FileIO.write([1], to: folder + "/real/target.png")
        #expect(symlink("real/target.png", folder + "/link.png") == 0)
        try FileIO.write([2, 2], to: folder + "/link.png")
        #expect(kind(folder + "/link.png") == S_IFLNK)
        #expect(try FileIO.read(folder + "/real/target.png") == [2, 2])
        #expect(names(in: folder) == ["link.png", "real"])
        #expect(names(in: folder + "/real") == ["target.png"])
    }

    @Test func anEndlessInputIsRefusedAtTheLimit() {
        #expect(
            throws: FileError.cannotRead(path: "/dev/zero", reason: "more than 1000000 bytes, too large for an input")
        ) {
            try FileIO.read("/dev/zero", limit: 1_000_000)
        }
        #expect(FileIO.defaultReadLimit > 1 << 30 + 1 << 28)  // a PNG of 2^28 pixels stored uncompressed still fits
    }

    @Test func aLinkIsRefusedWhenLinksMustNotBeFollowed() throws {
        let folder = try Fixtures.temporaryFolder().path
        try FileIO.write([1], to: folder + "/target.png")
        #expect(symlink("target.png", folder + "/link.png") == 0)
        #expect(
            throws: FileError.cannotWrite(path: folder + "/link.png", reason: "is a symbolic link (not followed here)")
        ) {
            try FileIO.write([2], to: folder + "/link.png", followingLinks: false)
        }
        #expect(try FileIO.read(folder + "/target.png") == [1])
        #expect(kind(folder + "/link.png") == S_IFLNK)
    }

    @Test func aDanglingLinkOrAFolderIsAClearError() throws {
        let folder = try Fixtures.temporaryFolder().path
        #expect(symlink("missing.png", folder + "/dangling.png") == 0)
        #expect(
            throws: FileError.cannotWrite(
                path: folder + "/dangling.png",
                reason: "is a symbolic link to a missing file"
            )
        ) {
            try FileIO.write([1], to: folder + "/dangling.png")
        }
        #expect(throws: FileError.cannotWrite(path: folder, reason: "is a folder, not a file")) {
            try FileIO.write([1], to: folder)
        }
        #expect(throws: FileError.cannotRead(path: folder, reason: "is a folder, not a file")) {
            try FileIO.read(folder)
        }
    }

    @Test("a replaced file keeps its mode", arguments: [0o600, 0o640, 0o604, 0o755] as [mode_t])
    func replacingKeepsTheMode(permissions: mode_t) throws {
        let folder = try Fixtures.temporaryFolder().path
        let path = folder + "/secret.png"
        try FileIO.write([1], to: path)
        #expect(chmod(path, permissions) == 0)
        try FileIO.write([2], to: path)
        #expect(mode(path) == permissions)
        #expect(try FileIO.read(path) == [2])
    }

    @Test func aNewFileFollowsTheUmask() throws {
        let folder = try Fixtures.temporaryFolder().path
        try FileIO.write([1], to: folder + "/new.png")
        #expect(mode(folder + "/new.png") == 0o666 & ~currentUmask())
    }

    @Test(.enabled(if: geteuid() == 0, "only root may give a file to another owner"))
    func aReplacedFileKeepsItsOwner() throws {
        let folder = try Fixtures.temporaryFolder().path
        let path = folder + "/owned.png"
        try FileIO.write([1], to: path)
        #expect(chown(path, 4321, 4322) == 0)
        #expect(chmod(path, 0o4750) == 0)  // set-user-ID too: it must survive the change of owner
        try FileIO.write([2], to: path)
        var info = stat()
        stat(path, &info)
        #expect(info.st_uid == 4321 && info.st_gid == 4322)
        #expect(info.st_mode & 0o7777 == 0o4750)
    }

    @Test func aLongestPossibleNameWorks() throws {
        let folder = try Fixtures.temporaryFolder().path
        let name = String(repeating: "n", count: 251) + ".png"  // 255 bytes, NAME_MAX
        try FileIO.write([1, 2], to: folder + "/" + name)
        #expect(try FileIO.read(folder + "/" + name) == [1, 2])
        #expect(names(in: folder) == [name])
    }

    @Test func theTemporaryFileIsShortHiddenAndRegisteredWhileWritten() throws {
        let folder = try Fixtures.temporaryFolder().path
        var seen: [String] = []
        try FileIO.writeAtomically([1, 2, 3], to: folder + "/out.png") { fd, pointer, count in
            seen = TemporaryFiles.registered.filter { $0.hasPrefix(folder + "/") }
            return write(fd, pointer, count)
        }
        #expect(seen.count == 1)
        let name = seen.first.map { String($0.dropFirst(folder.count + 1)) } ?? ""
        #expect(name.hasPrefix(".bl.") && name.count == 10)
        #expect(!TemporaryFiles.registered.contains { $0.hasPrefix(folder + "/") })
        #expect(names(in: folder) == ["out.png"])
    }
}
