import BlurLabelServeSettings
import BlurredLabelCore
import Foundation
import HTTPServer
import Testing

@testable import BlurLabelCLI
@testable import BlurLabelServe

#if canImport(Glibc)
import Glibc
#endif

/// `blurlabel edit`'s Save, as a user (or someone sharing the folder) would act between the
/// start and the click: OUT.png turned into a link to IN.png or another name of it, a FIFO,
/// a file with its own permissions. Over real sockets, through the page's own POST.
@Suite("blurlabel edit: Save", .serialized)
struct EditSaveTests {
    /// A folder with IN.png (a small picture) and an edit server for `IN.png -o OUT.png`.
    final class Session {
        let folder: String
        let input: String
        let output: String
        let server: HTTPServer
        let workers = BoundedWorkers(threads: 1, capacity: 4)
        let service: EditService

        init(output name: String = "out.png", rects: String? = nil) throws {
            folder =
                FileManager.default.temporaryDirectory.appendingPathComponent("edit-save-\(UUID().uuidString)")
                .path
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            input = folder + "/in.png"
            output = folder + "/" + name
            let picture = try EditServiceTests.gradient(width: 40, height: 30)
            try FileIO.write(try PNGEncoder().encode(picture), to: input)
            var arguments = [input, "-o", output]
            if let rects { arguments += ["--rects", folder + "/" + rects] }
            guard case let .run(settings) = try EditSettings.parse(arguments) else { throw RawHTTP.Failure.noReply }
            service = try EditService(
                settings: settings,
                token: EditServiceTests.token,
                image: picture,
                workers: workers
            )
            let service = service
            server = try HTTPServer(HTTPServer.Configuration(edit: settings), handler: { service.handle($0, $1) })
            service.port.withLock { $0 = server.port }
        }

        /// POSTs `body` to the page's `route`, as the page does.
        func post(_ route: String, _ body: String) throws -> RawHTTP.Reply {
            let bytes = Array(body.utf8)
            let head =
                "POST /\(EditServiceTests.token)/\(route) HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\n"
                + "Content-Length: \(bytes.count)\r\nConnection: close\r\n\r\n"
            guard let reply = RawHTTP.parse(try RawHTTP.exchange(Array(head.utf8) + bytes, port: server.port)) else {
                throw RawHTTP.Failure.noReply
            }
            return reply
        }

        func save() throws -> RawHTTP.Reply { try post("save", "--rect\n2,3,10,8:fill\n--color\n#ff0000") }

        func bytes(_ path: String) -> [UInt8]? { FileManager.default.contents(atPath: path).map { Array($0) } }

        func stop() {
            server.shutdown(drainSeconds: 2)
            workers.drain(seconds: 2)
            try? FileManager.default.removeItem(atPath: folder)
        }
    }

    @Test func aLinkToTheInputMadeAfterTheStartIsRefusedAtSave() throws {
        let session = try Session()
        defer { session.stop() }
        let original = try #require(session.bytes(session.input))
        #expect(symlink(session.input, session.output) == 0)
        let reply = try session.save()
        #expect(reply.status == 400)
        #expect(reply.text.contains("is now the input file"), "\(reply.text)")
        #expect(session.bytes(session.input) == original, "the input was written")
        // A relative link, through `..`, is the same file too.
        #expect(unlink(session.output) == 0)
        try FileManager.default.createDirectory(atPath: session.folder + "/sub", withIntermediateDirectories: true)
        #expect(symlink("sub/../in.png", session.output) == 0)
        #expect(try session.save().status == 400)
        // Another name (a hard link) of the input.
        #expect(unlink(session.output) == 0)
        #expect(link(session.input, session.output) == 0)
        #expect(try session.save().status == 400)
        #expect(session.bytes(session.input) == original, "the input was written")
        // Once OUT is its own file again, Save writes it.
        #expect(unlink(session.output) == 0)
        #expect(try session.save().status == 200)
        #expect(session.bytes(session.input) == original, "the input was written")
        #expect(session.bytes(session.output) != nil && session.bytes(session.output) != original)
    }

