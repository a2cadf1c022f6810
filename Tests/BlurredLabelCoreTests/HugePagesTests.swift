import Foundation
import Testing

@testable import BlurredLabelCore

/// Large pixel buffers are advised onto 2 MB pages; small ones and memory already in never are.
/// Read from the kernel's own account of the mapping (`/proc/self/smaps`: "hg" among a mapping's
/// VmFlags is MADV_HUGEPAGE). The regions are mapped here, not taken from malloc: in a busy test
/// process malloc may hand a large picture memory it had before (already in, so rightly left
/// alone), which would make a test through `Image` pass or fail by chance.
@Suite(
    "Huge pages for large buffers",
    .enabled(
        if: FileManager.default.fileExists(atPath: "/sys/kernel/mm/transparent_hugepage/enabled"),
        "this kernel has no transparent huge pages"
    )
)
struct HugePagesTests {
    /// The VmFlags of the mapping that holds `address`.
    static func flags(at address: UnsafeRawPointer) throws -> [Substring] {
        // Line by line with the C library: /proc files report no size, and are read to their end.
        let file = try #require(fopen("/proc/self/smaps", "r"))
        defer { fclose(file) }
        let target = UInt(bitPattern: address)
        var inside = false
        var buffer: UnsafeMutablePointer<CChar>? = nil
        var capacity = 0
        defer { free(buffer) }
        while getline(&buffer, &capacity, file) > 0 {
            let line = String(cString: buffer!).trimmingCharacters(in: .newlines)
            let fields = line.split(separator: " ")
            guard let first = fields.first else { continue }
            if first.contains("-"), !first.hasSuffix(":") {
                let bounds = first.split(separator: "-").compactMap { UInt($0, radix: 16) }
                inside = bounds.count == 2 && bounds[0] <= target && target < bounds[1]
            } else if inside, first == "VmFlags:" {
                return Array(fields.dropFirst())
            }
        }
        Issue.record("no mapping holds \(address)")
        return []
    }

    static func mapped(_ bytes: Int) throws -> UnsafeMutableRawPointer {
        let pointer = mmap(nil, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
        return try #require(pointer == MAP_FAILED ? nil : pointer)
    }

    @Test("a 16 MB buffer's aligned part is advised, a 4 MB one is left alone")
    func threshold() throws {
        let large = try Self.mapped(16 << 20)
        let small = try Self.mapped(4 << 20)
        defer {
            munmap(large, 16 << 20)
            munmap(small, 4 << 20)
        }
        HugePages.advise(large, byteCount: 16 << 20)
        HugePages.advise(small, byteCount: 4 << 20)
        #expect(try Self.flags(at: large + (8 << 20)).contains("hg"))
        #expect(try !Self.flags(at: small + (2 << 20)).contains("hg"))
    }

    @Test("memory already in is left alone (malloc handing a buffer out again)")
    func residentMemory() throws {
        let region = try Self.mapped(16 << 20)
        defer { munmap(region, 16 << 20) }
        region.initializeMemory(as: UInt8.self, repeating: 1, count: 16 << 20)
        HugePages.advise(region, byteCount: 16 << 20)
        #expect(try !Self.flags(at: region + (8 << 20)).contains("hg"))
    }
}
