import Foundation
import Testing

/// The front page and the docs stay navigable: every relative link resolves, and the README stays
/// a front page (reference text belongs in docs/).
@Suite("Documentation")
struct DocumentationTests {
    /// The package root: the folder above this file that holds Package.swift.
    static let root: URL = {
        var root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: root.appendingPathComponent("Package.swift").path) {
            root.deleteLastPathComponent()
        }
        return root
    }()

    /// README.md, Benchmarks/README.md and every Markdown file under docs/.
    static func markdownFiles() throws -> [URL] {
        var files = [root.appendingPathComponent("README.md"), root.appendingPathComponent("Benchmarks/README.md")]
        let docs = root.appendingPathComponent("docs")
        let enumerator = FileManager.default.enumerator(at: docs, includingPropertiesForKeys: nil)
        while let url = enumerator?.nextObject() as? URL {
            if url.pathExtension == "md" { files.append(url) }
        }
        return files
    }

    /// The targets of `[text](target)` and `![alt](target)` links in `markdown`, outside code blocks.
    static func links(in markdown: String) -> [String] {
        var targets: [String] = []
        var inCode = false
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") {
                inCode.toggle()
                continue
            }
            guard !inCode else { continue }
            var rest = Substring(line)
            while let open = rest.range(of: "](") {
                let after = rest[open.upperBound...]
                guard let close = after.firstIndex(of: ")") else { break }
                targets.append(String(after[..<close]))
                rest = after[close...]
            }
        }
        return targets
    }

    @Test func everyRelativeLinkResolves() throws {
        var checked = 0
        for file in try Self.markdownFiles() {
            let text = try String(contentsOf: file, encoding: .utf8)
            for target in Self.links(in: text) {
                if target.hasPrefix("http://") || target.hasPrefix("https://") || target.hasPrefix("#")
                    || target.hasPrefix("mailto:")
                {
                    continue
                }
                let path = String(target.split(separator: "#", maxSplits: 1).first ?? "")
                let resolved = file.deletingLastPathComponent().appendingPathComponent(path).standardizedFileURL
                checked += 1
                #expect(
                    FileManager.default.fileExists(atPath: resolved.path),
                    "\(file.lastPathComponent): link '\(target)' leads nowhere"
                )
            }
        }
        #expect(checked >= 20)
    }

    @Test func readmeIsAFrontPage() throws {
        let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        let lines = readme.split(separator: "\n", omittingEmptySubsequences: false).count
        #expect(lines <= 201, "README.md has \(lines) lines; at most 200: move reference text into docs/")
    }
}
