import BlurLabelPixels

/// The HTML of a report: one self-contained page (inline CSS and a few lines of script, no
/// outside asset) that shows each entry's pictures, lets a person flip or slide between expected
/// and actual, and gives the command that accepts the new picture. Every text is escaped.
struct ComparisonReportPage {
    let entries: [ComparisonReportEntry]

    var html: String {
        let failed = entries.filter { $0.outcome != .recorded }.count
        let recorded = entries.count - failed
        let title =
            entries.isEmpty
            ? "no failed golden images"
            : "\(failed) failed" + (recorded > 0 ? ", \(recorded) recorded" : "") + " golden image"
                + (entries.count == 1 ? "" : "s")
        var out = """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(htmlEscaped(title))</title>
            <style>\(Self.style)</style>
            </head><body>
            <h1>Image comparison report: \(htmlEscaped(title))</h1>
            <p class="hint">Expected is the reference in the repository, actual is what the test made; in the diff, red pixels differ and yellow ones are anti-aliasing that was allowed. <b>Flip</b> swaps expected and actual in place; the slider shows expected left of the line, actual right of it.</p>

            """
        if entries.count > 1 {
            out +=
                "<nav><ol>"
                + entries.enumerated().map { index, entry in
                    "<li><a href=\"#entry-\(index + 1)\">\(htmlEscaped(entry.name))</a> <span class=\"badge \(entry.outcome.rawValue)\">\(label(entry.outcome))</span></li>"
                }.joined() + "</ol></nav>\n"
        }
        for (index, entry) in entries.enumerated() { out += section(entry, number: index + 1) }
        out += "<script>\(Self.script)</script>\n</body></html>\n"
        return out
    }

    private func section(_ entry: ComparisonReportEntry, number: Int) -> String {
        var out = "<section class=\"entry\" id=\"entry-\(number)\">\n"
        out +=
            "<h2><span class=\"badge \(entry.outcome.rawValue)\">\(label(entry.outcome))</span> <span class=\"name\">\(htmlEscaped(entry.name))</span></h2>\n"
        if entry.test != nil || entry.location != nil {
            out += "<p class=\"meta\">"
            if let test = entry.test { out += "test <code class=\"test\">\(htmlEscaped(test))</code> " }
            if let location = entry.location { out += "at <code>\(htmlEscaped(location))</code>" }
            out += "</p>\n"
        }
        out += "<p class=\"summary\">\(htmlEscaped(entry.summary))</p>\n<div class=\"pictures\">"
        for (caption, picture) in [("expected", entry.expected), ("actual", entry.actual), ("diff", entry.diff)] {
            guard let picture else { continue }
            out +=
                "<figure><figcaption>\(caption) <small>\(picture.width)×\(picture.height)</small></figcaption>\(img(picture, scale: scale(entry)))</figure>"
        }
        out += "</div>\n"
        if let expected = entry.expected, let actual = entry.actual, expected.width == actual.width,
            expected.height == actual.height
        {
            let s = scale(entry)
            out += """
                <div class="compare">
                <div class="flipper"><button type="button" class="flip" data-expected="\(source(expected))" data-actual="\(source(actual))">Flip (showing expected)</button>
                \(img(expected, scale: s, extra: " class=\"flip-view\" data-showing=\"expected\""))</div>
                <div class="slider"><label>expected ◀ <input type="range" class="slide" min="0" max="100" value="50" aria-label="slide between expected and actual"> ▶ actual</label>
                <div class="stack">\(img(expected, scale: s))\(img(actual, scale: s, extra: " class=\"top\" style=\"clip-path: inset(0 0 0 50%)\""))</div></div>
                </div>

                """
        }
        if !entry.acceptCommands.isEmpty {
            out +=
                "<p class=\"accept\">\(entry.outcome == .recorded ? "If the new picture is right, nothing to do; to record it again:" : "To accept the actual picture as the new reference:")</p>\n"
            out +=
                entry.acceptCommands.map { "<pre class=\"command\">\(htmlEscaped($0))</pre>" }.joined(separator: "\n")
                + "\n"
        }
        return out + "</section>\n"
    }

    private func label(_ outcome: ComparisonReportEntry.Outcome) -> String {
        switch outcome {
        case .failed: "differs"
        case .sizeMismatch: "size differs"
        case .recorded: "new reference"
        case .missing: "no reference"
        }
    }

    /// Small pictures are shown enlarged, pixel for pixel, so a one-pixel change can be seen.
    private func scale(_ entry: ComparisonReportEntry) -> Int {
        let side =
            [entry.expected, entry.actual, entry.diff].compactMap { $0.map { max($0.width, $0.height) } }.max() ?? 1
        return max(1, min(8, 320 / max(1, side)))
    }

