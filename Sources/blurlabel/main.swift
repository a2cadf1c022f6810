import BlurLabelCLI
import BlurLabelServeSettings

#if canImport(Glibc)
import Glibc
#endif

exit(CommandLineTool.runMain(helpers: ServeCommandSpecs.all))
