import BlurredLabelCore
import Foundation
import Synchronization
import Testing

@testable import BlurLabelServe

#if canImport(Glibc)
import Glibc
#endif

/// `blurlabel serve` as a process, measured as an operator measures it (/proc/PID/status and
/// stat): what the costly request takes, what `font:` probes tell, and the memory bound that
/// docs/serve.md ("Under load") states.
@Suite("serve as a process: cost, fonts, memory bound", .serialized)
struct ServeUnderLoadTests {
    static func folder() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("serve-load-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    @Test(.enabled(if: ServeProcess.executable != nil))
    func fifteenHundredEmojiCostUnderATenthOfASecondAndLittleMemory() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let server = try ServeProcess(["--workers", "2"], in: folder)
        defer { server.stop() }
        // An ordinary emoji label first: fontconfig's ranking and the emoji font are loaded.
        #expect(try RawHTTP.request(ServeProcess.path("😀 9.99"), port: server.port).status == 200)
        let before = server.cpuSeconds
        let attack = ServeProcess.path(String(repeating: "😀", count: 1500), [("size", "2000")])
        let reply = try RawHTTP.request(attack, port: server.port)
        let spent = server.cpuSeconds - before
        print("serve: the emoji attack's refusal took \(spent) s of CPU, peak \(server.megabytes("VmHWM")) MB")
        #expect(reply.status == 400)
        #expect(reply.text.contains("over its budget of 64 MB"), "\(reply.text)")
        // CPU time, which a busy test machine does not stretch (10 ms ticks).
        #expect(spent < 0.1, "the refusal took \(spent) s of CPU")
        #expect(server.megabytes("VmHWM") < 100)
    }

    /// Every `font:` probe gets the same 400 and the same words, whether the name is a file in
    /// the server's working directory, a folder there, a font file without an extension there,
    /// or nothing at all: no answer tells what exists, and no file is ever read.
    @Test(.enabled(if: ServeProcess.executable != nil))
    func fontProbesAllGetTheSameAnswer() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try "top secret\n".write(toFile: folder + "/secret", atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(atPath: folder + "/sub", withIntermediateDirectories: true)
        let font = FontLibrary.embeddedBytes(.dejaVuSans)
        #expect(FileManager.default.createFile(atPath: folder + "/myfont", contents: Data(font)))
        let server = try ServeProcess(["--workers", "1"], in: folder)
        defer { server.stop() }
        var answers: [String] = []
        for name in ["secret", "sub", "nonexistent", "myfont", "./secret", "myfont#0", "secret:file=x"] {
            let reply = try RawHTTP.request(ServeProcess.path("9.99", [("font", name)]), port: server.port)
            #expect(reply.status == 400, "font:\(name)")
            answers.append(reply.text)
        }
        #expect(Set(answers).count == 1, "\(answers)")
        #expect(answers.first?.contains("not an installed family") == true)
        #expect(try RawHTTP.request(ServeProcess.path("9.99", [("font", "default")]), port: server.port).status == 200)
    }

    /// The bound docs/serve.md states: peak resident memory ≤ cache + workers × (budget +
    /// glyph caches) + the fixed amount. Two workers, a 2 MB cache and a 24 MB budget; forty
    /// concurrent labels near the budget, none cached; the peak (VmHWM) after them all.
    @Test(.enabled(if: ServeProcess.executable != nil))
    func peakMemoryStaysWithinTheFormula() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let budget = try RenderBudget(megabytes: 24)
        let (workers, cacheMB) = (2, 2)
        // The largest size of each kind whose estimate is within the budget: near-budget renders.
        let kinds: [[(String, String)]] = [[], [("color", "#c0392b"), ("background", "#fdebd0")], [("radius", "40")]]
        var labels: [String] = []
        for (index, kind) in kinds.enumerated() {
            var size = 100.0
            while true {
                var style = LabelStyle()
                style.typography.size = size + 50
                if let color = kind.first(where: { $0.0 == "color" }) { style.color = try Color(parsing: color.1) }
                if let background = kind.first(where: { $0.0 == "background" }) {
                    style.background = try Color(parsing: background.1)
                }
                if kind.contains(where: { $0.0 == "radius" }) { style.radius = 40 }
                let cost = try LabelPipeline(style: style, budget: budget).cost(of: "56.00 €")
                if cost.workingBytes > budget.bytes { break }
                size += 50
            }
            // Other digits than the measured ones: a few pixels of ink either way, so a step below.
            for n in 0..<14 {
                labels.append(
                    ServeProcess.path("5\(n % 10).\(index)\(n / 10) €", kind + [("size", "\(Int(size) - 50)")])
                )
            }
        }
        let server = try ServeProcess(
            ["--workers", "\(workers)", "--cache-mb", "\(cacheMB)", "--max-render-mb", "24", "--queue", "64"],
            in: folder
        )
        defer { server.stop() }
        #expect(try RawHTTP.request(ServeProcess.path("9.99 €"), port: server.port).status == 200)
        let started = server.megabytes("VmHWM")
        let paths = labels
        let served = Atomic(0)
        let refused = Atomic(0)
        let clients = 8
        let threads = (0..<clients).map { client in
            Thread {
                for (index, path) in paths.enumerated() where index % clients == client {
                    let status = (try? RawHTTP.request(path, port: server.port).status) ?? 0
                    if status == 200 { served.add(1, ordering: .relaxed) }
                    if status == 400 { refused.add(1, ordering: .relaxed) }
                }
            }
        }
        for thread in threads { thread.start() }
        while threads.contains(where: { !$0.isFinished }) { usleep(20_000) }
        #expect(served.load(ordering: .relaxed) == labels.count, "refused: \(refused.load(ordering: .relaxed))")
        let peak = server.megabytes("VmHWM")
        let glyphCachesMB = Double(Limits.glyphCacheBytesPerThread) / Double(1 << 20)
        let bound = Double(cacheMB) + Double(workers) * (24 + glyphCachesMB) + Self.fixedMB
        print("serve under load: peak \(peak) MB (\(started) MB before the load), bound \(bound) MB")
        #expect(peak <= bound, "peak \(peak) MB over the bound \(bound) MB (\(started) MB before the load)")
    }

    /// The fixed amount of docs/serve.md's formula: the process, its threads, the embedded fonts
    /// and fontconfig's ranking, the HTTP layer, responses in flight. Measured: see the doc.
    static let fixedMB = 32.0
}
