import BlurredLabelCore
import Foundation
import Testing

@testable import BlurLabelCLI

/// Runs the built tool as a child and reports its exit status and peak resident memory (KiB),
/// measured by the kernel for that child alone (wait4's rusage).
private func runChild(_ arguments: [String]) throws -> (status: Int32, peakKiB: Int) {
    let tool = try BuiltExecutable.path()
    let argv = ([tool] + arguments).map { strdup($0) } + [nil]
    defer { for argument in argv { free(argument) } }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    defer { posix_spawn_file_actions_destroy(&actions) }
    var pid: pid_t = 0
    guard posix_spawn(&pid, tool, &actions, nil, argv, environ) == 0 else { return (-1, 0) }
    var status: Int32 = 0
    var usage = rusage()
    while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
    return ((status >> 8) & 0xff, usage.ru_maxrss)
}

private func mode(_ path: String) -> mode_t {
    var info = stat()
    return stat(path, &info) == 0 ? info.st_mode & 0o7777 : 0
}

private func greyPicture(_ path: String) throws {
    var image = try Image(width: 64, height: 32, fill: .white)
    for y in 8..<24 {
        for x in 4..<60 where (x / 3) % 2 == 0 {
            let i = (y * 64 + x) * 4
            image[byte: i] = 0
            image[byte: i + 1] = 0
            image[byte: i + 2] = 0
        }
    }
    try FileIO.write(try PNGEncoder().encode(image), to: path)
}

@Suite("redact --in-place and -o on links and permissions")
struct RedactLinkTests {
    @Test func inPlaceOnASymbolicLinkRedactsTheTargetAndKeepsTheLink() throws {
        let folder = try temporaryFolder()
        try greyPicture(folder + "/secret.png")
        let before = try FileIO.read(folder + "/secret.png")
        #expect(symlink("secret.png", folder + "/link.png") == 0)
        let result = run(["redact", folder + "/link.png", "--rect", "0,0,64,32:fill", "--in-place"])
        #expect(result.status == 0, "\(result.err)")
        #expect(try FileIO.read(folder + "/secret.png") != before)
        #expect(try PNGDecoder.decode(contentsOf: folder + "/secret.png").pixels.allSatisfy { $0 == 0 || $0 == 255 })
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: folder + "/link.png")) == "secret.png")
    }

    @Test func outputThroughALinkToTheInputIsRefusedWithoutInPlace() throws {
        let folder = try temporaryFolder()
        try greyPicture(folder + "/secret.png")
        let before = try FileIO.read(folder + "/secret.png")
        #expect(symlink("secret.png", folder + "/link.png") == 0)
        let result = run(["redact", folder + "/secret.png", "--rect", "0,0,10,10:fill", "-o", folder + "/link.png"])
        #expect(result.status == 2 && result.err.contains("is the input file"), "\(result.err)")
        #expect(try FileIO.read(folder + "/secret.png") == before)
    }

    @Test func inPlaceOnAHardLinkedFileIsRefusedAndChangesNothing() throws {
        let folder = try temporaryFolder()
        try greyPicture(folder + "/secret.png")
        let before = try FileIO.read(folder + "/secret.png")
        #expect(link(folder + "/secret.png", folder + "/other-name.png") == 0)
        let result = run(["redact", folder + "/secret.png", "--rect", "0,0,10,10:fill", "--in-place"])
        #expect(result.status == 2)
        #expect(
            result.err.contains("2 names (hard links)") && result.err.filter { $0 == "\n" }.count == 1,
            "\(result.err)"
        )
        #expect(try FileIO.read(folder + "/secret.png") == before)
        #expect(try FileIO.read(folder + "/other-name.png") == before)
    }

    @Test func inPlaceKeepsAPrivateFilePrivate() throws {
        let folder = try temporaryFolder()
        try greyPicture(folder + "/s.png")
        #expect(chmod(folder + "/s.png", 0o600) == 0)
        #expect(run(["redact", folder + "/s.png", "--rect", "0,0,10,10:secure", "--in-place"]).status == 0)
        #expect(mode(folder + "/s.png") == 0o600)
    }

    @Test func outputOverAnExistingFileKeepsItsMode() throws {
        let folder = try temporaryFolder()
        try greyPicture(folder + "/in.png")
        try FileIO.write([0], to: folder + "/out.png")
        #expect(chmod(folder + "/out.png", 0o640) == 0)
        #expect(run(["blur", folder + "/in.png", "-o", folder + "/out.png"]).status == 0)
        #expect(mode(folder + "/out.png") == 0o640)
        #expect(try PNGDecoder.decode(contentsOf: folder + "/out.png").width == 64)
    }

    @Test func aLongOutputNameWorks() throws {
        let folder = try temporaryFolder()
        try greyPicture(folder + "/in.png")
        let name = String(repeating: "x", count: 245) + ".png"  // 249 bytes
        let result = run(["blur", folder + "/in.png", "-o", folder + "/" + name])
        #expect(result.status == 0, "\(result.err)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == ["in.png", name])
    }

    @Test func foundationFileErrorsAreWords() throws {
        let folder = try temporaryFolder()
        try FileIO.write([1], to: folder + "/a-file")
        let result = run(["animate", "x", "--steps", "1", "--max-radius", "1", "--frames", folder + "/a-file/frames"])
        #expect(result.status == 2)
        #expect(!result.err.contains("NSCocoaErrorDomain") && !result.err.contains("UserInfo"), "\(result.err)")
        #expect(result.err.contains(folder + "/a-file") && result.err.filter { $0 == "\n" }.count == 1, "\(result.err)")
    }
}

