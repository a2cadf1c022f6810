import BlurLabelServeSettings
import BlurredLabelCore
import Foundation
import Testing

@testable import BlurLabelServe

/// Small labels rendered on the connection's thread (`InlineRenders`): which go there, that the
/// bytes are a worker's, and that the glyph workspaces stay one per render running at once.
@Suite("Renders on the connection's thread", .serialized)
struct InlineRenderTests {
    /// (A limit of a minute: this debug build on a shared machine takes more than serve's 2 ms.)
    @Test func aMeasuredShapeRendersHereWithAWorkersBytes() throws {
        let server = try TestServer(cacheBytes: 0, inlineLimitSeconds: 60)
        defer { server.stop() }
        let inline = server.service.inline
        let first = try RawHTTP.request(TestServer.path("12,34 €", [("size", "32")]), port: server.port)
        #expect(first.status == 200)
        #expect(inline.taken.load(ordering: .relaxed) == 0, "a shape not measured yet goes to a worker")
        // The same shape, a text as long: rendered on the connection's thread, the same bytes.
        let again = try RawHTTP.request(TestServer.path("12,34 €", [("size", "32")]), port: server.port)
        #expect(inline.taken.load(ordering: .relaxed) == 1)
        #expect(again.status == 200 && again.body == first.body)
        let other = try RawHTTP.request(TestServer.path("56,78 €", [("size", "32")]), port: server.port)
        #expect(other.status == 200 && other.body != first.body)
        #expect(inline.taken.load(ordering: .relaxed) == 2)
        // A longer text, or another shape, goes to a worker.
        let longer = try RawHTTP.request(TestServer.path("123456,78 €", [("size", "32")]), port: server.port)
        #expect(longer.status == 200)
        let otherShape = try RawHTTP.request(TestServer.path("12,34 €", [("size", "33")]), port: server.port)
        #expect(otherShape.status == 200)
        #expect(inline.taken.load(ordering: .relaxed) == 2)
    }

    /// The decision alone: measured, fast, and no longer than the text measured.
    @Test func smallMeansMeasuredFastAndNoLonger() {
        let inline = InlineRenders()
        let shape = InlineRenders.shape("/size:32/MTIsMzQg4oKs.png")
        #expect(shape == "/size:32/.png")
        #expect(InlineRenders.shape("/YQ.png") == "/.png")
        #expect(InlineRenders.shape("/size:32/enc:AAA-_z9.webp") == "/size:32/.webp")
        #expect(!inline.isSmall(shape, textBytes: 9))
        inline.record(shape, textBytes: 9, seconds: 0.0001)
        #expect(inline.isSmall(shape, textBytes: 9))
        #expect(inline.isSmall(shape, textBytes: 3))
        #expect(!inline.isSmall(shape, textBytes: 10))
        #expect(!inline.isSmall("/size:33/.png", textBytes: 9))
        #expect(!inline.isSmall("/size:32/.avif", textBytes: 9), "another format is another shape")
        inline.record(shape, textBytes: 9, seconds: inline.limitSeconds)
        #expect(!inline.isSmall(shape, textBytes: 9), "slow the last time: a worker measures it again")
    }

    /// Many renders at once, on workers and connection threads: never more glyph workspaces than
    /// workers (docs/serve.md's memory formula counts their glyphs per worker).
    @Test func glyphWorkspacesStayOneAWorker() throws {
        let server = try TestServer(cacheBytes: 0, workers: 2, queue: 64, ioThreads: 4, inlineLimitSeconds: 60)
        defer { server.stop() }
        _ = try RawHTTP.request(TestServer.path("0,00 €", [("size", "32")]), port: server.port)
        let statuses = LockedValue<[Int]>([])
        DispatchQueue.concurrentPerform(iterations: 48) { index in
            let path = TestServer.path("\(index),\(index % 7)0 €", [("size", "32")])
            let status = (try? RawHTTP.request(path, port: server.port).status) ?? 0
            statuses.withLock { $0.append(status) }
        }
        let answered = statuses.withLock { $0 }
        #expect(answered.allSatisfy { $0 == 200 || $0 == 503 })
        #expect(answered.contains(200))
        #expect(server.service.inline.taken.load(ordering: .relaxed) > 0)
        #expect((1...2).contains(server.service.workspaces.idleCount))
    }

    /// A lent workspace is the thread's while lent; the thread's own comes back after, and a
    /// second lend reuses the first's.
    @Test func aLentWorkspaceIsTheThreadsWhileLent() {
        let pool = GlyphWorkspacePool()
        let own = GlyphWorkspacePool.currentIdentity
        let lent = pool.lend { GlyphWorkspacePool.currentIdentity }
        #expect(lent != own)
        #expect(GlyphWorkspacePool.currentIdentity == own)
        #expect(pool.lend { GlyphWorkspacePool.currentIdentity } == lent)
        #expect(pool.idleCount == 1)
        let nested = pool.lend { pool.lend { GlyphWorkspacePool.currentIdentity } }
        #expect(nested != lent && nested != own)
        #expect(pool.idleCount == 2)
    }
}
