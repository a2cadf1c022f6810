import BlurLabelServeSettings
import HTTPServer

/// `GET /SIGNATURE/info/<options>/<text>.json`, signed like a label (the signature covers
/// `/info/…/<text>.json`): the label's size before it is drawn, and its path, as
/// `blurlabel sign --json` prints them: `{"path":"/SIGNATURE/…/<text>.png","width":W,"height":H}`,
/// so a page can write `<img width height>` and leave no layout shift.
enum LabelInfo {
    /// Whether a signed rest asks for a label's info.
    static func isInfo(_ rest: String) -> Bool { rest.hasPrefix("/info/") && rest.hasSuffix(".json") }

    /// The JSON line `sign --json` prints and the info route answers.
    static func json(path: String, width: Int, height: Int) -> String {
        "{\"path\":\"\(path)\",\"width\":\(width),\"height\":\(height)}"
    }

    /// The answer to an info request whose signature verified: its size is measured on a worker
    /// (it lays the text out), a 400 for a bad label, a 503 when the queue is full.
    static func answer(_ rest: String, service: LabelService, responder: HTTPResponder) -> HTTPResponse? {
        let inner = String(rest.dropFirst("/info".count))
        let label: LabelPath
        do { label = try LabelPath(rest: inner, keys: service.keys, presets: service.presets, suffix: ".json") } catch {
            return .text(.badRequest, error.description)
        }
        let labelRest = String(inner.dropLast(".json".count)) + ".png"
        let signature =
            service.unsigned
            ? "unsafe"
            : Keys.signature(of: labelRest, key: service.keys.signing[0].key, salt: service.keys.signing[0].salt)
        let accepted = service.workers.submit {
            let response: HTTPResponse
            do {
                let size = try URLLabelOptions.size(label.options, text: label.text)
                let body = json(path: "/" + signature + labelRest, width: size.width, height: size.height)
                response = HTTPResponse(
                    status: .ok,
                    headers: [("Content-Type", "application/json"), ("Cache-Control", LabelService.immutable)],
                    body: Array((body + "\n").utf8)
                )
            } catch {
                response = .text(.badRequest, "\(error)")
            }
            responder.respond(response)
        }
        return accepted ? nil : .text(.serviceUnavailable, "busy: try again", headers: [("Retry-After", "1")])
    }
}
