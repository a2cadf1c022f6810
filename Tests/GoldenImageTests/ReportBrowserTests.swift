import BlurredLabelCore
import Foundation
import Testing

@testable import GoldenImage

/// Opens a generated report in a real browser (Debian's headless Chromium, installed by
/// scripts/ensure-browser when missing) and reads back what the page's own DOM says.
@Suite("Report page in a real browser")
struct ReportBrowserTests {
    /// Runs after `load` in a copy of the page: every picture decoded at its own size, the flip
    /// button changes the shown picture, the slider moves the line, and the names are text.
    static let probe = """
        <script>
        addEventListener('load', () => {
          const images = [...document.images];
          const decoded = images.filter(i => i.complete && i.naturalWidth === Number(i.dataset.width) && i.naturalHeight === Number(i.dataset.height)).length;
          const flips = [...document.querySelectorAll('button.flip')];
          let flipped = 0;
          for (const button of flips) {
            const view = button.parentElement.querySelector('img.flip-view');
            const before = view.getAttribute('src');
            button.click();
            const after = view.getAttribute('src');
            if (before === button.dataset.expected && after === button.dataset.actual && after !== before) flipped++;
            button.click();
          }
          let slid = 0;
          for (const range of document.querySelectorAll('input.slide')) {
            range.value = 20; range.dispatchEvent(new Event('input'));
            if (range.closest('.slider').querySelector('img.top').style.clipPath.includes('20%')) slid++;
          }
          const verdict = {images: images.length, decoded, flips: flips.length, flipped, slid,
                           names: [...document.querySelectorAll('h2 .name')].map(n => n.textContent),
                           scripts: document.scripts.length};
          const out = document.createElement('pre');
          out.id = 'verdict';
          out.textContent = JSON.stringify(verdict).replace(/[<>&]/g, c => '\\\\u' + c.charCodeAt(0).toString(16).padStart(4, '0'));
          document.body.append(out);
        });
        </script>
        """

    struct Verdict: Decodable {
        let images: Int, decoded: Int, flips: Int, flipped: Int, slid: Int, names: [String], scripts: Int
    }

    static func browser() throws -> String {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let (status, out, err) = try runProcess(root.appendingPathComponent("scripts/ensure-browser").path, [])
        guard status == 0, let path = out.split(separator: "\n").last.map(String.init) else {
            Issue.record("no headless browser: \(err)")
            throw CancellationError()
        }
        return path
    }

    @Test("three failures: every picture decodes at its size, flip and slide work, names are text")
    func threeFailuresInChromium() async throws {
        let artifacts = try folder()
        _ = try await makeFailures(awkwardNames, artifacts: artifacts)
        let page = ComparisonReport(folder: artifacts.path).page
        let probe = artifacts.appendingPathComponent("probe.html")
        let html = try String(contentsOfFile: page, encoding: .utf8)
        try html.replacingOccurrences(of: "</body>", with: Self.probe + "</body>").write(
            to: probe,
            atomically: true,
            encoding: .utf8
        )

        let profile = try folder()
        let (status, dom, err) = try runProcess(
            try Self.browser(),
            [
                "--headless", "--no-sandbox", "--disable-gpu", "--user-data-dir=\(profile.path)",
                "--dump-dom", probe.absoluteString,
            ]
        )
        #expect(status == 0, "browser: \(err.suffix(500))")
        let marker = try #require(
            dom.range(of: "<pre id=\"verdict\">"),
            "no verdict in the DOM: \(dom.suffix(300)) \(err.suffix(300))"
        )
        let json = dom[marker.upperBound...].prefix { $0 != "<" }
        let verdict = try JSONDecoder().decode(Verdict.self, from: Data(json.utf8))
        #expect(verdict.images == 3 * 6)  // expected, actual, diff, the flip view and the slider's two
        #expect(verdict.decoded == verdict.images)
        #expect(verdict.flips == 3 && verdict.flipped == 3)
        #expect(verdict.slid == 3)
        #expect(Set(verdict.names) == Set(awkwardNames))
        #expect(verdict.scripts == 2)  // the page's and the probe's: no name became a script
    }
}

/// Runs a program and returns its exit status, standard output and standard error.
func runProcess(_ path: String, _ arguments: [String]) throws -> (Int32, String, String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = arguments
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    // Read both pipes while it runs, so a full pipe cannot stall it.
    let errData = LockedData()
    let reader = Thread { errData.set(err.fileHandleForReading.readDataToEndOfFile()) }
    reader.start()
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    while !errData.done { usleep(1000) }
    return (
        process.terminationStatus, String(decoding: outData, as: UTF8.self),
        String(decoding: errData.value, as: UTF8.self)
    )
}

final class LockedData: Sendable {
    private let state = LockedValue<(Data, Bool)>((Data(), false))
    func set(_ data: Data) { state.withLock { $0 = (data, true) } }
    var done: Bool { state.withLock { $0.1 } }
    var value: Data { state.withLock { $0.0 } }
}