@Suite("hostile input to the real executable")
struct HostileExecutableTests {
    /// A 44-byte PNG: signature, a 1×1 IHDR, then a chunk that claims 2 GB and holds 3 bytes.
    static let claimsTwoGigabytes: [UInt8] = {
        let ihdr: [UInt8] = [0, 0, 0, 1, 0, 0, 0, 1, 8, 6, 0, 0, 0]
        var bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        let ihdrType = Array("IHDR".utf8)
        bytes += [0, 0, 0, 13] + ihdrType + ihdr + withUnsafeBytes(of: crc(ihdrType + ihdr).bigEndian, Array.init)
        bytes += [0x7F, 0xFF, 0xFF, 0xF0] + Array("zTXt".utf8) + [1, 2, 3]
        return bytes
    }()

    static func crc(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = (crc >> 1) ^ (0xEDB8_8320 & (0 &- (crc & 1))) }
        }
        return ~crc
    }

    @Test
    func aChunkClaimingTwoGigabytesCostsNoMemory() throws {
        let folder = try temporaryFolder()
        #expect(Self.claimsTwoGigabytes.count == 44)
        try FileIO.write(Self.claimsTwoGigabytes, to: folder + "/bomb.png")
        let baseline = try runChild(["--version"])
        let bomb = try runChild(["blur", folder + "/bomb.png", "-o", folder + "/out.png"])
        #expect(bomb.status == 2)
        // Everything but the bomb: the runtime and libraries. 64 MiB over it is far below 2 GB.
        #expect(
            bomb.peakKiB < baseline.peakKiB + 64 * 1024,
            "peak \(bomb.peakKiB) KiB, baseline \(baseline.peakKiB) KiB"
        )
        #expect(!FileManager.default.fileExists(atPath: folder + "/out.png"))
    }

    /// A large incompressible picture, so that writing its copy takes a while.
    static func noisePicture(_ path: String, side: Int) throws {
        var pixels = [UInt8](repeating: 255, count: side * side * 4)
        pixels.withUnsafeMutableBytes { arc4random_buf($0.baseAddress!, $0.count) }
        for i in stride(from: 3, to: pixels.count, by: 4) { pixels[i] = 255 }
        try FileIO.write(
            try PNGEncoder(compressionLevel: 0).encode(try Image(width: side, height: side, premultipliedRGBA: pixels)),
            to: path
        )
    }

    /// Starts `blur` copying a large picture, sends `signal` the moment its temporary file appears
    /// (inotify), and returns the exit status and what is left in the output folder; nil when the
    /// temporary file never appeared.
    static func interruptWhileWriting(input: String, folder: String, signal: Int32) throws -> (Int32, [String])? {
        let watch = inotify_init1(Int32(IN_CLOEXEC))
        defer { close(watch) }
        #expect(inotify_add_watch(watch, folder, UInt32(IN_CREATE)) >= 0)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try BuiltExecutable.path())
        process.arguments = ["blur", input, "--radius", "0", "--compression", "0", "-o", folder + "/out.png"]
        process.standardError = FileHandle.nullDevice
        try process.run()
        var sent = false
        var buffer = [UInt8](repeating: 0, count: 4096)
        var poller = pollfd(fd: watch, events: Int16(POLLIN), revents: 0)
        waiting: while poll(&poller, 1, 120_000) > 0 {
            let n = buffer.withUnsafeMutableBytes { read(watch, $0.baseAddress, $0.count) }
            var offset = 0
            while n > 0 && offset + 16 <= n {
                let length = buffer[(offset + 12)..<(offset + 16)].withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) }
                let name = String(
                    decoding: buffer[(offset + 16)..<(offset + 16 + Int(length))].prefix { $0 != 0 },
                    as: UTF8.self
                )
                if name.hasPrefix(".bl.") {
                    kill(process.processIdentifier, signal)
                    sent = true
                    break waiting
                }
                offset += 16 + Int(length)
            }
        }
        process.waitUntilExit()
        guard sent else { return nil }
        return (process.terminationStatus, try FileManager.default.contentsOfDirectory(atPath: folder))
    }

    @Test(arguments: [SIGINT, SIGTERM])
    func anInterruptedWriteLeavesNoTemporaryFile(signal: Int32) throws {
        let folder = try temporaryFolder()
        try Self.noisePicture(folder + "/in.png", side: 3000)
        try FileManager.default.createDirectory(atPath: folder + "/out", withIntermediateDirectories: true)
        // The write may still win the race on a busy machine: try a few times, and require that
        // every run the signal stopped left nothing behind.
        var stopped = 0
        for _ in 0..<3 where stopped == 0 {
            try? FileManager.default.removeItem(atPath: folder + "/out/out.png")
            guard
                let (status, left) = try Self.interruptWhileWriting(
                    input: folder + "/in.png",
                    folder: folder + "/out",
                    signal: signal
                )
            else {
                Issue.record("no temporary file appeared")
                return
            }
            #expect(left.allSatisfy { !$0.hasPrefix(".") }, "left behind: \(left)")
            if status == 128 + signal {
                stopped += 1
                #expect(left.isEmpty)
            } else {
                #expect(status == 0 && left == ["out.png"])
            }
        }
        #expect(stopped > 0, "the write finished before the signal every time")
    }
}
