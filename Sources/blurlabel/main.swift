import BlurLabelCLI
import BlurLabelServeSettings

CommandLineTool.exitAfterRunning(helpers: ServeCommandSpecs.all)
