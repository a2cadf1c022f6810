import BlurLabelSystem
import BlurredLabelCore

/// Progress on standard error: a live bar with count, rate and ETA on a terminal, a plain line
/// every few seconds otherwise.
final class BatchProgress {
    private let total: Int?
    private let output: CommandLineTool.Output
    private let started = Stopwatch()
    private var lastShown = 0.0
    private let live = isatty(STDERR_FILENO) != 0
    private var drewLive = false

    init(total: Int?, output: CommandLineTool.Output) {
        self.total = total
        self.output = output
    }

    var elapsed: Double { started.seconds }

    /// Called after each line; shows progress when it is time to.
    func update(done: Int) {
        let now = started.seconds
        let interval = live ? 0.2 : 5.0
        guard now - lastShown >= interval else { return }
        lastShown = now
        let rate = Double(done) / max(elapsed, 1e-9)
        var text = "\(done)"
        if let total {
            text += "/\(total)"
            let eta = rate > 0 ? Double(total - done) / rate : 0
            if live {
                let width = 30
                let filled = total == 0 ? width : min(width, width * done / max(1, total))
                text =
                    "[" + String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled) + "] "
                    + text
            }
            text += cFormat(" %.0f labels/s, ETA ", rate) + Self.duration(eta)
        } else {
            text += cFormat(" %.0f labels/s", rate)
        }
        if live {
            output.standardError("\r\u{1B}[K" + text)
            drewLive = true
        } else {
            output.standardError("batch: " + text + "\n")
        }
    }

    /// Writes a line's message now (in one write), first clearing a live bar drawn on the
    /// terminal so the message stands on its own line (the next update draws the bar again).
    func say(_ message: String) {
        if drewLive {
            output.standardError("\r\u{1B}[K" + message)
            drewLive = false
        } else {
            output.standardError(message)
        }
    }

    /// Ends the live line so the summary starts on its own.
    func finish() { if drewLive { output.standardError("\r\u{1B}[K") } }

    static func duration(_ seconds: Double) -> String {
        let s = Int(seconds.rounded())
        return s >= 3600 ? "\(s / 3600)h\(s % 3600 / 60)m" : s >= 60 ? "\(s / 60)m\(s % 60)s" : "\(s)s"
    }
}
