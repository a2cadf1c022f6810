import BlurLabelCLI
import BlurLabelServeSettings
import Testing

@testable import BlurLabelServe

/// `--preset NAME=options`, `BLURLABEL_PRESETS`, `preset:NAME` in a URL and `--only-presets`, as
/// a shop configures them and as a visitor who edits URLs tries to get around them.
@Suite("Presets", .serialized)
struct PresetTests {
    static func settings(_ arguments: [String], _ environment: [String: String] = [:]) throws -> ServeSettings {
        guard case let .run(settings) = try ServeSettings.parse(arguments, environment: { environment[$0] }) else {
            throw URLLabelOptions.Failure("help")
        }
        return settings
    }

    static func refusal(_ arguments: [String], _ environment: [String: String] = [:]) -> String {
        do {
            _ = try settings(arguments, environment)
            return ""
        } catch {
            return "\(error)"
        }
    }

    @Test func presetsFromOptionsAndEnvironment() throws {
        let settings = try Self.settings(
            ["--preset", "tag=size:40/radius:1", "--preset", "dark=color:%23ffffff/background:%23222222"],
            ["BLURLABEL_PRESETS": "tag=size:20;plain=radius:0", "BLURLABEL_ONLY_PRESETS": "1"]
        )
        #expect(settings.presets.only)
        #expect(Set(settings.presets.names) == ["tag", "dark", "plain"])
        // --preset overrides the variable's definition of the same name.
        #expect(
            try settings.presets.expanded([("preset", "tag")]).map { "\($0.name):\($0.value)" } == [
                "size:40", "radius:1",
            ]
        )
        #expect(try settings.presets.expanded([("preset", "dark")]).contains { $0 == ("color", "#ffffff") })
        #expect(try !Self.settings([]).presets.only)
    }

    @Test func badDefinitionsStopTheServerWithOneLine() {
        let cases: [([String], [String: String], String)] = [
            (["--preset", "tag"], [:], "--preset needs NAME=name:value"),
            (["--preset", "t g=size:3"], [:], "a preset's name is letters"),
            (["--preset", "tag=sise:3"], [:], "unknown option 'sise'"),
            (["--preset", "tag=size:3/size:4"], [:], "given more than once"),
            (["--preset", "tag=preset:other"], [:], "cannot name another preset"),
            (["--preset", "tag=size"], [:], "name:value"),
            (["--preset", "tag=size:5000"], [:], "--size must be from"),
            (["--preset", "tag=color:nocolor"], [:], "--color"),
            (["--preset", "tag=font:%2Fetc%2Fpasswd"], [:], "only installed family names"),
            ([], ["BLURLABEL_PRESETS": "tag=size:3;=radius:2"], "BLURLABEL_PRESETS: a preset's name"),
            (["--only-presets"], [:], "--only-presets needs at least one --preset"),
            ([], ["BLURLABEL_ONLY_PRESETS": "1"], "--only-presets needs at least one --preset"),
        ]
        for (arguments, environment, message) in cases {
            let refusal = Self.refusal(arguments, environment)
            #expect(refusal.contains(message), "\(arguments) \(environment): '\(refusal)'")
            #expect(!refusal.contains("\n"))
        }
    }

    /// A preset's label is the same picture, and the same ETag, as its options spelled out; the
    /// URL's own options override it.
    @Test func aPresetIsItsOptions() throws {
        var presets = Presets()
        try presets.add("tag=size:30/radius:4/color:%23c0392b", from: "--preset")
        let server = try TestServer(presets: presets)
        defer { server.stop() }
        let named = try RawHTTP.request(TestServer.path("12.99 €", [("preset", "tag")]), port: server.port)
        let spelled = try RawHTTP.request(
            TestServer.path("12.99 €", [("radius", "4"), ("size", "30"), ("color", "#c0392b")]),
            port: server.port
        )
        #expect(named.status == 200 && named.body == spelled.body)
        #expect(named.headers["etag"] == spelled.headers["etag"])
        let overridden = try RawHTTP.request(
            TestServer.path("12.99 €", [("preset", "tag"), ("size", "20")]),
            port: server.port
        )
        let small = try RawHTTP.request(
            TestServer.path("12.99 €", [("radius", "4"), ("size", "20"), ("color", "#c0392b")]),
            port: server.port
        )
        #expect(overridden.status == 200 && overridden.body == small.body && overridden.body != named.body)
    }

    /// With --only-presets a URL that names anything but a preset is a 400 before any render,
    /// whatever way it is written.
    @Test func onlyPresetsRefusesEveryOtherOption() throws {
        var presets = Presets()
        try presets.add("tag=size:30/radius:4", from: "--preset")
        try presets.add("big=size:60/radius:8", from: "--preset")
        presets.only = true
        let server = try TestServer(presets: presets)
        defer { server.stop() }
        let refused: [([(String, String)], String)] = [
            ([("preset", "tag"), ("radius", "0")], "option 'radius' refused"),
            ([("radius", "0"), ("preset", "tag")], "option 'radius' refused"),
            ([("size", "400")], "option 'size' refused"),
            ([("preset", "tag"), ("preset", "big")], "given more than once"),
            ([("preset", "nothere")], "unknown preset 'nothere'"),
            ([("preset", "../tag")], "unknown preset '?'"),
            ([("PRESET", "tag")], "option 'PRESET' refused"),
            ([("preset", "tag"), ("secure", "false")], "option 'secure' refused"),
        ]
        for (pairs, message) in refused {
            let reply = try RawHTTP.request(TestServer.path("12.99 €", pairs), port: server.port)
            #expect(reply.status == 400, "\(pairs)")
            #expect(reply.text.contains(message), "\(pairs): \(reply.text)")
            #expect(!reply.text.contains("12.99"))
        }
        // An escaped name is the same name: pre%73et is preset, and it is allowed.
        let escaped = CanonicalURLTests.signedRest("/pre%73et:tag/" + Base64URL.encode(Array("1".utf8)) + ".png")
        #expect(try RawHTTP.request(escaped, port: server.port).status == 200)
        #expect(try RawHTTP.request(TestServer.path("12.99 €", [("preset", "big")]), port: server.port).status == 200)
        // No option at all is no other option: the defaults.
        #expect(try RawHTTP.request(TestServer.path("12.99 €"), port: server.port).status == 200)
    }

    @Test func signWritesPresetAndChecksItWhenItKnowsThem() throws {
        let environment = ["BLURLABEL_PRESETS": "tag=size:30/radius:4"]
        guard
            case let .sign(request) = try SignRequest.parse(
                ["9,99", "--preset", "tag", "--color", "#000000"],
                environment: { environment[$0] }
            )
        else { return }
        #expect(request.pairs.map(\.name) == ["color", "preset"])
        #expect(throws: URLLabelOptions.Failure.self) {
            try SignRequest.parse(["9,99", "--preset", "other"], environment: { environment[$0] })
        }
        // Without the server's presets the name is taken on trust.
        guard case let .sign(trusted) = try SignRequest.parse(["9,99", "--preset", "other"]) else { return }
        #expect(trusted.pairs.map(\.value) == ["other"])
        // With them, the preset's options are checked with the text (size too big for the limits).
        #expect(throws: URLLabelOptions.Failure.self) {
            try SignRequest.parse(
                ["9,99", "--preset", "huge"],
                environment: { ["BLURLABEL_PRESETS": "huge=size:5000"][$0] }
            )
        }
    }
}
