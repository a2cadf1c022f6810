// The C library, for every module above this one: they reach it through this module (which also
// wraps its calls that need care: `SystemCall`, `PThread`), never with their own `import Glibc`.
@_exported import Glibc
