// Pointers handed to worker threads. `@unchecked Sendable` because the compiler cannot see the
// rule that makes them safe, which each use keeps: the memory is written by at most one thread per
// disjoint part, and read only after the join that ends the writes (`concurrentPerform` and the
// worker pool wait for every worker).

/// A copy of an array in memory that worker threads may read; freed by its owner.
package struct UnsafeSendableArray<Element>: @unchecked Sendable {
    package let pointer: UnsafeMutablePointer<Element>
    package init(_ elements: [Element]) {
        pointer = .allocate(capacity: max(1, elements.count))
        pointer.initialize(from: elements, count: elements.count)
    }
    package func free() { pointer.deallocate() }
}

/// A raw pointer handed to worker threads that each touch a disjoint part of its memory.
package struct UnsafeSendable<Pointee>: @unchecked Sendable {
    package let raw: UnsafeMutablePointer<Pointee>
    package init(_ pointer: UnsafeMutablePointer<Pointee>) { raw = pointer }
    package init(_ pointer: UnsafePointer<Pointee>) { raw = UnsafeMutablePointer(mutating: pointer) }
    package var pointer: UnsafeMutablePointer<Pointee> { raw }
}
