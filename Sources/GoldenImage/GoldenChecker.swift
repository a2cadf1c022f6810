import BlurredLabelKit
import Foundation

/// The decision behind `assertGolden`, free of any test framework: compare, record, write artifacts.
struct GoldenChecker {
    let options: GoldenOptions
    let filePath: String

    var folder: URL {
        if let folder = options.folder { return folder }
        var directory = URL(fileURLWithPath: filePath).deletingLastPathComponent()
        while directory.path != "/" {
            if FileManager.default.fileExists(atPath: directory.appendingPathComponent("Package.swift").path) {
                return directory.appendingPathComponent("Golden")
            }
            directory.deleteLastPathComponent()
        }
        return URL(fileURLWithPath: filePath).deletingLastPathComponent().appendingPathComponent("Golden")
    }

    var artifactsFolder: URL {
        if let folder = options.artifacts { return folder }
        if let path = ProcessInfo.processInfo.environment["BLURLABEL_ARTIFACTS"], !path.isEmpty { return URL(fileURLWithPath: path) }
        return FileManager.default.temporaryDirectory.appendingPathComponent("blurlabel-artifacts")
    }

    func check(_ actual: Image, named name: String) -> GoldenOutcome {
        let reference = folder.appendingPathComponent(name + ".png")
        do {
            guard FileManager.default.fileExists(atPath: reference.path) else {
                if options.record == .never {
                    return fail("golden \(name): no reference at \(reference.path) (record mode 'never': nothing written; run with BLURLABEL_RECORD=missing to create it)")
                }
                try write(actual, to: reference)
                return GoldenOutcome(passed: false, message: "golden \(name): recorded a new reference at \(reference.path); check it and run again",
                                     referenceWritten: true, artifactPaths: [])
            }
            let expected = try PNGDecoder.decode(contentsOf: reference.path)
            let result: ImageComparison.Result
            do {
                result = try options.comparison.compare(expected: expected, actual: actual)
            } catch let mismatch as ImageComparison.SizeMismatch {
                let paths = try writeArtifacts(name: name, expected: expected, actual: actual, result: nil)
                let rewritten = try rewriteIfAsked(actual, to: reference, failed: true)
                return fail("golden \(name): \(mismatch)" + (rewritten ? " (reference rewritten)" : "") + artifactLines(paths), written: rewritten, paths: paths)
            }
            if result.passes {
                if options.record == .all && !result.isIdentical { try write(actual, to: reference) }
                return GoldenOutcome(passed: options.record != .all || result.isIdentical,
                                     message: options.record == .all && !result.isIdentical ? "golden \(name): reference rewritten (record mode 'all')" : "golden \(name): \(result.summary)",
                                     referenceWritten: options.record == .all && !result.isIdentical, artifactPaths: [])
            }
            let paths = try writeArtifacts(name: name, expected: expected, actual: actual, result: result)
            let rewritten = try rewriteIfAsked(actual, to: reference, failed: true)
            return fail("golden \(name) differs: \(result.summary), allowed \(max(options.comparison.maxDiffPixels, Int(options.comparison.maxDiffRatio * Double(result.width * result.height)))) at threshold \(options.comparison.threshold)"
                        + (rewritten ? " (reference rewritten)" : "") + artifactLines(paths), written: rewritten, paths: paths)
        } catch {
            return fail("golden \(name): \(error)")
        }
    }

    private func fail(_ message: String, written: Bool = false, paths: [String] = []) -> GoldenOutcome {
        GoldenOutcome(passed: false, message: message, referenceWritten: written, artifactPaths: paths)
    }

    private func rewriteIfAsked(_ actual: Image, to reference: URL, failed: Bool) throws -> Bool {
        guard options.record == .all || (options.record == .failed && failed) else { return false }
        try write(actual, to: reference)
        return true
    }

    private func write(_ image: Image, to url: URL) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileIO.write(try PNGEncoder(compressionLevel: 9).encode(image), to: url.path)
    }

    private func writeArtifacts(name: String, expected: Image, actual: Image, result: ImageComparison.Result?) throws -> [String] {
        let folder = artifactsFolder
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var images: [(String, Image)] = [("expected", expected), ("actual", actual)]
        if let result {
            let diff = try options.comparison.diffImage(expected: expected, result: result)
            images.append(("diff", diff))
            images.append(("side-by-side", try options.comparison.sideBySide(expected: expected, diff: diff, actual: actual)))
        }
        return try images.map { suffix, image in
            let path = folder.appendingPathComponent("\(name)-\(suffix).png").path
            try FileIO.write(try PNGEncoder().encode(image), to: path)
            return path
        }
    }

    private func artifactLines(_ paths: [String]) -> String {
        paths.isEmpty ? "" : "\n" + paths.map { "  " + $0 }.joined(separator: "\n")
    }
}
