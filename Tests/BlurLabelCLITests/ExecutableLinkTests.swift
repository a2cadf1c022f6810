import Foundation
import Testing

/// The libraries an ELF file asks the dynamic loader for (its DT_NEEDED entries), read from the
/// file itself: the section headers, the `.dynamic` section and the string table it links to.
/// Only 64-bit little-endian ELF, what this package builds on Linux.
struct ELFNeeded {
    enum Failure: Error { case notELF64, truncated, noDynamicSection }

    static func libraries(in path: String) throws -> [String] {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        func integer(_ offset: Int, _ size: Int) throws -> Int {
            guard offset >= 0, offset + size <= bytes.count else { throw Failure.truncated }
            var value = 0
            for i in (0..<size).reversed() { value = value << 8 | Int(bytes[offset + i]) }
            return value
        }
        guard bytes.count >= 64, bytes[0...3] == [0x7F, 0x45, 0x4C, 0x46], bytes[4] == 2, bytes[5] == 1 else {
            throw Failure.notELF64
        }
        let sectionTable = try integer(0x28, 8)
        let entrySize = try integer(0x3A, 2)
        let sectionCount = try integer(0x3C, 2)
        func section(_ i: Int) throws -> (type: Int, offset: Int, size: Int, link: Int, entrySize: Int) {
            let at = sectionTable + i * entrySize
            return (
                try integer(at + 4, 4), try integer(at + 0x18, 8), try integer(at + 0x20, 8), try integer(at + 0x28, 4),
                try integer(at + 0x38, 8)
            )
        }
        for i in 0..<sectionCount {
            let dynamic = try section(i)
            // 6 is SHT_DYNAMIC.
            guard dynamic.type == 6 else { continue }
            let strings = try section(dynamic.link)
            var names: [String] = []
            for entry in stride(from: dynamic.offset, to: dynamic.offset + dynamic.size, by: max(16, dynamic.entrySize))
            {
                let tag = try integer(entry, 8)
                if tag == 0 { break }  // DT_NULL
                guard tag == 1 else { continue }  // DT_NEEDED
                var at = strings.offset + (try integer(entry + 8, 8))
                var name: [UInt8] = []
                while at < bytes.count, bytes[at] != 0 {
                    name.append(bytes[at])
                    at += 1
                }
                names.append(String(decoding: name, as: UTF8.self))
            }
            return names
        }
        throw Failure.noDynamicSection
    }
}

/// The shipped `blurlabel` links no test framework and no Foundation, not even
/// FoundationEssentials (each would be loaded, or linked in and relocated, at every start). `scripts/checks/check-static-binary` checks the release build further:
/// no Swift library at all, and it runs copied to another folder with a bare environment.
@Suite("What the executable links")
struct ExecutableLinkTests {
    static let forbidden = [
        "libXCTest", "libTesting", "lib_TestingInterop", "lib_Testing_Foundation",
        "libFoundation.so", "libFoundationEssentials", "libFoundationInternationalization", "lib_FoundationICU",
        "libFoundationNetworking", "libFoundationXML",
    ]

    @Test func theReaderSeesWhatTheTestBundleLinks() throws {
        // The test bundle itself links the test frameworks: the reader must find them there,
        // or a pass below would mean nothing.
        let needed = try ELFNeeded.libraries(in: "/proc/self/exe")
        #expect(
            needed.contains { $0.hasPrefix("libswiftCore") }
                && needed.contains { $0.hasPrefix("libXCTest") || $0.hasPrefix("libTesting") },
            "\(needed)"
        )
        #expect(throws: ELFNeeded.Failure.self) { try ELFNeeded.libraries(in: #filePath) }
    }

    @Test func debugExecutableLinksNoTestFrameworkNorFoundation() throws {
        let path = try BuiltExecutable.path()
        let needed = try ELFNeeded.libraries(in: path)
        #expect(needed.contains("libharfbuzz.so.0"), "\(needed)")
        for name in Self.forbidden {
            #expect(!needed.contains { $0.hasPrefix(name) }, "\(path) links \(name): \(needed)")
        }
        // fontconfig is opened when first needed (Text/Fontconfig.swift), not at every start.
        #expect(!needed.contains { $0.hasPrefix("libfontconfig") }, "\(needed)")
        // FriBiDi, jansson and libdeflate are linked in from their static archives (their module maps).
        for name in ["libfribidi", "libjansson", "libdeflate"] {
            #expect(!needed.contains { $0.hasPrefix(name) }, "\(needed)")
        }
        // `serve` and `sign` exec blurlabel-serve: the HTTP and crypto libraries are never loaded here.
        #expect(!needed.contains { $0.hasPrefix("libmicrohttpd") || $0.hasPrefix("libcrypto") }, "\(needed)")
    }

}
