import Foundation
import Testing

/// docs/DESIGN.md's picture of the modules is the manifest's: every Swift module under Sources/
/// with exactly the Swift modules it depends on, and no module depending on one drawn above it.
@Suite("Module map")
struct ModuleMapTests {
    typealias Graph = [String: Set<String>]

    /// The Swift targets under Sources/ and their dependencies among them, read from Package.swift.
    static func manifestGraph() throws -> Graph {
        let root = DocumentationTests.root
        let manifest = try String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)
        let sources = root.appendingPathComponent("Sources")
        let folders = try FileManager.default.contentsOfDirectory(atPath: sources.path)
        // A Swift module is a folder of Sources/ with a .swift file in it (the C targets have none).
        let swiftModules = Set(
            folders.filter { folder in
                let enumerator = FileManager.default.enumerator(atPath: sources.appendingPathComponent(folder).path)
                while let file = enumerator?.nextObject() as? String { if file.hasSuffix(".swift") { return true } }
                return false
            }
        )
        var graph: Graph = [:]
        // Each `.target(` / `.executableTarget(` call: its name and the names in its dependencies list.
        let calls =
            manifest.components(separatedBy: "Target(").dropFirst()
            + manifest.components(separatedBy: ".target(").dropFirst()
        for call in calls {
            guard let name = Self.firstQuoted(after: "name:", in: call), swiftModules.contains(name) else { continue }
            var dependencies: Set<String> = []
            if let list = call.range(of: "dependencies: ["),
                let end = call[list.upperBound...].firstIndex(of: "]")
            {
                for part in call[list.upperBound..<end].split(separator: ",") {
                    let name = part.trimmingCharacters(in: .whitespacesAndNewlines).trimmingCharacters(
                        in: CharacterSet(charactersIn: "\"")
                    )
                    if swiftModules.contains(name) { dependencies.insert(name) }
                }
            }
            graph[name] = dependencies
        }
        return graph
    }

    static func firstQuoted(after label: String, in text: String) -> String? {
        guard let start = text.range(of: label) else { return nil }
        let rest = text[start.upperBound...]
        guard let open = rest.firstIndex(of: "\"") else { return nil }
        let afterOpen = rest.index(after: open)
        guard let close = rest[afterOpen...].firstIndex(of: "\"") else { return nil }
        return String(rest[afterOpen..<close])
    }

    /// The picture's lines in drawing order: `Module ──► A, B` or a lone `Module`.
    static func pictureLines() throws -> [(module: String, dependencies: Set<String>)] {
        let design = try String(
            contentsOf: DocumentationTests.root.appendingPathComponent("docs/DESIGN.md"),
            encoding: .utf8
        )
        guard let start = design.range(of: "```modules\n"),
            let end = design[start.upperBound...].range(of: "```")
        else { return [] }
        return design[start.upperBound..<end.lowerBound].split(separator: "\n").map { line in
            let parts = line.components(separatedBy: "►")
            let module = parts[0].trimmingCharacters(in: CharacterSet(charactersIn: " ─"))
            let dependencies =
                parts.count > 1
                ? Set(parts[1].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }) : []
            return (module, dependencies)
        }
    }

    @Test func thePictureIsTheManifest() throws {
        let manifest = try Self.manifestGraph()
        let lines = try Self.pictureLines()
        #expect(manifest.count >= 12, "read \(manifest.count) Swift modules from Package.swift")
        let picture = Dictionary(lines.map { ($0.module, $0.dependencies) }, uniquingKeysWith: { a, _ in a })
        #expect(picture.count == lines.count, "a module drawn twice")
        for (module, dependencies) in manifest {
            #expect(picture[module] == dependencies, "\(module): Package.swift says \(dependencies.sorted())")
        }
        for module in picture.keys where manifest[module] == nil {
            Issue.record("\(module) is drawn but is not a Swift module of Package.swift")
        }
    }

    /// Drawn top-down: a module's dependencies are all drawn below it, so no arrow points up.
    @Test func noModuleDependsOnOneAboveIt() throws {
        let order = try Self.pictureLines().map(\.module)
        for (row, line) in try Self.pictureLines().enumerated() {
            for dependency in line.dependencies {
                let below = order.firstIndex(of: dependency).map { $0 > row } ?? false
                #expect(below, "\(line.module) depends on \(dependency), drawn above it or not at all")
            }
        }
    }
}
