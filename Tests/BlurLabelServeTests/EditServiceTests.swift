import BlurLabelCLI
import BlurredLabelCore
import Foundation
import Testing

@testable import BlurLabelServe
@testable import HTTPServer

/// `blurlabel edit`'s refusals, in this process (the page itself: scripts/checks/test-edit, in a browser).
@Suite("blurlabel edit")
struct EditServiceTests {
    static let token = "0123456789abcdef0123456789abcdef"

    static func service() throws -> EditService {
        var settings = EditSettings()
        settings.input = "in.png"
        settings.output = "out.png"
        let service = try EditService(
            settings: settings,
            token: token,
            image: try Image(width: 4, height: 4, fill: .black),
            workers: BoundedWorkers(threads: 1, capacity: 1)
        )
        service.port.withLock { $0 = 4321 }
        return service
    }

    static func status(
        _ service: EditService,
        _ method: String,
        _ path: String,
        headers: [(name: String, value: String)]
    ) -> (Int, HTTPResponse?) {
        let exchange = Exchange(method: method, path: path, query: "", headers: headers, connection: 1)
        let response = service.handle(
            HTTPRequest(method: method, path: path, headers: headers),
            HTTPResponder(exchange: exchange)
        )
        return (response?.status ?? 0, response)
    }

    @Test func everyRequestNeedsTheTokenAndTheServersOwnHost() throws {
        let service = try Self.service()
        let host = [(name: "Host", value: "127.0.0.1:4321")]
        #expect(Self.status(service, "GET", "/", headers: host).0 == 403)
        #expect(Self.status(service, "GET", "/state", headers: host).0 == 403)
        #expect(Self.status(service, "GET", "/" + String(repeating: "0", count: 32) + "/", headers: host).0 == 403)
        #expect(Self.status(service, "GET", "/\(Self.token)x/", headers: host).0 == 403)
        #expect(Self.status(service, "GET", "/\(Self.token)/", headers: []).0 == 421)
        #expect(Self.status(service, "GET", "/\(Self.token)/", headers: [("Host", "evil.example:4321")]).0 == 421)
        let foreign = host + [(name: "Origin", value: "http://evil.example")]
        #expect(Self.status(service, "POST", "/\(Self.token)/done", headers: foreign).0 == 403)
        #expect(!service.done.withLock { $0 })
        let (status, page) = Self.status(service, "GET", "/\(Self.token)/", headers: host)
        #expect(status == 200)
        #expect(page?.headers.contains { $0.name.lowercased().hasPrefix("access-control") } == false)
        #expect(Self.status(service, "GET", "/\(Self.token)/state", headers: [("Host", "localhost:4321")]).0 == 200)
        #expect(Self.status(service, "POST", "/\(Self.token)/done", headers: host).0 == 200)
        #expect(service.done.withLock { $0 })
    }

    @Test func refusesToWriteTheInputAndToListenBeyondLoopback() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("edit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("in.png").path
        _ = FileManager.default.createFile(atPath: input, contents: Data([1]))
        #expect(throws: (any Error).self) { try EditSettings.parse([input, "-o", folder.path + "/./in.png"]) }
        #expect(throws: (any Error).self) {
            try EditSettings.parse([input, "-o", folder.path + "/out.png", "--listen", "0.0.0.0:8080"])
        }
        guard case let .run(settings) = try EditSettings.parse([input, "-o", folder.path + "/out.png"]) else {
            Issue.record("no settings")
            return
        }
        #expect(settings.host == "127.0.0.1" && settings.port == 0)
    }
}
