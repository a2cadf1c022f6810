import BlurLabelCLI
import BlurLabelServeSettings
import BlurredLabelCore
import Foundation
import Testing

@testable import BlurLabelServe

/// What one signed URL can make the server do, tried as the attacker would: a label whose
/// render would take gigabytes is refused at once with one reason; a fixed canvas the label
/// does not fit is refused, never served cut off.
@Suite("serve: the cost known before the work", .serialized)
struct RenderBudgetServeTests {
    static let emoji = String(repeating: "😀", count: 1500)

    @Test func fifteenHundredEmojiAtSize2000AreRefusedAtOnce() throws {
        let server = try TestServer()
        defer { server.stop() }
        // An ordinary emoji label first: fontconfig's ranking and the emoji font are loaded.
        #expect(try RawHTTP.request(TestServer.path("😀 9.99"), port: server.port).status == 200)
        var fastest = Duration.seconds(60)
        for attempt in 0..<3 {
            let path = TestServer.path(Self.emoji, [("size", "\(2000 - attempt)")])
            let started = ContinuousClock.now
            let reply = try RawHTTP.request(path, port: server.port)
            fastest = min(fastest, ContinuousClock.now - started)
            #expect(reply.status == 400)
            #expect(reply.text.contains("over its budget of 64 MB"), "\(reply.text)")
            #expect(!reply.text.contains("😀"))
        }
        // Wall-clock time on a test machine that runs other suites at once: the least of three
        // tries, with room for their scheduling. The CPU time it costs (under 0.1 s, without that
        // noise) is asserted on a serve process (ServeUnderLoadTests).
        #expect(fastest < .milliseconds(500) || ServeUnderLoadTests.instrumented, "fastest refusal took \(fastest)")
    }

    @Test func theCostlyOptionsAreRefusedAndASmallerBudgetIsTheServers() throws {
        let server = try TestServer()
        defer { server.stop() }
        for pairs in [
            [("canvas", "16384x16384")],
            [("letter-spacing", "1000"), ("size", "2000"), ("radius", "1000")],
        ] {
            let reply = try RawHTTP.request(TestServer.path("56.00 €", pairs), port: server.port)
            #expect(reply.status == 400)
            #expect(reply.text.contains("over its budget of 64 MB"), "\(pairs): \(reply.text)")
        }
        let big = TestServer.path("56.00 €", [("size", "400")])
        #expect(try RawHTTP.request(big, port: server.port).status == 200)
        let small = try TestServer(budget: RenderBudget(megabytes: 4))
        defer { small.stop() }
        let refused = try RawHTTP.request(big, port: small.port)
        #expect(refused.status == 400)
        #expect(refused.text.contains("over its budget of 4 MB"), "\(refused.text)")
    }

    @Test func aCanvasTheLabelDoesNotFitIsRefusedNeverClipped() throws {
        let server = try TestServer()
        defer { server.stop() }
        let clipped = try RawHTTP.request(TestServer.path("56.00 €", [("canvas", "40x20")]), port: server.port)
        #expect(clipped.status == 400)
        #expect(clipped.text.contains("the content does not fit the 40x20 canvas"), "\(clipped.text)")
        // Colour glyphs take the other compositing path: refused alike.
        let emoji = try RawHTTP.request(TestServer.path("😀😀😀", [("canvas", "30x30")]), port: server.port)
        #expect(emoji.status == 400)
        #expect(emoji.text.contains("the content does not fit the 30x30 canvas"), "\(emoji.text)")
        // What fits, and what --fit fits, is served.
        #expect(
            try RawHTTP.request(TestServer.path("56.00 €", [("canvas", "200x60")]), port: server.port).status == 200
        )
        let fitted = TestServer.path("56.00 €", [("canvas", "40x20"), ("fit", "true"), ("min-size", "1")])
        #expect(try RawHTTP.request(fitted, port: server.port).status == 200)
    }

    @Test func signRefusesWhatServeWouldRefuse() throws {
        func sign(_ options: [(String, String)], _ text: String) -> String? {
            do {
                try URLLabelOptions.check(
                    URLLabelOptions.options(options.map { (name: $0.0, value: $0.1) }),
                    text: text
                )
                return nil
            } catch { return error.description }
        }
        #expect(sign([("canvas", "40x20")], "56.00 €") == "the content does not fit the 40x20 canvas")
        #expect(sign([("canvas", "200x60")], "56.00 €") == nil)
        #expect(sign([("canvas", "40x20"), ("fit", "true"), ("min-size", "1")], "56.00 €") == nil)
        #expect(sign([("canvas", "60x40"), ("secure", "true"), ("format", "###.## €")], "5.00 €") != nil)
        #expect(sign([("font", "/etc/passwd")], "x") == LabelOptions.notAnInstalledFamily)
        #expect(sign([("font", "no such family at all")], "x") == LabelOptions.notAnInstalledFamily)
    }
}
