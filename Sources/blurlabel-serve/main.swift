import BlurLabelServe

#if canImport(Glibc)
import Glibc
#endif

exit(ServeMain.run(Array(CommandLine.arguments.dropFirst())))
