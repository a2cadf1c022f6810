import Foundation
import Testing

@testable import BlurredLabelCore

@Suite("JSON through jansson")
struct JSONValueTests {
    private func parse(_ text: String, object: Bool = true) throws(JSONError) -> JSONValue {
        try JSONValue(parsing: Array(text.utf8), topLevelObject: object)
    }

    @Test func readsEveryKindOfValue() throws {
        let value = try parse(
            #"{"s":"a\u00e9\n","n":-2.5e1,"i":3,"t":true,"f":false,"z":null,"l":["x",1],"o":{"k":"v"}}"#
        )
        #expect(
            value
                == .object([
                    "s": .string("aé\n"), "n": .number(-25), "i": .number(3), "t": .bool(true), "f": .bool(false),
                    "z": .null,
                    "l": .array([.string("x"), .number(1)]), "o": .object(["k": .string("v")]),
                ])
        )
        #expect(try parse(#"{"nul":"a\u0000b"}"#)["nul"] == .string("a\u{0}b"))
        #expect(try parse(#"{"big":123456789012345678901234567890}"#)["big"] == .number(1.2345678901234568e29))
    }

    @Test("what is not one JSON object is refused, with the kind of problem and where")
    func refusals() {
        #expect(throws: JSONError(kind: .duplicateKey, line: 1, column: 10)) { try parse(#"{"a":1,"a":2 }"#) }
        #expect(throws: JSONError(kind: .notAnObject, line: 1, column: 1)) { try parse("[1,2]") }
        for bad in [
            "", "{", #"{"a":}"#, "{'a':1}", #"{"a":NaN}"#, #"{"a":1e999}"#, #"{"a":1} {"b":2}"#, "{\"a\":\"\u{1}\"}",
        ] {
            #expect(throws: JSONError.self, "\(bad)") { try parse(bad) }
        }
        let invalidUTF8: [UInt8] = Array(#"{"a":""#.utf8) + [0xC3, 0x28] + Array(#""}"#.utf8)
        #expect(throws: JSONError.self) { try JSONValue(parsing: invalidUTF8) }
    }

    @Test func anyValueAtTheTopWhenAsked() throws {
        #expect(try parse("[1,\"a\"]", object: false) == .array([.number(1), .string("a")]))
        #expect(try parse("7", object: false) == .number(7))
    }

    @Test("serialised with sorted keys, whole numbers without a fraction, and read back the same")
    func serialisation() throws {
        let value = JSONValue.object([
            "b": .array([.number(3), .number(0.1), .number(-1e300)]), "a": .string("é\"/\u{0}"),
            "c": .object([:]), "d": .null, "e": .bool(false),
        ])
        let text = String(decoding: value.serialized(), as: UTF8.self)
        #expect(
            text == #"{"a":"é\"/\u0000","b":[3,0.10000000000000001,-1.0000000000000001e300],"c":{},"d":null,"e":false}"#
        )
        #expect(try JSONValue(parsing: value.serialized()) == value)
    }
}

@Suite("Same file, by inode or resolved path")
struct SameFileTests {
    @Test func linksDotsAndFilesNotYetWritten() throws {
        let base = try Fixtures.temporaryFolder().path
        try Folders.create(base + "/real/sub")
        #expect(symlink(base + "/real", base + "/link") == 0)
        try FileIO.write([1], to: base + "/real/a.png")
        #expect(SameFile.check(base + "/link/a.png", base + "/real/a.png"))  // both exist: one inode
        #expect(SameFile.check(base + "/link/new.png", base + "/real/sub/../new.png"))  // neither exists yet
        #expect(!SameFile.check(base + "/real/new.png", base + "/real/sub/new.png"))
        #expect(
            SameFile.resolved(base + "/link/missing/x/../y.png") == SameFile.resolved(base + "/real") + "/missing/y.png"
        )
    }
}

@Suite("Report entries as JSON files")
struct ComparisonReportEntryJSONTests {
    @Test func roundTripAndDates() throws {
        let entry = ComparisonReportEntry(
            name: "<b>a/b</b>",
            outcome: .sizeMismatch,
            test: "S/t()",
            summary: "2 of 4 differ",
            expected: .init(file: "e.png", width: 3, height: 4),
            acceptCommands: ["cp 'a' b"],
            date: 1_796_134_515
        )
        let json = try JSONValue(parsing: entry.json.serialized())
        #expect(json["date"] == .string("2026-12-01T14:15:15Z"))
        #expect(json["location"] == nil && json["actual"] == nil)
        #expect(ComparisonReportEntry(json: json) == entry)
        #expect(ComparisonReportEntry.secondsSince1970(iso8601: "1970-01-01T00:00:00Z") == 0)
        for bad in [
            "2026-12-01 14:15:15Z", "2026-13-01T14:15:15Z", "2026-12-01T14:15:15", "2026-12-01T14:15:15.5Z", "",
        ] {
            #expect(ComparisonReportEntry.secondsSince1970(iso8601: bad) == nil, "\(bad)")
        }
    }

    @Test("an entry file from 0.1 (Foundation's JSONEncoder, escaped slashes) still reads")
    func olderEntryFile() throws {
        let old =
            #"{"acceptCommands":["cp \/tmp\/a.png \/tmp\/b.png"],"actual":{"file":"x-actual.png","height":2,"width":3},"date":"2026-11-30T08:00:00Z","name":"x","outcome":"failed","summary":"1 of 6 pixels differ"}"#
        let entry = try #require(ComparisonReportEntry(json: try JSONValue(parsing: Array(old.utf8))))
        #expect(entry.acceptCommands == ["cp /tmp/a.png /tmp/b.png"] && entry.actual?.width == 3 && entry.test == nil)
        #expect(entry.date == 1_796_025_600)
    }

    @Test func notAnEntry() throws {
        for text in [
            #"{}"#,
            #"{"name":"x","outcome":"exploded","summary":"","date":"2026-11-30T08:00:00Z","acceptCommands":[]}"#,
            #"{"name":"x","outcome":"failed","summary":"","date":"2026-11-30T08:00:00Z","acceptCommands":[1]}"#,
            #"{"name":"x","outcome":"failed","summary":"","date":"2026-11-30T08:00:00Z","acceptCommands":[],"diff":{"file":"d","width":-1,"height":1}}"#,
        ] {
            #expect(ComparisonReportEntry(json: try JSONValue(parsing: Array(text.utf8))) == nil, "\(text)")
        }
    }
}
