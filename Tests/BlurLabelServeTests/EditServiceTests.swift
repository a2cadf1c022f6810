import BlurLabelCLI
import BlurLabelServeSettings
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
        headers: HTTPHeaders
    ) -> (Int, HTTPResponse?) {
        let exchange = Exchange(method: method, path: path, query: "", headers: headers, connection: 1)
        let response = service.handle(
            HTTPRequest(method: method, path: path, headers: headers),
            HTTPResponder(exchange: exchange)
        )
        return (response?.status.code ?? 0, response)
    }

    @Test func everyRequestNeedsTheTokenAndTheServersOwnHost() throws {
        let service = try Self.service()
        let host: HTTPHeaders = [("Host", "127.0.0.1:4321")]
        #expect(Self.status(service, "GET", "/", headers: host).0 == 403)
        #expect(Self.status(service, "GET", "/state", headers: host).0 == 403)
        #expect(Self.status(service, "GET", "/" + String(repeating: "0", count: 32) + "/", headers: host).0 == 403)
        #expect(Self.status(service, "GET", "/\(Self.token)x/", headers: host).0 == 403)
        #expect(Self.status(service, "GET", "/\(Self.token)/", headers: []).0 == 421)
        #expect(Self.status(service, "GET", "/\(Self.token)/", headers: [("Host", "evil.example:4321")]).0 == 421)
        let foreign = host + [("Origin", "http://evil.example")]
        #expect(Self.status(service, "POST", "/\(Self.token)/done", headers: foreign).0 == 403)
        #expect(!service.done.withLock { $0 })
        let (status, page) = Self.status(service, "GET", "/\(Self.token)/", headers: host)
        #expect(status == 200)
        #expect(page?.headers.contains { $0.name.lowercased().hasPrefix("access-control") } == false)
        #expect(Self.status(service, "GET", "/\(Self.token)/state", headers: [("Host", "localhost:4321")]).0 == 200)
        #expect(Self.status(service, "POST", "/\(Self.token)/done", headers: host).0 == 200)
        #expect(service.done.withLock { $0 })
    }

    /// A picture with a different colour in every pixel.
    /// The page offers what the server accepts: every mode and range `state` sends is one `redact`
    /// takes, a step beyond a range is refused, and the page itself names no mode or range.
    @Test func thePageOffersTheServersModesAndRanges() throws {
        let service = try Self.service()
        let host: HTTPHeaders = [("Host", "127.0.0.1:4321")]
        let body = try #require(Self.status(service, "GET", "/\(Self.token)/state", headers: host).1?.body)
        let state = try #require(try JSONSerialization.jsonObject(with: Data(body)) as? [String: Any])
        let modes = try #require(state["modes"] as? [String])
        let maxRadius = try #require(state["maxRadius"] as? Double)
        let (minBlock, maxBlock) = (try #require(state["minBlock"] as? Int), try #require(state["maxBlock"] as? Int))
        #expect(modes.count == 4 && maxRadius == Limits.maximumRadius && maxBlock == Limits.maximumPixelateBlock)
        let image = try Image(width: 8, height: 8, fill: .white)
        func accepted(_ arguments: [String], mode: String = "pixelate") -> Bool {
            (try? EditSettings.redact(image, arguments: arguments + ["--rect", "0,0,4,4:\(mode)"])) != nil
        }
        for mode in modes { #expect(accepted([], mode: mode)) }
        #expect(!accepted([], mode: "smudge"))
        #expect(accepted(["--radius", "\(maxRadius)"]) && !accepted(["--radius", "\(maxRadius + 0.5)"]))
        #expect(accepted(["--block", "\(minBlock)"]) && !accepted(["--block", "\(minBlock - 1)"]))
        #expect(accepted(["--block", "\(maxBlock)"]) && !accepted(["--block", "\(maxBlock + 1)"]))
        #expect(state["block"] as? Int == RedactCommand.block.defaultValue)
        let page = String(
            decoding: try #require(Self.status(service, "GET", "/\(Self.token)/", headers: host).1?.body),
            as: UTF8.self
        )
        #expect(page.contains("info.modes") && page.contains("info.maxRadius"))
        for restated in ["<option", "max=", "min=\"2\"", "250", "4096"] {
            #expect(!page.contains(restated), "\(restated)")
        }
    }

    static func gradient(width: Int, height: Int) throws -> Image {
        var bytes: [UInt8] = []
        for y in 0..<height {
            for x in 0..<width { bytes += [UInt8(x % 256), UInt8(y % 256), UInt8((x * 7 + y * 3) % 256), 255] }
        }
        return try Image(width: width, height: height, premultipliedRGBA: bytes)
    }

    /// The original with the preview's parts drawn over it, as the page draws them.
    static func drawn(_ original: Image, atlas: Image, regions: [Redaction.Rect]) throws -> Image {
        var bytes = original.pixels
        var top = 0
        for r in regions {
            for row in 0..<r.height {
                let from = (top + row) * atlas.width * 4
                let to = ((r.y + row) * original.width + r.x) * 4
                bytes[to..<(to + r.width * 4)] = atlas.pixels[from..<(from + r.width * 4)]
            }
            top += r.height
        }
        return try Image(width: original.width, height: original.height, premultipliedRGBA: bytes)
    }

    @Test func aPreviewIsTheRectanglesPartsOfWhatRedactMakes() throws {
        let image = try Self.gradient(width: 300, height: 200)
        let arguments = [
            "--mode", "blur", "--block", "5", "--color", "#ff0000",
            "--rect", "10,20,40,30:secure", "--rect", "30,30,60,50:pixelate", "--rect", "250,150,80,80:fill",
        ]
        let response = EditService.render(image, arguments: arguments, saving: nil)
        #expect(response.status == 200)
        let header = response.headers.first { $0.name == "X-Regions" }?.value
        // The secure rectangle with its margin (2 px a side); the third is clipped to the picture.
        #expect(header == "8,18,44,34;30,30,60,50;250,150,50,50")
        let atlas = try PNGDecoder.decode(response.body)
        #expect(atlas.width == 60 && atlas.height == 134)
        let regions = try #require(header).split(separator: ";").map { part in
            let n = part.split(separator: ",").map { Int($0)! }
            return Redaction.Rect(x: n[0], y: n[1], width: n[2], height: n[3])
        }
        let expected = try EditSettings.redact(image, arguments: arguments)
        #expect(try Self.drawn(image, atlas: atlas, regions: regions) == expected)
        #expect(expected != image)
    }

    @Test func largeOrOverlappingRectanglesAreSentAsTheirBoundingBox() throws {
        let image = try Self.gradient(width: 100, height: 80)
        let regions = [
            Redaction.Rect(x: 0, y: 0, width: 90, height: 70), Redaction.Rect(x: 5, y: 10, width: 95, height: 70),
        ]
        let patches = try EditPatches(of: image, regions: regions)
        #expect(patches.regions == [Redaction.Rect(x: 0, y: 0, width: 100, height: 80)])
        #expect(patches.atlas == image)
        let small = try EditPatches(of: image, regions: [Redaction.Rect(x: 3, y: 4, width: 2, height: 1)])
        #expect(small.atlas.pixels == Array(image.pixels[(4 * 100 + 3) * 4..<(4 * 100 + 5) * 4]))
        #expect(small.header == "3,4,2,1")
    }

    @Test func onlyThePagesOwnRequestsPutOffTheIdleExit() throws {
        let service = try Self.service()
        service.lastRequest.withLock { $0 = 5 }
        let host: HTTPHeaders = [("Host", "127.0.0.1:4321")]
        _ = Self.status(service, "GET", "/state", headers: host)
        _ = Self.status(service, "GET", "/\(Self.token)/state", headers: [("Host", "evil.example:4321")])
        #expect(service.lastRequest.withLock { $0 } == 5)
        _ = Self.status(service, "GET", "/\(Self.token)/state", headers: host)
        #expect(service.lastRequest.withLock { $0 } > 5)
    }

    @Test func theIdleTimeForTestsComesFromTheEnvironment() throws {
        #expect(try EditSettings.idleSeconds(environment: nil) == nil)
        #expect(try EditSettings.idleSeconds(environment: "2") == 2)
        #expect(try EditSettings.idleSeconds(environment: "0.5") == 0.5)
        for bad in ["", "soon", "0", "-1", "0.01", "1e9", "nan"] {
            #expect(throws: (any Error).self) { try EditSettings.idleSeconds(environment: bad) }
        }
        #expect(EditSettings().idleSeconds == 3600)
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
