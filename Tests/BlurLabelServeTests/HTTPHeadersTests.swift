import HTTPServer
import Testing

/// Header fields as a client writes them: any case, repeated, in an order that is kept.
@Suite("HTTP header fields and statuses")
struct HTTPHeadersTests {
    @Test func namesMatchInAnyCaseAndTheFirstFieldWins() {
        let received: HTTPHeaders = [("hOsT", "127.0.0.1:8080"), ("Accept", "*/*"), ("HOST", "evil.example")]
        let request = HTTPRequest(method: "GET", path: "/", headers: received)
        #expect(request.header("Host") == "127.0.0.1:8080")
        #expect(received["host"] == "127.0.0.1:8080" && received["X-Missing"] == nil)
        #expect(received.map(\.name) == ["hOsT", "Accept", "HOST"])
    }

    @Test func joinedFieldsKeepTheirOrderAndRepeats() {
        var headers: HTTPHeaders = [("ETag", "\"a\"")]
        headers.add("Cache-Control", "no-store")
        let joined = [("Content-Type", "image/png")] + headers + [("Cache-Control", "max-age=1")]
        #expect(joined.map(\.name) == ["Content-Type", "ETag", "Cache-Control", "Cache-Control"])
        #expect(joined["cache-control"] == "no-store" && joined.count == 4)
    }

    @Test func statusesAreTheirCodes() {
        let response = HTTPResponse.text(.misdirectedRequest, "wrong host")
        #expect(response.status == 421 && response.status.code == 421 && "\(response.status)" == "421")
        #expect(HTTPStatus.clientClosedRequest.isClientError && !HTTPStatus.serviceUnavailable.isClientError)
        #expect([HTTPStatus.serviceUnavailable, .ok, .notFound].sorted() == [200, 404, 503])
        #expect(response.headers["Content-Type"] == "text/plain; charset=utf-8")
    }
}