    @Test func theInputMovedAndOutLinkedToItsNewNameIsStillRefused() throws {
        let session = try Session()
        defer { session.stop() }
        let original = try #require(session.bytes(session.input))
        let moved = session.folder + "/moved.png"
        #expect(rename(session.input, moved) == 0)
        #expect(symlink(moved, session.output) == 0)
        #expect(try session.save().status == 400)
        #expect(session.bytes(moved) == original, "the input was written")
    }

    @Test func saveKeepsTheOutputsModeAndReplacesItWhole() throws {
        let session = try Session()
        defer { session.stop() }
        try FileIO.write([1, 2, 3], to: session.output)
        #expect(chmod(session.output, 0o640) == 0)
        var before = stat()
        #expect(stat(session.output, &before) == 0)
        #expect(try session.save().status == 200)
        var after = stat()
        #expect(stat(session.output, &after) == 0)
        #expect(after.st_mode & 0o7777 == 0o640)
        #expect(after.st_ino != before.st_ino, "written to a temporary file and renamed")
        let saved = try PNGDecoder.decode(try #require(session.bytes(session.output)))
        let expected = try EditSettings.redact(
            try EditServiceTests.gradient(width: 40, height: 30),
            arguments: ["--rect", "2,3,10,8:fill", "--color", "#ff0000"]
        )
        #expect(saved == expected)
        let names = try FileManager.default.contentsOfDirectory(atPath: session.folder)
        #expect(!names.contains { $0.hasPrefix(".bl.") }, "\(names)")
    }

    @Test func saveWritesIntoAFIFO() throws {
        let session = try Session(output: "out.fifo")
        defer { session.stop() }
        #expect(mkfifo(session.output, 0o600) == 0)
        let received = LockedValue<[UInt8]>([])
        let path = session.output
        let reader = Thread {
            let fd = open(path, O_RDONLY)
            guard fd >= 0 else { return }
            var chunk = [UInt8](repeating: 0, count: 65536)
            while true {
                let got = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if got <= 0 { break }
                received.withLock { $0 += chunk[0..<got] }
            }
            close(fd)
        }
        reader.start()
        #expect(try session.save().status == 200)
        for _ in 0..<100 where received.withLock({ $0.isEmpty }) { usleep(20_000) }
        usleep(50_000)
        let png = received.withLock { $0 }
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        var info = stat()
        #expect(lstat(session.output, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO, "the FIFO is not replaced")
    }

    @Test func theRectangleFileIsNeverTheInput() throws {
        let session = try Session(rects: "rects.json")
        defer { session.stop() }
        let original = try #require(session.bytes(session.input))
        #expect(symlink(session.input, session.folder + "/rects.json") == 0)
        let reply = try session.post("rects", "{\"rects\": []}")
        #expect(reply.status == 500 && reply.text.contains("is now the input file"), "\(reply.status) \(reply.text)")
        #expect(session.bytes(session.input) == original, "the input was written")
        #expect(unlink(session.folder + "/rects.json") == 0)
        #expect(try session.post("rects", "{\"rects\": []}").status == 200)
        #expect(session.bytes(session.folder + "/rects.json") == Array("{\"rects\": []}".utf8))
    }

    @Test func anAnimatedPictureIsRefusedAtTheStart() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("edit-apng-\(UUID().uuidString)")
            .path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let animation = folder + "/anim.png"
        let quiet = CommandLineTool.Output(standardOutput: { _ in }, standardError: { _ in })
        #expect(
            CommandLineTool.run(
                ["animate", "56.00 €", "--steps", "3", "-o", animation],
                output: quiet,
                helpers: { [] }
            ) == 0
        )
        // Were it not refused, the server would stop itself after half a second of no request.
        setenv(EditSettings.idleVariable, "0.5", 1)
        defer { unsetenv(EditSettings.idleVariable) }
        #expect(EditMain.run([animation, "-o", folder + "/out.png"]) == 2)
        #expect(!FileManager.default.fileExists(atPath: folder + "/out.png"))
    }
}
