import BlurLabelCLI

#if canImport(Glibc)
import Glibc
#endif

exit(CommandLineTool.runMain())
