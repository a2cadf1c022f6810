// Pointers handed to worker threads. `@unchecked Sendable` because the compiler cannot see the
// rule that makes them safe, which each use keeps: the memory is written by at most one thread per
// disjoint part, and read only after the join that ends the writes (`concurrentPerform` and the
// worker pool wait for every worker).

/// A copy of an array in memory that worker threads may read; freed by its owner.
package struct UnsafeSendableArray<Element>: @unchecked Sendable {
    package let pointer: UnsafeMutablePointer<Element>
    @inlinable package init(_ elements: [Element]) {
        pointer = .allocate(capacity: max(1, elements.count))
        pointer.initialize(from: elements, count: elements.count)
    }
    /// One element, with no array made on the way: an array of a C struct from another module
    /// builds its storage type's metadata at run time, about 8,000 instructions the first time.
    @inlinable package init(one element: Element) {
        pointer = .allocate(capacity: 1)
        pointer.initialize(to: element)
    }
    @inlinable package func free() { pointer.deallocate() }
}

/// A raw pointer handed to worker threads that each touch a disjoint part of its memory.
package struct UnsafeSendable<Pointee>: @unchecked Sendable {
    package let raw: UnsafeMutablePointer<Pointee>
    @inlinable package init(_ pointer: UnsafeMutablePointer<Pointee>) { raw = pointer }
    @inlinable package init(_ pointer: UnsafePointer<Pointee>) { raw = UnsafeMutablePointer(mutating: pointer) }
    @inlinable package var pointer: UnsafeMutablePointer<Pointee> { raw }
}
