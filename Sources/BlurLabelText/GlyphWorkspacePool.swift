import BlurLabelSystem

/// Glyph workspaces (faces and the glyphs kept between labels, up to
/// `GlyphWorkspace.cacheByteLimit + colorCacheByteLimit`) lent to whichever thread renders, one a
/// render, instead of one kept by every thread that ever rendered. `serve` renders on its workers
/// and, for small labels, on its connection threads: with the pool there are never more
/// workspaces than renders that ran at once (at most `--workers`), so docs/serve.md's memory
/// formula counts them per worker whichever threads render.
package final class GlyphWorkspacePool: Sendable {
    /// The workspaces not lent, as retained `Unmanaged` addresses: a workspace is used by one
    /// thread at a time, the one it is lent to, and passes between threads only through this lock.
    private let idle = LockedValue<[UInt]>([])

    package init() {}

    deinit {
        for address in idle.withLock({ $0 }) {
            Unmanaged<GlyphWorkspace>.fromOpaque(UnsafeRawPointer(bitPattern: address)!).release()
        }
    }

    /// Workspaces made so far and not lent now (for tests).
    package var idleCount: Int { idle.withLock { $0.count } }

    /// Runs `body` with an idle workspace of the pool (a new one when none is idle) as the calling
    /// thread's, then returns it to the pool.
    package func lend<Result, E: Error>(_ body: () throws(E) -> Result) throws(E) -> Result {
        let address =
            idle.withLock { $0.popLast() }
            ?? UInt(bitPattern: Unmanaged.passRetained(GlyphWorkspace()).toOpaque())
        defer { idle.withLock { $0.append(address) } }
        return try GlyphWorkspace.withCurrent(UnsafeMutableRawPointer(bitPattern: address)!, body)
    }

    /// The workspace the calling thread uses now, as a number (for tests: the same number means
    /// the same workspace).
    package static var currentIdentity: UInt { UInt(bitPattern: ObjectIdentifier(GlyphWorkspace.current).hashValue) }
}