    private func img(_ picture: ComparisonReportEntry.Picture, scale: Int, extra: String = "") -> String {
        "<img src=\"\(source(picture))\" width=\"\(picture.width * scale)\" height=\"\(picture.height * scale)\" data-width=\"\(picture.width)\" data-height=\"\(picture.height)\" alt=\"\"\(extra)>"
    }

    /// A file name as a relative URL (percent-encoded), escaped for an attribute.
    private func source(_ picture: ComparisonReportEntry.Picture) -> String {
        htmlEscaped(percentEncodedFileName(picture.file))
    }

    static let style = """
        body{font:15px/1.45 system-ui,sans-serif;margin:24px;color:#1d1d1f;background:#fafafa}
        h1{font-size:22px;margin:0 0 6px}.hint{color:#555;max-width:60em}
        nav ol{padding-left:1.4em}section.entry{background:#fff;border:1px solid #ddd;border-radius:8px;padding:12px 16px;margin:18px 0}
        h2{font-size:18px;margin:4px 0;overflow-wrap:anywhere}.meta{color:#555;margin:2px 0}.summary{font-family:ui-monospace,monospace;font-size:13px;background:#f3f3f3;padding:6px 8px;border-radius:4px}
        .badge{font-size:12px;font-weight:600;padding:2px 7px;border-radius:10px;background:#d32f2f;color:#fff;vertical-align:middle}
        .badge.recorded{background:#1976d2}.badge.sizeMismatch{background:#ef6c00}.badge.missing{background:#6d4c41}
        .pictures,.compare{display:flex;flex-wrap:wrap;gap:16px;align-items:flex-start;margin:8px 0}figure{margin:0}
        .pictures figure{max-width:calc((100% - 32px) / 3)}.compare>div{max-width:calc((100% - 16px) / 2)}
        figcaption{font-size:13px;color:#333;margin-bottom:3px}small{color:#777}
        img{display:block;max-width:100%;height:auto;image-rendering:pixelated;border:1px solid #bbb;background:repeating-conic-gradient(#d8d8d8 0 25%,#fff 0 50%) 0 0/16px 16px}
        button.flip{display:block;margin-bottom:4px;font:inherit;padding:3px 10px;cursor:pointer}
        .slider label{display:block;font-size:13px;margin-bottom:4px}.stack{position:relative}.stack img.top{position:absolute;left:0;top:0}
        pre.command{background:#1d1d1f;color:#e8e8e8;padding:8px 10px;border-radius:4px;overflow-x:auto;font-size:13px;white-space:pre-wrap;overflow-wrap:anywhere}
        """

    static let script = """
        for (const button of document.querySelectorAll('button.flip')) button.addEventListener('click', () => {
          const view = button.parentElement.querySelector('img.flip-view');
          const next = view.dataset.showing === 'expected' ? 'actual' : 'expected';
          view.src = button.dataset[next]; view.dataset.showing = next; button.textContent = 'Flip (showing ' + next + ')';
        });
        for (const range of document.querySelectorAll('input.slide')) range.addEventListener('input', () => {
          range.closest('.slider').querySelector('img.top').style.clipPath = 'inset(0 0 0 ' + range.value + '%)';
        });
        """
}

/// Text made safe for HTML element content and attribute values.
/// A file name as a relative URL path segment: every UTF-8 byte outside Foundation's
/// `CharacterSet.urlPathAllowed` less `:;?#%` (so a letter, digit or one of `!$&'()*+,-./=@_~`)
/// as `%XX` in capitals, as `addingPercentEncoding(withAllowedCharacters:)` writes it.
func percentEncodedFileName(_ name: String) -> String {
    let hex = Array("0123456789ABCDEF".utf8)
    var out: [UInt8] = []
    out.reserveCapacity(name.utf8.count)
    for byte in name.utf8 {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            out.append(byte)
        case _ where "!$&'()*+,-./=@_~".utf8.contains(byte):
            out.append(byte)
        default:
            out += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 15)]]
        }
    }
    return String(decoding: out, as: UTF8.self)
}

/// `text` for HTML text and attribute values: `&`, `<`, `>`, `"` and `'` as entities.
package func htmlEscaped(_ text: String) -> String {
    var out = ""
    out.reserveCapacity(text.utf8.count)
    for character in text.unicodeScalars {
        switch character {
        case "&": out += "&amp;"
        case "<": out += "&lt;"
        case ">": out += "&gt;"
        case "\"": out += "&quot;"
        case "'": out += "&#39;"
        default: out.unicodeScalars.append(character)
        }
    }
    return out
}
