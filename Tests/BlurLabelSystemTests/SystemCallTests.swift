import BlurLabelSystem
import Testing

/// `SystemCall`: an interrupted call is made again, any other failure is one `SystemCallError`,
/// and the read and write loops go on past short transfers.
@Suite("system calls")
struct SystemCallTests {
    @Test func anInterruptedCallIsMadeAgain() throws {
        var calls = 0
        let result = try SystemCall.retrying("test") { () -> Int in
            calls += 1
            if calls < 3 {
                errno = EINTR
                return -1
            }
            return 42
        }
        #expect(result == 42)
        #expect(calls == 3)
    }

    @Test func anyOtherFailureIsThrownWithItsNameAndErrno() {
        var calls = 0
        #expect(throws: SystemCallError(call: "open", code: ENOENT)) {
            try SystemCall.retrying("open") { () -> Int32 in
                calls += 1
                errno = ENOENT
                return -1
            }
        }
        #expect(calls == 1)
        #expect(SystemCallError(call: "open", code: ENOENT).description == "open: No such file or directory")
    }

    @Test func aBadDescriptorIsAnError() {
        var buffer = [UInt8](repeating: 0, count: 4)
        #expect(throws: SystemCallError(call: "read", code: EBADF)) {
            try buffer.withUnsafeMutableBytes { try SystemCall.read(-1, into: $0) }
        }
    }

    /// A pipe delivers what was written in pieces; `read` fills the buffer across them and stops
    /// at the end of the input.
    @Test func readAndWriteGoOnPastShortTransfers() throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        let message = Array("a message longer than one short write".utf8)
        // A writer that takes at most 5 bytes a call, interrupted before every other call.
        var interrupted = false
        let written = try message.withUnsafeBytes { bytes in
            try SystemCall.write(ends[1], bytes) { fd, pointer, count in
                interrupted.toggle()
                if interrupted {
                    errno = EINTR
                    return -1
                }
                return Glibc.write(fd, pointer, min(count, 5))
            }
        }
        #expect(written == message.count)
        close(ends[1])
        var buffer = [UInt8](repeating: 0, count: 100)
        let read = try buffer.withUnsafeMutableBytes { try SystemCall.read(ends[0], into: $0) }
        close(ends[0])
        #expect(read == message.count)
        #expect(Array(buffer[0..<read]) == message)
    }

    /// A writer that writes nothing ends the loop: the count says how far it got.
    @Test func aWriteOfNothingStopsTheLoop() throws {
        let written = try [UInt8](repeating: 1, count: 10).withUnsafeBytes { bytes in
            try SystemCall.write(1, bytes) { _, _, count in count > 6 ? 4 : 0 }
        }
        #expect(written == 4)
    }
}
