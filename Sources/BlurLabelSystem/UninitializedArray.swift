extension Array {
    /// `count` elements written by `initialize`, which sets how many it initialized (from the
    /// front), as `init(unsafeUninitializedCapacity:initializingWith:)` does — except that a count
    /// of 0 returns `[]` without calling it. The standard initializer with capacity 0 stores the
    /// count into the runtime's one shared empty-array object, which two threads doing so at once
    /// makes a data race (ThreadSanitizer reported it in CI); every array made this way in the
    /// package goes through here. Inlinable: called from other modules, a generic call would make
    /// each element type's array at run time, with its metadata (callgrind, `render`).
    @inlinable
    package static func uninitialized(
        count: Int,
        _ initialize: (inout UnsafeMutableBufferPointer<Element>, inout Int) throws -> Void
    ) rethrows -> [Element] {
        guard count > 0 else { return [] }
        return try [Element](unsafeUninitializedCapacity: count, initializingWith: initialize)
    }
}
